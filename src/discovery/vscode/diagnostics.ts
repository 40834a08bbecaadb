// Problems for description documents: on open at once, on change after a pause (big documents:
// at once, the worker keeps one text per document waiting), and only the result for the version
// still in the editor is published. A big JSON document that looks like a description is sent to
// the worker as soon as it opens, while its language is still being switched to ours.
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
import { hasDiscoveryLanguage } from './language';

export const DIAGNOSTIC_SOURCE = 'discovery';
/** Pause after typing before a document analysed on this thread is analysed again. */
const DEBOUNCE_MS = 300;
/**
 * Pause after typing before a big document's hover index is rebuilt. The rebuild parses the whole
 * text on this thread (200 ms for 4 MB): after every worker reply it blocked the editor while typing.
 */
const REINDEX_IDLE_MS = 1500;

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
  const range = new vscode.Range(doc.positionAt(d.offset), doc.positionAt(d.offset + d.length));
  const out = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
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
  private readonly reindex = new KeyedDebounce(REINDEX_IDLE_MS);
  /** Big documents whose hover index was built once: later versions wait for a pause in typing. */
  private readonly indexed = new Set<string>();
  /** Worker analyses started when a big JSON document opened, before it became ours. */
  private readonly early = new Map<string, { version: number; reply: Promise<WorkerReply> }>();
  private readonly subscriptions: vscode.Disposable[];
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
        if (e.affectsConfiguration('apiWorkbench.discovery')) this.validateAll();
      }),
    ];
    for (const d of vscode.workspace.textDocuments) this.opened(d);
  }

  private opened(doc: vscode.TextDocument): void {
    if (!hasDiscoveryLanguage(doc)) this.prefetch(doc);
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
        // The new text from the old one and the change: the editor's getText() joins every line.
        this.published.set(key, { version: doc.version, items, text: applyChange(last.text, change), strict: true });
        this.collection.set(
          doc.uri,
          items.map((d) => toVscodeDiagnostic(doc, d, this.docs)),
        );
        return;
      }
    }
    if (!hasDiscoveryLanguage(doc)) return;
    // The worker holds back all but the newest text itself; this thread needs the pause.
    if (this.worker && textLength(doc) > WORKER_THRESHOLD) this.validate(doc);
    else this.pending.schedule(key, () => this.validate(doc));
  }

  validate(doc: vscode.TextDocument): void {
    if (!hasDiscoveryLanguage(doc) || doc.isClosed) {
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

  /** A big JSON document that may become ours: start its analysis while the language switches. */
  private prefetch(doc: vscode.TextDocument): void {
    if (!this.worker || (doc.languageId !== 'json' && doc.languageId !== 'jsonc')) return;
    if (textLength(doc) <= WORKER_THRESHOLD) return;
    const text = doc.getText();
    if (!mayBeDiscoveryDocument(text)) return;
    const reply = this.worker.analyze(doc.uri.toString(), text, this.documents.rules);
    // Nobody may ever wait for it (the document stays JSON): a failure is no one's error.
    reply.catch(() => undefined);
    this.early.set(doc.uri.toString(), { version: doc.version, reply });
  }

  private async validateOffThread(doc: vscode.TextDocument, version: number): Promise<void> {
    const key = doc.uri.toString();
    const early = this.early.get(key);
    this.early.delete(key);
    const text = doc.getText();
    if (!mayBeDiscoveryDocument(text)) {
      this.clear(doc.uri);
      return;
    }
    try {
      const rules = this.documents.rules;
      const reply = await (early?.version === version ? early.reply : this.worker!.analyze(key, text, rules));
      if (doc.isClosed || doc.version !== version) return;
      if (!reply.isDiscovery) {
        this.clear(doc.uri);
        return;
      }
      this.published.set(key, { version, items: reply.diagnostics, text, strict: reply.strict });
      this.collection.set(
        doc.uri,
        reply.diagnostics.map((d) => toVscodeDiagnostic(doc, d, this.docs)),
      );
      // Hover, completion and navigation read the index: built right after the first findings, then
      // once typing pauses (a request before that builds it itself, as for any other version).
      const prepare = () => {
        if (!doc.isClosed && doc.version === version) this.documents.prepare(doc);
      };
      if (this.indexed.has(key)) this.reindex.schedule(key, prepare);
      else {
        this.indexed.add(key);
        setTimeout(prepare, 0);
      }
    } catch (err) {
      if (err instanceof StaleResult) return;
      // The worker failed (or was stopped): answer on this thread rather than show nothing.
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
    this.reindex.cancel(key);
    this.indexed.delete(key);
    this.early.delete(key);
    this.published.delete(key);
    this.worker?.forget(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    this.pending.dispose();
    this.reindex.dispose();
    this.early.clear();
    for (const d of this.subscriptions) d.dispose();
  }
}
