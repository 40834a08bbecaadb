// Document symbols straight from the structural index: one pass over resources and schemas,
// no path lookups from the root, so 57,000-symbol documents stay fast.
import type { Analysis } from './analyze';
import { kindAt, NodeKind, type JsonTree } from './jsonTree';
import { childOf, keyOf } from './jsonTreeLookup';
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

function sym(
  tree: JsonTree,
  n: number,
  kind: SymbolKind,
  detail: string,
  children: DocumentSymbol[] = [],
): DocumentSymbol {
  return {
    name: keyOf(tree, n) || '""',
    detail,
    kind,
    range: spanOf(tree, n),
    selection: selectionOf(tree, n),
    children,
  };
}

function members(tree: JsonTree, n: number): number[] {
  const out: number[] = [];
  if (n < 0 || kindAt(tree, n) !== NodeKind.Object) return out;
  for (let c = tree.firstChild[n]; c >= 0; c = tree.nextSibling[c]) if (tree.keyStart[c] >= 0) out.push(c);
  return out;
}

const MAX_DEPTH = 64;

function typeDetail(tree: JsonTree, n: number): string {
  const ref = stringChild(tree, n, '$ref');
  if (ref !== undefined) return ref;
  const t = stringChild(tree, n, 'type') ?? '';
  const f = stringChild(tree, n, 'format');
  return f ? `${t} (${f})` : t;
}

function properties(tree: JsonTree, schema: number, depth: number): DocumentSymbol[] {
  if (depth > MAX_DEPTH) return [];
  const out: DocumentSymbol[] = [];
  for (const p of members(tree, childOf(tree, schema, 'properties'))) {
    out.push(sym(tree, p, 'property', typeDetail(tree, p), properties(tree, p, depth + 1)));
  }
  const items = childOf(tree, schema, 'items');
  if (items >= 0) out.push(...properties(tree, items, depth + 1));
  return out;
}

function methods(tree: JsonTree, container: number): DocumentSymbol[] {
  return members(tree, childOf(tree, container, 'methods')).map((m) => {
    const verb = stringChild(tree, m, 'httpMethod') ?? '';
    const path = stringChild(tree, m, 'path') ?? '';
    const params = members(tree, childOf(tree, m, 'parameters')).map((p) =>
      sym(tree, p, 'parameter', stringChild(tree, p, 'location') ?? ''),
    );
    return sym(tree, m, 'method', `${verb} ${path}`.trim(), params);
  });
}

function resources(tree: JsonTree, container: number, depth: number): DocumentSymbol[] {
  if (depth > MAX_DEPTH) return [];
  return members(tree, childOf(tree, container, 'resources')).map((r) =>
    sym(tree, r, 'resource', '', [...methods(tree, r), ...resources(tree, r, depth + 1)]),
  );
}

/** Symbols from the structural index alone, so the outline of a big document needs no full analysis. */
export function documentSymbols(source: Analysis | JsonTree): DocumentSymbol[] {
  const tree = 'parsed' in source ? source.parsed.tree : source;
  if (!tree || tree.count === 0 || kindAt(tree, 0) !== NodeKind.Object) return [];
  const root = 0;
  const out: DocumentSymbol[] = [];
  const section = (key: string, kind: SymbolKind, children: DocumentSymbol[]): void => {
    const n = childOf(tree, root, key);
    if (n >= 0) out.push({ ...sym(tree, n, 'section', `${children.length}`), children, kind });
  };
  section('resources', 'section', resources(tree, root, 0));
  if (childOf(tree, root, 'methods') >= 0) section('methods', 'section', methods(tree, root));
  section(
    'schemas',
    'section',
    members(tree, childOf(tree, root, 'schemas')).map((s) =>
      sym(tree, s, 'schema', typeDetail(tree, s), properties(tree, s, 0)),
    ),
  );
  section(
    'parameters',
    'section',
    members(tree, childOf(tree, root, 'parameters')).map((p) =>
      sym(tree, p, 'parameter', stringChild(tree, p, 'location') ?? ''),
    ),
  );
  const auth = childOf(tree, childOf(tree, childOf(tree, root, 'auth'), 'oauth2'), 'scopes');
  if (auth >= 0)
    out.push({
      ...sym(tree, auth, 'section', ''),
      name: 'scopes',
      children: members(tree, auth).map((s) => sym(tree, s, 'scope', stringChild(tree, s, 'description') ?? '')),
    });
  return out;
}
