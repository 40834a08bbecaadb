// Document symbols straight from the structural index: one pass over resources and schemas,
// no path lookups from the root, so 57,000-symbol documents stay fast.
import type { Analysis } from './analyze';
import { kindAt, NodeKind, type JsonTree } from './jsonTree';
import { childOf, keyOf, nodeAtOffset } from './jsonTreeLookup';
import { LineIndex } from './lineIndex';
import type { Span } from './navigation';

export type SymbolKind = 'section' | 'resource' | 'method' | 'schema' | 'property' | 'parameter' | 'scope';

export interface DocumentSymbol {
  name: string;
  detail: string;
  kind: SymbolKind;
  range: Span;
  selection: Span;
  children: DocumentSymbol[];
}

function spanOf(tree: JsonTree, n: number): Span {
  const s = tree.keyStart[n] >= 0 ? tree.keyStart[n] : tree.start[n];
  return { offset: s, length: tree.end[n] - s };
}

function selectionOf(tree: JsonTree, n: number): Span {
  return tree.keyStart[n] >= 0
    ? { offset: tree.keyStart[n], length: tree.keyEnd[n] - tree.keyStart[n] }
    : { offset: tree.start[n], length: 0 };
}

function stringChild(tree: JsonTree, n: number, key: string): string | undefined {
  const c = childOf(tree, n, key);
  if (c < 0 || kindAt(tree, c) !== NodeKind.String) return undefined;
  const raw = tree.text.slice(tree.start[c], tree.end[c]);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw;
  }
}

/** A symbol whose children are built only when the symbol budget reaches them. */
interface Pending {
  symbol: DocumentSymbol;
  more?: () => Pending[];
}

function sym(tree: JsonTree, n: number, kind: SymbolKind, detail: string, more?: () => Pending[]): Pending {
  return {
    symbol: {
      name: keyOf(tree, n) || '""',
      detail,
      kind,
      range: spanOf(tree, n),
      selection: selectionOf(tree, n),
      children: [],
    },
    more,
  };
}

function members(tree: JsonTree, n: number): number[] {
  const out: number[] = [];
  if (n < 0 || kindAt(tree, n) !== NodeKind.Object) return out;
  for (let c = tree.firstChild[n]; c >= 0; c = tree.nextSibling[c]) if (tree.keyStart[c] >= 0) out.push(c);
  return out;
}

const MAX_DEPTH = 64;

/**
 * VS Code's JSON language service stops at 5,000 symbols (`json.maxItemsComputed`): an outline of
 * 57,000 entries costs seconds to build, serialise and render and nobody reads it. The budget is
 * spent breadth first, so every section and every top-level entry is listed before any detail.
 */
export const SYMBOL_LIMIT = 5000;

function typeDetail(tree: JsonTree, n: number): string {
  const ref = stringChild(tree, n, '$ref');
  if (ref !== undefined) return ref;
  const t = stringChild(tree, n, 'type') ?? '';
  const f = stringChild(tree, n, 'format');
  return f ? `${t} (${f})` : t;
}

function properties(tree: JsonTree, schema: number, depth: number): Pending[] {
  if (depth > MAX_DEPTH) return [];
  const out: Pending[] = [];
  for (const p of members(tree, childOf(tree, schema, 'properties'))) {
    out.push(sym(tree, p, 'property', typeDetail(tree, p), () => properties(tree, p, depth + 1)));
  }
  const items = childOf(tree, schema, 'items');
  if (items >= 0) out.push(...properties(tree, items, depth + 1));
  return out;
}

function methods(tree: JsonTree, container: number): Pending[] {
  return members(tree, childOf(tree, container, 'methods')).map((m) => {
    const verb = stringChild(tree, m, 'httpMethod') ?? '';
    const path = stringChild(tree, m, 'path') ?? '';
    return sym(tree, m, 'method', `${verb} ${path}`.trim(), () =>
      members(tree, childOf(tree, m, 'parameters')).map((p) =>
        sym(tree, p, 'parameter', stringChild(tree, p, 'location') ?? ''),
      ),
    );
  });
}

function resources(tree: JsonTree, container: number, depth: number): Pending[] {
  if (depth > MAX_DEPTH) return [];
  return members(tree, childOf(tree, container, 'resources')).map((r) =>
    sym(tree, r, 'resource', '', () => [...methods(tree, r), ...resources(tree, r, depth + 1)]),
  );
}

/** Expands pending symbols level by level until `limit` symbols exist; the rest stay unlisted. */
function expand(top: Pending[], limit: number): DocumentSymbol[] {
  let budget = limit;
  const roots: DocumentSymbol[] = [];
  let level: Pending[] = [];
  for (const p of top) {
    if (budget-- <= 0) break;
    roots.push(p.symbol);
    level.push(p);
  }
  while (level.length > 0 && budget > 0) {
    const next: Pending[] = [];
    for (const p of level) {
      if (!p.more) continue;
      for (const c of p.more()) {
        if (budget-- <= 0) return roots;
        p.symbol.children.push(c.symbol);
        next.push(c);
      }
    }
    level = next;
  }
  return roots;
}

