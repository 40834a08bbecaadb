// Problems for description documents: on open at once, on change after a pause (big documents:
// at once, the worker keeps one text per document waiting), and only the result for the version
// still in the editor is published. A big JSON document being switched to our language is analysed
// and its findings shown without waiting for the switch (a round trip through the workbench).
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import {
  applyChange,
  KeyedDebounce,
  mayBeDiscoveryDocument,
  ruleSectionLines,
  shiftedDiagnostics,
  StaleResult,
  type AnalysisWorker,
  type WorkerReply,
  type Diagnostic as CoreDiagnostic,
  type Severity,
} from '../core';
import { textLength, WORKER_THRESHOLD, type DiscoveryDocuments } from './documents';
import { spanRange } from './spans';

export const DIAGNOSTIC_SOURCE = 'discovery';
/** Pause after typing before a document analysed on this thread is analysed again. */
const DEBOUNCE_MS = 300;

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** Links each rule code to its section of the bundled docs/rules.md (`#L<line>` opens the file there). */
export class RuleDocs {
  private lines: Map<string, number> | undefined;
  private readonly file: vscode.Uri;

  constructor(extensionUri: vscode.Uri) {
    this.file = vscode.Uri.joinPath(extensionUri, 'docs', 'rules.md');
  }

  target(code: string): vscode.Uri | undefined {
    if (!this.lines) {
      try {
        this.lines = ruleSectionLines(readFileSync(this.file.fsPath, 'utf8'));
      } catch {
        // A build without the docs links nowhere rather than to a missing file.
        this.lines = new Map();
      }
    }
    const line = this.lines.get(code);
    return line === undefined ? undefined : this.file.with({ fragment: `L${line}` });
  }
}

/** The rule code of one of our diagnostics, whether or not it carries a link. */
export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

export function toVscodeDiagnostic(doc: vscode.TextDocument, d: CoreDiagnostic, docs?: RuleDocs): vscode.Diagnostic {
  const out = new vscode.Diagnostic(spanRange(doc, d), d.message, SEVERITY[d.severity]);
  out.source = DIAGNOSTIC_SOURCE;
  // The code doubles as the key users put in apiWorkbench.discovery.rules and the anchor in docs/rules.md.
  const target = docs?.target(d.code);
  out.code = target ? { value: d.code, target } : d.code;
  if (d.data?.deprecatedHint) out.tags = [vscode.DiagnosticTag.Deprecated];
  return out;
}

