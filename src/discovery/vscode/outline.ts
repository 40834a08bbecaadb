// The outline as the editor's symbols. A big document's outline is 5,000 symbols, and building them (two
// ranges each, which the editor's constructor checks) took 10–40 ms of this thread right when the editor also
// asks for the first hover: the work is done in slices, so a question that arrives meanwhile waits for one
// slice, not for the whole outline.
import * as vscode from 'vscode';
import type { DocumentSymbol as CoreSymbol, SymbolKind } from '../core';
import type { Outline } from './documents';
import { spanRange } from './spans';

const SYMBOL_KIND: Record<SymbolKind, vscode.SymbolKind> = {
  section: vscode.SymbolKind.Namespace,
  resource: vscode.SymbolKind.Module,
  method: vscode.SymbolKind.Method,
  schema: vscode.SymbolKind.Class,
  property: vscode.SymbolKind.Field,
  parameter: vscode.SymbolKind.Variable,
  scope: vscode.SymbolKind.Key,
};

/** Symbols built between two turns of the event loop. */
const SLICE = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class OutlineSymbols {
  /**
   * Outlines whose every symbol kept its line and column across keystrokes are the same editor symbols:
   * converting them again after each key was most of this thread's outline time. Asked together (the outline,
   * breadcrumbs and sticky scroll each ask), one conversion serves all.
   */
  private readonly converted = new WeakMap<readonly CoreSymbol[], Promise<vscode.DocumentSymbol[] | undefined>>();

  /** The editor's symbols of `outline`, the outline of the document's current version; undefined if it changed meanwhile. */
  of(doc: vscode.TextDocument, outline: Outline): Promise<vscode.DocumentSymbol[] | undefined> {
    const kept =
      this.converted.get(outline.list) ?? (outline.samePositionsAs && this.converted.get(outline.samePositionsAs));
    // One cut short by a later edit than the one this outline is of is done again.
    const out = kept ? kept.then((s) => s ?? this.convert(doc, outline)) : this.convert(doc, outline);
    this.converted.set(outline.list, out);
    // A conversion cut short by an edit serves no one after it.
    void out.then((s) => {
      if (!s && this.converted.get(outline.list) === out) this.converted.delete(outline.list);
    });
    return out;
  }

  private async convert(doc: vscode.TextDocument, outline: Outline): Promise<vscode.DocumentSymbol[] | undefined> {
    const version = doc.version;
    const positions = outline.positions;
    let at = 0;
    // Positions from the worker when it sent them (in pre-order), else looked up in the document.
    const rangeOf = (span: { offset: number; length: number }): vscode.Range => {
      if (!positions) return spanRange(doc, span);
      const r = new vscode.Range(positions[at], positions[at + 1], positions[at + 2], positions[at + 3]);
      at += 4;
      return r;
    };
    const top: vscode.DocumentSymbol[] = [];
    // Pre-order with an explicit stack, so the walk can stop between slices.
    const stack: { s: CoreSymbol; into: vscode.DocumentSymbol[] }[] = [];
    for (let i = outline.list.length - 1; i >= 0; i--) stack.push({ s: outline.list[i], into: top });
    let built = 0;
    while (stack.length > 0) {
      if (++built % SLICE === 0) {
        await nextTurn();
        if (doc.isClosed || doc.version !== version) return undefined;
      }
      const { s, into } = stack.pop()!;
      const name = s.name.replace(/^"|"$/g, '') || '""';
      const full = rangeOf(s.range);
      const out = new vscode.DocumentSymbol(name, s.detail, SYMBOL_KIND[s.kind], full, rangeOf(s.selection));
      into.push(out);
      for (let i = s.children.length - 1; i >= 0; i--) stack.push({ s: s.children[i], into: out.children });
    }
    return top;
  }
}
