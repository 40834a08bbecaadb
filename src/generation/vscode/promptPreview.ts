// The preview of a .prompt file: the exact GenerateContentRequest it renders to with its default input, as a
// read-only JSON document beside the file, rendered again as the file (or a partial beside it) changes.
import * as vscode from 'vscode';
import { readPartial } from './promptPartials';
import { PromptFile } from '../core/prompt/promptFile';
import { PromptRenderError } from '../core/prompt/promptFile';

export const PREVIEW_SCHEME = 'apiworkbench-prompt-preview';
const DELAY_MS = 200;

function previewUri(source: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({
    scheme: PREVIEW_SCHEME,
    path: `${source.path}.request.json`,
    query: source.toString(),
  });
}

/** The preview's text: `{model, request}`, or `{problems}` (file lines) when the file does not render. */
export async function previewText(doc: vscode.TextDocument): Promise<string> {
  const { prompt, problems } = await PromptFile.load(doc.getText(), { partials: (n) => readPartial(doc, n) });
  const errors = problems.filter((p) => p.severity === 'error');
  if (!prompt || errors.length)
    return JSON.stringify({ problems: errors.map((p) => `line ${p.line}: ${p.message}`) }, null, 2) + '\n';
  try {
    const { model, request } = await prompt.render({});
    return JSON.stringify({ model: `models/${model}`, request }, null, 2) + '\n';
  } catch (err) {
    if (err instanceof PromptRenderError) return JSON.stringify({ problems: [err.message] }, null, 2) + '\n';
    throw err;
  }
}

export class PromptPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.languageId !== 'dotprompt') return;
        // The file itself, or any prompt previewed beside a partial that changed.
        for (const d of vscode.workspace.textDocuments) {
          if (d.uri.scheme !== PREVIEW_SCHEME) continue;
          const source = vscode.Uri.parse(d.uri.query);
          const sameDir = source.path.replace(/[^/]*$/, '') === e.document.uri.path.replace(/[^/]*$/, '');
          if (source.toString() === e.document.uri.toString() || sameDir) this.refresh(d.uri);
        }
      }),
    ];
  }

  private refresh(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.changed.fire(uri);
      }, DELAY_MS),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const source = vscode.Uri.parse(uri.query);
    const doc = await vscode.workspace.openTextDocument(source);
    return previewText(doc);
  }

  /** Opens the preview of `source` (default: the active editor's .prompt file) beside it. */
  async show(source?: vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const uri = source ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a .prompt file to preview the request it sends.'));
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(previewUri(uri));
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: true,
    });
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    vscode.Disposable.from(...this.subscriptions, this.changed).dispose();
  }
}
