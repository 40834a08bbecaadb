// Problems of open .prompt files (Dotprompt) as diagnostics at their lines: the prompt core's YAML,
// frontmatter, config, schema, partial and Handlebars checks, run when a file opens and shortly after each
// edit. Partials are read from `_name.prompt` beside the file (an open, unsaved one as it is in the editor).
import * as vscode from 'vscode';
import { readPartial } from './promptPartials';
import { unknownModelProblem } from '../core/prompt/assist';
import { PromptFile } from '../core/prompt/promptFile';
import type { PromptModels } from './promptModels';
import type { PromptProblem } from '../core/prompt/problems';

const LANGUAGE = 'dotprompt';
const DELAY_MS = 250;

function toDiagnostic(doc: vscode.TextDocument, p: PromptProblem): vscode.Diagnostic {
  const line = Math.min(Math.max(0, p.line - 1), doc.lineCount - 1);
  const text = doc.lineAt(line).text;
  const start = p.column !== undefined ? Math.min(p.column, text.length) : text.length - text.trimStart().length;
  const end = start < text.length ? text.length : start;
  const d = new vscode.Diagnostic(
    new vscode.Range(line, start, line, end),
    p.message,
    p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  d.source = LANGUAGE;
  d.code = p.code;
  return d;
}

export class PromptDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(LANGUAGE);
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The version each check started for: a slower, older check never overwrites a newer one. */
  private readonly versions = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly models: PromptModels) {
    this.subscriptions = [
      // The endpoint changed: every open prompt's model is checked against its list.
      models.onDidChange(() => {
        for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
      }),
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        this.schedule(e.document, DELAY_MS);
        // A partial changed: the prompts beside it that may use it are checked again.
        if (e.document.languageId === LANGUAGE && /(^|\/)_[^/]+\.prompt$/.test(e.document.uri.path))
          for (const d of vscode.workspace.textDocuments) if (d !== e.document) this.schedule(d, DELAY_MS);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.collection.delete(d.uri);
        this.versions.delete(d.uri.toString());
      }),
    ];
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (doc.languageId !== LANGUAGE) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.check(doc);
      }, delay),
    );
  }

  /** Checks one document now; resolves when its diagnostics are set. */
  async check(doc: vscode.TextDocument): Promise<void> {
    const key = doc.uri.toString();
    const version = doc.version;
    this.versions.set(key, version);
    const text = doc.getText();
    const { prompt, problems } = await PromptFile.load(text, { partials: (name) => readPartial(doc, name) });
    // Only a file that names a model is worth a models.list request; without a credential there is no check.
    const known = prompt?.model ? await this.models.names() : undefined;
    const unknown = known && unknownModelProblem(text, known);
    if (unknown) problems.push(unknown);
    if (this.versions.get(key) !== version || doc.isClosed) return;
    this.collection.set(
      doc.uri,
      problems.map((p) => toDiagnostic(doc, p)),
    );
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    vscode.Disposable.from(...this.subscriptions).dispose();
    this.collection.dispose();
  }
}
