// One analysis per document version, shared by diagnostics and every language feature, so a
// 4 MB document is parsed once per edit instead of once per provider call. The structural index
// is cached on its own: the outline (asked for after every edit) needs nothing more.
import * as vscode from 'vscode';
import {
  analyzeParsed,
  buildJsonTree,
  detectDiscoveryDocument,
  isRestDescriptionValue,
  mayBeDiscoveryDocument,
  parseJson,
  topLevelKindNearStart,
  DEFAULT_MAX_LENGTH,
  type Analysis,
  type JsonTree,
  type RuleSettings,
} from '../core';
import { hasDiscoveryLanguage } from './language';
import { readRuleSettings } from './settings';

interface Entry {
  version: number;
  tree?: JsonTree;
  analysis?: Analysis | null;
}

export class DiscoveryDocuments implements vscode.Disposable {
  private readonly cache = new Map<string, Entry>();
  /** The newest full analysis per document, possibly of an older version. */
  private readonly last = new Map<string, Analysis>();
  private settings: RuleSettings = readRuleSettings();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.cache.delete(d.uri.toString());
        this.last.delete(d.uri.toString());
      }),
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
    if (!hasDiscoveryLanguage(doc)) return undefined;
    const e = this.entry(doc);
    if (e.analysis !== undefined) return e.analysis ?? undefined;
    const text = doc.getText();
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
    if (analysis) this.last.set(doc.uri.toString(), analysis);
    else this.last.delete(doc.uri.toString());
    return analysis;
  }

  /**
   * For completion while typing in a big document: positions from the current structural index,
   * names (schemas, scopes, parameters) from the newest analysis even if a few keystrokes old,
   * so a trigger character does not cost a full re-analysis.
   */
  forTyping(doc: vscode.TextDocument, bigThreshold: number): Analysis | undefined {
    const e = this.entry(doc);
    if (e.analysis !== undefined || doc.getText().length <= bigThreshold) return this.get(doc);
    const stale = this.last.get(doc.uri.toString());
    const tree = stale && this.structure(doc);
    if (!stale || !tree) return this.get(doc);
    return { ...stale, parsed: { ...stale.parsed, text: tree.text, tree } };
  }

  /** Just the structural index, for a document whose head marks it as a description document. */
  structure(doc: vscode.TextDocument): JsonTree | undefined {
    if (!hasDiscoveryLanguage(doc)) return undefined;
    const e = this.entry(doc);
    if (e.analysis) return e.analysis.parsed.tree;
    if (e.analysis === null) return undefined;
    if (e.tree) return e.tree;
    const text = doc.getText();
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
