// One analysis per document version, shared by diagnostics and every language feature, so a
// 4 MB document is parsed once per edit instead of once per provider call. The structural index
// is cached on its own: the outline (asked for after every edit) needs nothing more. For big
// documents, whose findings come from the worker, hover, completion and navigation read an index
// without findings (structure, value, model), carried across description edits without a parse.
import * as vscode from 'vscode';
import {
  analyzeParsed,
  buildJsonTree,
  buildModel,
  detectDiscoveryDocument,
  isRestDescriptionValue,
  mayBeDiscoveryDocument,
  parseJson,
  shiftedIndex,
  shiftedTree,
  shiftedSymbols,
  symbolEdgeWithin,
  documentSymbols,
  foldingSpans,
  type FoldingSpan,
  type DocumentSymbol,
  topLevelKindNearStart,
  DEFAULT_MAX_LENGTH,
  type Analysis,
  type JsonTree,
  type Obj,
  type ParsedJson,
  type RuleSettings,
  type Structure,
} from '../core';
import { readRuleSettings } from './settings';
import type { DocumentTexts } from './texts';

/** Texts above this size are analysed on the worker thread (when one is available). */
export const WORKER_THRESHOLD = 256 * 1024;

/** The document's length without joining its lines into one string (getText() of 4 MB does). */
export function textLength(doc: vscode.TextDocument): number {
  return doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end);
}

/** The outline of a version; `samePositionsAs`: an earlier version's, whose every symbol has the same line and column. */
export interface Outline {
  list: DocumentSymbol[];
  samePositionsAs?: DocumentSymbol[];
  /** The symbols' lines and columns, when the worker sent them with the list (see symbolPositions). */
  positions?: Int32Array;
}

interface Entry {
  version: number;
  tree?: JsonTree;
  analysis?: Analysis | null;
  /** Structure, value and model without findings (`diagnostics` is empty). */
  index?: Analysis | null;
  /** The outline of `tree`. */
  symbols?: Outline & { tree: JsonTree };
  /** The folding ranges of `tree`. */
  folding?: { tree: JsonTree; list: FoldingSpan[] };
}

export class DiscoveryDocuments implements vscode.Disposable {
  private readonly cache = new Map<string, Entry>();
  /** The newest analysis or index per document, possibly of an older version. */
  private readonly last = new Map<string, { version: number; index: Analysis }>();
  private settings: RuleSettings = readRuleSettings();
  private readonly subscriptions: vscode.Disposable[];

