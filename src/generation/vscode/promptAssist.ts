// Completion and hover in .prompt files, thin over the prompt core's assist data.
import * as vscode from 'vscode';
import { completionsAt, hoverAt, inModelValue } from '../core/prompt/assist';
import type { PromptModels } from './promptModels';

/** The endpoint's models that generate content, as completion items. */
async function modelItems(models: PromptModels): Promise<vscode.CompletionItem[]> {
  return ((await models.list()) ?? []).map((m) => {
    const item = new vscode.CompletionItem(m.name.replace(/^models\//, ''), vscode.CompletionItemKind.Value);
    item.detail = m.displayName ?? m.name;
    item.documentation = m.description;
    return item;
  });
}

const KINDS = {
  key: vscode.CompletionItemKind.Property,
  setting: vscode.CompletionItemKind.Field,
  variable: vscode.CompletionItemKind.Variable,
  helper: vscode.CompletionItemKind.Function,
} as const;

export function registerPromptAssist(models: PromptModels): vscode.Disposable {
  const selector: vscode.DocumentSelector = { language: 'dotprompt' };
  return vscode.Disposable.from(
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        provideCompletionItems(doc, pos) {
          if (inModelValue(doc.getText(), pos.line, pos.character)) return modelItems(models);
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
