// Discovery documents get their own language id, set by content, so VS Code's built-in JSON
// features (which would list every symbol and `$ref` value a second time) leave them to us.
// What the JSON language gave and users keep: the JSONC grammar and brackets/comments
// (syntaxes/discovery-json.*), formatting and folding (below, from the core).
import * as vscode from 'vscode';
import { formatEdits, isDiscoveryDocumentText, KeyedDebounce, mayBeDiscoveryDocument, type FoldingSpan } from '../core';
import { editedLines } from '../../platform/lazy/detectors';
import type { Answers } from './answers';
import type { DiscoveryDocuments } from './documents';
import type { DocumentTexts } from './texts';
import { spanRange } from './spans';

const DISCOVERY_LANGUAGE = 'discovery-json';
export const DISCOVERY_SELECTOR: vscode.DocumentSelector = [{ language: DISCOVERY_LANGUAGE }];
const DETECT_DEBOUNCE_MS = 500;

export function hasDiscoveryLanguage(doc: vscode.TextDocument): boolean {
  return doc.languageId === DISCOVERY_LANGUAGE;
}

function isPlainJson(doc: vscode.TextDocument): boolean {
  return doc.languageId === 'json' || doc.languageId === 'jsonc';
}

/** Switches JSON documents whose content is a description document to our language id. */
export class LanguageAssigner implements vscode.Disposable {
  /** Documents we switched, while a tab shows them; seeing one as JSON again means the user chose JSON. */
  private readonly assigned = new Set<string>();
  private readonly declined = new Set<string>();
  /**
   * JSON documents whose text held the marker when last read whole. Any other becomes a description only through
   * an edit that brings the marker in: its edited lines are read, not the whole text after every pause in typing.
   */
  private readonly marked = new Set<string>();
  private readonly pending = new KeyedDebounce(DETECT_DEBOUNCE_MS);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly texts: DocumentTexts) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => this.consider(d, true)),
      // A description pasted into an empty JSON editor becomes one after a pause.
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e)),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const input: unknown = tab.input;
          if (input instanceof vscode.TabInputText) this.forget(input.uri.toString());
        }
      }),
    ];
    for (const d of vscode.workspace.textDocuments) this.consider(d, false);
  }

  /**
   * Whether the document is ours: in our language, or a JSON document being switched to it. The switch is a
   * round trip through the workbench (a second or more for 4 MB in a browser), and findings need not wait for it.
   */
  claims(doc: vscode.TextDocument): boolean {
    if (hasDiscoveryLanguage(doc)) return true;
    const key = doc.uri.toString();
    return isPlainJson(doc) && this.assigned.has(key) && !this.declined.has(key);
  }

  private forget(key: string): void {
    this.marked.delete(key);
    this.assigned.delete(key);
    this.declined.delete(key);
  }

  private schedule(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    const key = doc.uri.toString();
    if (!isPlainJson(doc) || (!this.marked.has(key) && !editedLines(e).some(mayBeDiscoveryDocument))) return;
    this.pending.schedule(key, () => this.consider(doc, false));
  }

  private consider(doc: vscode.TextDocument, opened: boolean): void {
    if (!isPlainJson(doc) || doc.isClosed) return;
    const key = doc.uri.toString();
    if (this.declined.has(key)) return;
    if (opened && this.assigned.has(key)) {
      this.declined.add(key);
      return;
    }
    const text = doc.getText();
    if (mayBeDiscoveryDocument(text)) this.marked.add(key);
    else this.marked.delete(key);
    if (!isDiscoveryDocumentText(text)) return;
    this.texts.remember(doc, text);
    this.assigned.add(key);
    vscode.languages.setTextDocumentLanguage(doc, DISCOVERY_LANGUAGE).then(undefined, () => {
      // The document closed meanwhile: nothing to switch.
      this.assigned.delete(key);
    });
  }

  dispose(): void {
    this.pending.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}

function formatting(
  doc: vscode.TextDocument,
  options: vscode.FormattingOptions,
  range?: vscode.Range,
): vscode.TextEdit[] {
  const span = range && {
    offset: doc.offsetAt(range.start),
    length: doc.offsetAt(range.end) - doc.offsetAt(range.start),
  };
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  return formatEdits(doc.getText(), { tabSize: options.tabSize, insertSpaces: options.insertSpaces, eol }, span).map(
    (e) => vscode.TextEdit.replace(spanRange(doc, e), e.newText),
  );
}

export function registerLanguage(documents: DiscoveryDocuments, answers: Answers): vscode.Disposable[] {
  // Ranges carried across a keystroke are the same list: converted once.
  const converted = new WeakMap<readonly FoldingSpan[], vscode.FoldingRange[]>();
  return [
    vscode.languages.registerDocumentFormattingEditProvider(DISCOVERY_SELECTOR, {
      provideDocumentFormattingEdits: (doc, options) => formatting(doc, options),
    }),
    vscode.languages.registerDocumentRangeFormattingEditProvider(DISCOVERY_SELECTOR, {
      provideDocumentRangeFormattingEdits: (doc, range, options) => formatting(doc, options, range),
    }),
    vscode.languages.registerFoldingRangeProvider(DISCOVERY_SELECTOR, {
      async provideFoldingRanges(doc) {
        await answers.structure(doc);
        const spans = documents.folding(doc);
        if (!spans) return [];
        let ranges = converted.get(spans);
        if (!ranges) {
          // The closing bracket's line stays visible, as in VS Code's JSON folding.
          ranges = spans.map((s) => new vscode.FoldingRange(s.startLine, s.endLine - 1));
          converted.set(spans, ranges);
        }
        await answers.questionsAnswered();
        return ranges;
      },
    }),
  ];
}