export class DiscoveryDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly pending = new KeyedDebounce(DEBOUNCE_MS);
  /**
   * The worker's analysis of each big document's newest version: the reopening that ends a language switch
   * (same text, same version) waits for the run its opening started instead of starting another.
   */
  private readonly runs = new Map<
    string,
    { version: number; text: string; reply: Promise<WorkerReply>; shown?: true }
  >();
  private readonly subscriptions: vscode.Disposable[];
  /**
   * Settles when the worker's analysis of the document's current version is done, if one is under way: the
   * worker then holds that version and can answer questions about it. No index of a big document is built
   * on this thread ahead of a question (its parse blocked hover and typing for 100–300 ms each time).
   */
  analysing(doc: vscode.TextDocument): Promise<unknown> | undefined {
    const run = this.runs.get(doc.uri.toString());
    return run?.version === doc.version ? run.reply.catch(() => undefined) : undefined;
  }

  /** The findings of the document's current version, for quick fixes (which need their rule data). */
  current(doc: vscode.TextDocument): CoreDiagnostic[] | undefined {
    const p = this.published.get(doc.uri.toString());
    return p?.version === doc.version ? p.items : undefined;
  }

  /** Core diagnostics per uri, for quick fixes that need rule data. */
  readonly published = new Map<string, { version: number; items: CoreDiagnostic[]; text?: string; strict?: boolean }>();

  constructor(
    private readonly documents: DiscoveryDocuments,
    private readonly worker?: AnalysisWorker,
    private readonly docs?: RuleDocs,
  ) {
    this.subscriptions = [
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.opened(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
      // A language change closes and reopens the same document (still open): the reopening decides.
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.isClosed) this.clear(d.uri);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('apiWorkbench.discovery')) {
          this.runs.clear();
          this.validateAll();
        }
      }),
    ];
    for (const d of vscode.workspace.textDocuments) this.opened(d);
  }

  private opened(doc: vscode.TextDocument): void {
    this.validate(doc);
  }

  validateAll(): void {
    for (const d of vscode.workspace.textDocuments) this.validate(d);
  }

  /** An edit inside a description moves the findings at once (no rule reads it); others wait for a pause. */
  private changed(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    // A save or revert that only changes the dirty state changes no text: nothing to analyse.
    if (e.contentChanges.length === 0) return;
    const key = doc.uri.toString();
    const last = this.published.get(key);
    if (last?.text !== undefined && last.version === doc.version - 1 && e.contentChanges.length === 1) {
      const c = e.contentChanges[0];
      const change = { offset: c.rangeOffset, length: c.rangeLength, text: c.text };
      const items = shiftedDiagnostics(last.text, change, last.items, last.strict === true);
      if (items) {
        this.pending.cancel(key);
        this.worker?.edit(key, last.version, doc.version, change);
        // The new text from the old one and the change: the editor's getText() joins every line.
        this.published.set(key, { version: doc.version, items, text: applyChange(last.text, change), strict: true });
        this.collection.set(
          doc.uri,
          items.map((d) => toVscodeDiagnostic(doc, d, this.docs)),
        );
        return;
      }
    }
    if (!this.documents.isOurs(doc)) return;
    // The worker holds back all but the newest text itself; this thread needs the pause.
    if (this.worker && textLength(doc) > WORKER_THRESHOLD) this.validate(doc);
    else this.pending.schedule(key, () => this.validate(doc));
  }

  validate(doc: vscode.TextDocument): void {
    if (!this.documents.isOurs(doc) || doc.isClosed) {
      // A document whose language changed away from ours keeps nothing from us.
      if (this.collection.has(doc.uri)) this.clear(doc.uri);
      return;
    }
    // The worker thread starts with the first description document rather than with the feature (which the
    // API Directory view loads too): a big one opened later then finds it running.
    this.worker?.warm();
    const version = doc.version;
    if (this.worker && textLength(doc) > WORKER_THRESHOLD) {
      void this.validateOffThread(doc, version);
      return;
    }
    const analysis = this.documents.get(doc);
    // The text may have moved on while we worked; a newer run will publish.
    if (doc.version !== version || doc.isClosed) return;
    if (!analysis) {
      this.clear(doc.uri);
      return;
    }
    this.published.set(doc.uri.toString(), {
      version,
      items: analysis.diagnostics,
      text: analysis.parsed.text,
      strict: analysis.parsed.strict,
    });
    this.collection.set(
      doc.uri,
      analysis.diagnostics.map((d) => toVscodeDiagnostic(doc, d, this.docs)),
    );
  }

  private async validateOffThread(doc: vscode.TextDocument, version: number): Promise<void> {
    const key = doc.uri.toString();
    let run = this.runs.get(key);
    if (run?.version !== version) {
      const text = this.documents.texts.get(doc);
      if (!mayBeDiscoveryDocument(text)) {
        this.clear(doc.uri);
        return;
      }
      run = { version, text, reply: this.worker!.analyze(key, text, this.documents.rules, version) };
      this.runs.set(key, run);
    }
    try {
      const reply = await run.reply;
      if (doc.isClosed || doc.version !== version || !this.documents.isOurs(doc)) return;
      if (!reply.isDiscovery) {
        this.clear(doc.uri);
        return;
      }
      // The reopening that ends a language switch publishes the same findings again: once is enough.
      if (run.shown) return;
      run.shown = true;
      this.published.set(key, { version, items: reply.diagnostics, text: run.text, strict: reply.strict });
      this.collection.set(
        doc.uri,
        reply.diagnostics.map((d) => toVscodeDiagnostic(doc, d, this.docs)),
      );
    } catch (err) {
      if (err instanceof StaleResult) return;
      // The worker failed (or was stopped): answer on this thread rather than show nothing.
      if (this.runs.get(key) === run) this.runs.delete(key);
      if (!doc.isClosed && doc.version === version) {
        const analysis = this.documents.get(doc);
        if (analysis)
          this.collection.set(
            doc.uri,
            analysis.diagnostics.map((d) => toVscodeDiagnostic(doc, d, this.docs)),
          );
      }
    }
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    this.pending.cancel(key);
    this.runs.delete(key);
    this.published.delete(key);
    this.worker?.forget(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    this.pending.dispose();
    this.runs.clear();
    for (const d of this.subscriptions) d.dispose();
  }
}