  /** `isOurs`: whether a document is a description document's (our language, or being switched to it). */
  constructor(
    readonly isOurs: (doc: vscode.TextDocument) => boolean,
    readonly texts: DocumentTexts,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((d) => {
        // A language change closes and reopens the same, still open, document: keep what we know.
        if (!d.isClosed) return;
        this.cache.delete(d.uri.toString());
        this.last.delete(d.uri.toString());
      }),
      vscode.workspace.onDidChangeTextDocument((e) => this.carry(e)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('apiWorkbench.discovery')) {
          this.settings = readRuleSettings();
          for (const entry of this.cache.values()) entry.analysis = undefined;
        }
      }),
    ];
  }

  /** The rule severities currently in effect. */
  get rules(): RuleSettings {
    return this.settings;
  }

  private entry(doc: vscode.TextDocument): Entry {
    const key = doc.uri.toString();
    let e = this.cache.get(key);
    if (!e || e.version !== doc.version) {
      e = { version: doc.version };
      this.cache.set(key, e);
    }
    return e;
  }

  /** The analysis of the document's current version; undefined for anything that is not a description document. */
  get(doc: vscode.TextDocument): Analysis | undefined {
    if (!this.isOurs(doc)) return undefined;
    const e = this.entry(doc);
    if (e.analysis !== undefined) return e.analysis ?? undefined;
    const text = this.texts.get(doc);
    let analysis: Analysis | undefined;
    if (mayBeDiscoveryDocument(text)) {
      if (e.tree) {
        const parsed = parseJson(text, {}, e.tree);
        analysis = isRestDescriptionValue(parsed.value) ? analyzeParsed(parsed, { rules: this.settings }) : undefined;
      } else {
        const parsed = detectDiscoveryDocument(text);
        analysis = parsed ? analyzeParsed(parsed, { rules: this.settings }) : undefined;
        if (parsed?.tree) e.tree = parsed.tree;
      }
    }
    e.analysis = analysis ?? null;
    if (analysis) this.last.set(doc.uri.toString(), { version: doc.version, index: analysis });
    else this.last.delete(doc.uri.toString());
    return analysis;
  }

  /**
   * What hover, completion and navigation read: the full analysis of a small document; for a big
   * one (whose findings come from the worker) the index alone, built at most once per version and
   * carried over description edits, so a request never waits for the rules.
   */
  index(doc: vscode.TextDocument): Analysis | undefined {
    if (!this.isOurs(doc)) return undefined;
    const e = this.entry(doc);
    if (e.analysis) return e.analysis;
    if (e.index !== undefined) return e.index ?? undefined;
    if (textLength(doc) <= WORKER_THRESHOLD) return this.get(doc);
    const text = this.texts.get(doc);
    let parsed: ParsedJson | undefined;
    if (mayBeDiscoveryDocument(text)) {
      if (e.tree) {
        const p = parseJson(text, {}, e.tree);
        parsed = isRestDescriptionValue(p.value) ? p : undefined;
      } else parsed = detectDiscoveryDocument(text);
    }
    const index = parsed?.tree ? { parsed, model: buildModel(parsed.value as Obj), diagnostics: [] } : undefined;
    e.index = index ?? null;
    if (index) {
      e.tree = index.parsed.tree;
      this.last.set(doc.uri.toString(), { version: doc.version, index });
    }
    return index;
  }

  /** What `index` would answer, if it needs no parse now (a big document's index is built on demand). */
  ready(doc: vscode.TextDocument): Analysis | undefined {
    if (!this.isOurs(doc)) return undefined;
    if (textLength(doc) <= WORKER_THRESHOLD) return this.index(doc);
    const e = this.cache.get(doc.uri.toString());
    return e?.version === doc.version ? (e.analysis ?? e.index ?? undefined) : undefined;
  }

  /** A description edit moves the previous version's index instead of parsing the text again. */
  private carry(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    const key = doc.uri.toString();
    if (e.contentChanges.length !== 1) return;
    const c = e.contentChanges[0];
    const change = { offset: c.rangeOffset, length: c.rangeLength, text: c.text };
    const prev = this.last.get(key);
    const index = prev?.version === doc.version - 1 ? shiftedIndex(prev.index, change) : undefined;
    const entry = this.cache.get(key);
    const before = entry?.version === doc.version - 1 ? entry : undefined;
    let next: Entry | undefined;
    if (index) {
      // The findings are the diagnostics' business; the index serves every other feature.
      next = { version: doc.version, tree: index.parsed.tree, index };
      this.last.set(key, { version: doc.version, index });
    } else {
      // Otherwise at least the structure: the outline and folding ask for it after every keystroke,
      // and indexing 4 MB again blocked this thread for 100 ms and more each time.
      const tree = before && (before.tree ?? before.analysis?.parsed.tree);
      const shifted = tree && shiftedTree(tree, change);
      if (shifted) next = { version: doc.version, tree: shifted };
    }
    if (!next) return;
    // The outline moves with the structure it was built from, when the edit changed nothing it shows.
    const symbols = before?.symbols;
    const carried = symbols && symbols.tree === (before?.tree ?? before?.analysis?.parsed.tree);
    const list = carried && next.tree && shiftedSymbols(symbols.list, symbols.tree, change);
    // Folding is by line: an edit that adds and removes no line break keeps every range where it was.
    const folding = before?.folding;
    const sameLines = c.range.isSingleLine && !/[\r\n]/.test(c.text);
    if (list && next.tree) {
      next.symbols = { tree: next.tree, list };
      if (symbols && sameLines) {
        const lineEnd = symbols.tree.text.indexOf('\n', change.offset);
        const end = lineEnd < 0 ? symbols.tree.text.length : lineEnd;
        if (!symbolEdgeWithin(symbols.list, change.offset, end))
          next.symbols.samePositionsAs = symbols.samePositionsAs ?? symbols.list;
      }
    }
    if (sameLines && next.tree && folding && folding.tree === (before?.tree ?? before?.analysis?.parsed.tree))
      next.folding = { tree: next.tree, list: folding.list };
    this.cache.set(key, next);
  }

  /** Whether the current version's structural index is here (or the document is not ours): nothing to fetch. */
  hasStructure(doc: vscode.TextDocument): boolean {
    const e = this.cache.get(doc.uri.toString());
    if (e?.version !== doc.version) return false;
    return e.analysis !== undefined || e.index !== undefined || e.tree !== undefined;
  }

  /**
   * Takes the structural index, outline and folding the worker built for the document's current version, so
   * this thread does not parse 5 MB again for the outline VS Code asks for right after the language switch; the
   * outline and folding are then carried across keystrokes from them as from ones built here.
   */
  adoptStructure(doc: vscode.TextDocument, s: Structure): void {
    if (this.hasStructure(doc)) return;
    const tree: JsonTree = { ...s.tree, text: this.texts.get(doc) };
    const e = this.entry(doc);
    e.tree = tree;
    e.symbols = { tree, list: s.symbols, positions: s.positions };
    e.folding = { tree, list: s.folding };
  }

  /** The folding ranges, carried across keystrokes that add or remove no line. */
  folding(doc: vscode.TextDocument): FoldingSpan[] | undefined {
    const tree = this.structure(doc);
    if (!tree) return undefined;
    const e = this.entry(doc);
    if (e.folding?.tree !== tree) e.folding = { tree, list: foldingSpans(tree) };
    return e.folding.list;
  }

  /** The outline, carried across keystrokes that change nothing it shows. */
  symbols(doc: vscode.TextDocument): Outline | undefined {
    const tree = this.structure(doc);
    if (!tree) return undefined;
    const e = this.entry(doc);
    if (e.symbols?.tree !== tree) e.symbols = { tree, list: documentSymbols(tree) };
    return e.symbols;
  }

  /**
   * For completion while typing in a big document: positions from the current structural index,
   * names (schemas, scopes, parameters) from the newest index even if a few keystrokes old,
   * so a trigger character does not wait for a parse of the whole text.
   */
  forTyping(doc: vscode.TextDocument): Analysis | undefined {
    const e = this.entry(doc);
    if (e.analysis || e.index !== undefined || textLength(doc) <= WORKER_THRESHOLD) return this.index(doc);
    const stale = this.last.get(doc.uri.toString())?.index;
    const tree = stale && this.structure(doc);
    if (!stale || !tree) return this.index(doc);
    return { ...stale, parsed: { ...stale.parsed, text: tree.text, tree } };
  }

  /** Just the structural index, for a document whose head marks it as a description document. */
  structure(doc: vscode.TextDocument): JsonTree | undefined {
    if (!this.isOurs(doc)) return undefined;
    const e = this.entry(doc);
    if (e.analysis) return e.analysis.parsed.tree;
    if (e.analysis === null || e.index === null) return undefined;
    if (e.tree) return e.tree;
    const text = this.texts.get(doc);
    if (text.length > DEFAULT_MAX_LENGTH || !mayBeDiscoveryDocument(text)) return undefined;
    // A kind further down than the head needs the full check.
    if (!topLevelKindNearStart(text)) return this.get(doc)?.parsed.tree;
    e.tree = buildJsonTree(text);
    return e.tree;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.cache.clear();
    this.last.clear();
  }
}
