// Completion and hover in .prompt files, thin over the prompt core's assist data.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import { listModels } from '../core/client';
import { completionsAt, hoverAt, inModelValue } from '../core/prompt/assist';
import { keyInQuery } from './chatEnvironment';

/** The endpoint's models that generate content (asked when model names are first completed, then kept). */
function modelNames(services: WorkbenchServices): () => Promise<vscode.CompletionItem[]> {
  let cached: Promise<vscode.CompletionItem[]> | undefined;
  return () =>
    (cached ??= (async () => {
      const ep = await services.endpoints.resolve('generation');
      if (!ep.credential) return [];
      const r = await listModels({
        baseUrl: ep.baseUrl,
        apiKey: ep.credential,
        keyInQuery: keyInQuery(),
        generateOnly: true,
      });
      if (r.error) cached = undefined;
      return r.models.map((m) => {
        const item = new vscode.CompletionItem(m.name.replace(/^models\//, ''), vscode.CompletionItemKind.Value);
        item.detail = m.displayName ?? m.name;
        item.documentation = m.description;
        return item;
      });
    })());
}

const KINDS = {
  key: vscode.CompletionItemKind.Property,
  setting: vscode.CompletionItemKind.Field,
  variable: vscode.CompletionItemKind.Variable,
  helper: vscode.CompletionItemKind.Function,
} as const;

export function registerPromptAssist(services: WorkbenchServices): vscode.Disposable {
  const selector: vscode.DocumentSelector = { language: 'dotprompt' };
  const models = modelNames(services);
  return vscode.Disposable.from(
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        provideCompletionItems(doc, pos) {
          if (inModelValue(doc.getText(), pos.line, pos.character)) return models();
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