/** Symbols from the structural index alone, so the outline of a big document needs no full analysis. */
export function documentSymbols(source: Analysis | JsonTree, limit = SYMBOL_LIMIT): DocumentSymbol[] {
  const tree = 'parsed' in source ? source.parsed.tree : source;
  if (!tree || tree.count === 0 || kindAt(tree, 0) !== NodeKind.Object) return [];
  const root = 0;
  const out: Pending[] = [];
  const section = (key: string, children: () => Pending[], count: number): void => {
    const n = childOf(tree, root, key);
    if (n >= 0) out.push(sym(tree, n, 'section', `${count}`, children));
  };
  section('resources', () => resources(tree, root, 0), members(tree, childOf(tree, root, 'resources')).length);
  if (childOf(tree, root, 'methods') >= 0)
    section('methods', () => methods(tree, root), members(tree, childOf(tree, root, 'methods')).length);
  section(
    'schemas',
    () =>
      members(tree, childOf(tree, root, 'schemas')).map((s) =>
        sym(tree, s, 'schema', typeDetail(tree, s), () => properties(tree, s, 0)),
      ),
    members(tree, childOf(tree, root, 'schemas')).length,
  );
  section(
    'parameters',
    () =>
      members(tree, childOf(tree, root, 'parameters')).map((p) =>
        sym(tree, p, 'parameter', stringChild(tree, p, 'location') ?? ''),
      ),
    members(tree, childOf(tree, root, 'parameters')).length,
  );
  const auth = childOf(tree, childOf(tree, childOf(tree, root, 'auth'), 'oauth2'), 'scopes');
  if (auth >= 0) {
    const scopes = sym(tree, auth, 'section', '', () =>
      members(tree, auth).map((s) => sym(tree, s, 'scope', stringChild(tree, s, 'description') ?? '')),
    );
    scopes.symbol.name = 'scopes';
    out.push(scopes);
  }
  return expand(out, limit);
}

/**
 * Whether a symbol's range or selection starts or ends at an offset in [from, to]. An edit at `from` that adds
 * no line break moves only what follows it on its line, up to the line's end `to`: when no symbol edge lies
 * there, every symbol keeps its line and column, and the editor's positions of them can be kept.
 */
export function symbolEdgeWithin(symbols: readonly DocumentSymbol[], from: number, to: number): boolean {
  const within = (o: number) => o >= from && o <= to;
  const edge = (s: DocumentSymbol): boolean =>
    within(s.range.offset) ||
    within(s.range.offset + s.range.length) ||
    within(s.selection.offset) ||
    within(s.selection.offset + s.selection.length) ||
    s.children.some(edge);
  return symbols.some(edge);
}

/** Keys whose string values symbols show as details (a scope's description among them). */
const DETAIL_KEYS = new Set(['$ref', 'type', 'format', 'httpMethod', 'path', 'location', 'description']);

/**
 * The symbols of `before` after an edit that shiftedTree carried (so no key and no token changed),
 * moved instead of rebuilt, when the edit is not in a value a symbol shows; undefined otherwise.
 */
export function shiftedSymbols(
  symbols: readonly DocumentSymbol[],
  before: JsonTree,
  change: { offset: number; length: number; text: string },
): DocumentSymbol[] | undefined {
  const n = nodeAtOffset(before, change.offset);
  if (n >= 0 && kindAt(before, n) === NodeKind.String && before.start[n] < change.offset) {
    const key = keyOf(before, n);
    // Descriptions are shown for scopes only (auth.oauth2.scopes.<scope>.description).
    const shown = key === 'description' ? keyOf(before, before.parent[before.parent[n]]) === 'scopes' : true;
    if (key !== undefined && DETAIL_KEYS.has(key) && shown) return undefined;
  }
  const from = change.offset;
  const to = change.offset + change.length;
  const delta = change.text.length - change.length;
  // The same rules as the tree's offsets: starts at or after the edit move, exclusive ends past it.
  const span = (s: Span): Span => {
    const offset = s.offset >= to ? s.offset + delta : s.offset;
    if (s.length === 0) return { offset, length: 0 };
    const end = s.offset + s.length;
    return { offset, length: (end >= from + 1 ? end + delta : end) - offset };
  };
  const move = (s: DocumentSymbol): DocumentSymbol => ({
    ...s,
    range: span(s.range),
    selection: span(s.selection),
    children: s.children.map(move),
  });
  return symbols.map(move);
}

/**
 * Zero-based line and column of every symbol's range and selection, in the outline's pre-order: eight numbers
 * a symbol (range start, range end, selection start, selection end). Built where the analysis is held, so
 * the editor's thread converts a 5,000-symbol outline without 20,000 offset lookups of its own. Lines end at
 * "\n" only: the text is the editor's, whose line breaks are all one kind, and no span ends inside a "\r\n".
 */
export function symbolPositions(symbols: readonly DocumentSymbol[], text: string): Int32Array {
  const lines = new LineIndex(text);
  const out: number[] = [];
  const put = (offset: number): void => {
    const p = lines.positionAt(offset);
    out.push(p.line - 1, p.column - 1);
  };
  const fill = (list: readonly DocumentSymbol[]): void => {
    for (const s of list) {
      put(s.range.offset);
      put(s.range.offset + s.range.length);
      put(s.selection.offset);
      put(s.selection.offset + s.selection.length);
      fill(s.children);
    }
  };
  fill(symbols);
  return Int32Array.from(out);
}
