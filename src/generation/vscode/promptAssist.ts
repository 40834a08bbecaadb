// Completion and hover in .prompt files, thin over the prompt core's assist data.
import * as vscode from 'vscode';
import { completionsAt, hoverAt } from '../core/prompt/assist';

const KINDS = {
  key: vscode.CompletionItemKind.Property,
  setting: vscode.CompletionItemKind.Field,
  variable: vscode.CompletionItemKind.Variable,
  helper: vscode.CompletionItemKind.Function,
} as const;

export function registerPromptAssist(): vscode.Disposable {
  const selector: vscode.DocumentSelector = { language: 'dotprompt' };
  return vscode.Disposable.from(
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        provideCompletionItems(doc, pos) {
          return completionsAt(doc.getText(), pos.line, pos.character).map((i) => {
            const item = new vscode.CompletionItem(i.label, KINDS[i.kind]);
            item.detail = i.detail;
            return item;
          });
        },
      },
      '{',
      ' ',
    ),
    vscode.languages.registerHoverProvider(selector, {
      provideHover(doc, pos) {
        const h = hoverAt(doc.getText(), pos.line, pos.character);
        if (!h) return undefined;
        // appendText would turn every space into &nbsp;: the text is escaped as Markdown instead.
        const escaped = h.text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
        return new vscode.Hover(new vscode.MarkdownString(`**${h.word}**: ${escaped}`));
      },
    }),
  );
}
