import * as vscode from 'vscode';
import { completeQuery, type CompletionKind } from '../core/completion';
import type { AttributionCache } from '../core/attribution';
import { QUERY_LANGUAGE } from './constants';

const KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  entitySet: vscode.CompletionItemKind.Class,
  option: vscode.CompletionItemKind.Property,
  field: vscode.CompletionItemKind.Field,
  operator: vscode.CompletionItemKind.Operator,
  keyword: vscode.CompletionItemKind.Keyword,
  function: vscode.CompletionItemKind.Function,
  value: vscode.CompletionItemKind.Value,
};

export function registerQueryCompletion(attributions: AttributionCache): vscode.Disposable {
  return vscode.languages.registerCompletionItemProvider(
    ['vscode-notebook-cell', 'file', 'untitled'].map((scheme) => ({ language: QUERY_LANGUAGE, scheme })),
    {
      provideCompletionItems(doc, position) {
        const offset = doc.offsetAt(position);
        return completeQuery(doc.getText(), offset, { dois: attributions.dois() }).map((c, i) => {
          const item = new vscode.CompletionItem(c.label, KIND[c.kind]);
          item.insertText = c.insertText;
          item.detail = c.detail;
          item.range = new vscode.Range(doc.positionAt(c.replaceStart), doc.positionAt(c.replaceEnd));
          // Keep the core's order (common vocabulary such as pH first, then the list's own) among equal fuzzy matches.
          item.sortText = String(i).padStart(5, '0');
          // Values replace from their opening quote, so they must match as quoted text.
          item.filterText = c.filterText ?? (c.kind === 'value' ? c.insertText : c.label);
          // `$select = ` leaves the cursor where the fields are wanted: list them at once.
          if (c.suggestAfter) item.command = { title: '', command: 'editor.action.triggerSuggest' };
          return item;
        });
      },
    },
    '/',
    '?',
    '&',
    '$',
    '=',
    ',',
    ' ',
    "'",
    '(',
  );
}
