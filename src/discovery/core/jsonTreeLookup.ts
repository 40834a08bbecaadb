// Lookups over a built JsonTree: a property's key, a child by key or index, a node by path or by
// text offset, and back from a node to its path. Big objects and arrays get memoised tables so
// rules that place thousands of findings stay linear.
import { kindAt, NodeKind, type JsonPath, type JsonTree } from './jsonTree';

/** Decoded key of a property value node, or undefined for array elements / the root. */
export function keyOf(tree: JsonTree, node: number): string | undefined {
  const s = tree.keyStart[node];
  if (s < 0) return undefined;
  const raw = tree.text.slice(s, tree.keyEnd[node]);
  if (raw.charCodeAt(0) !== 34) return raw;
  if (raw.indexOf('\\') < 0) return raw.slice(1, raw.length > 1 && raw.endsWith('"') ? -1 : undefined);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

const lookupCache = new WeakMap<JsonTree, Map<number, Map<string, number>>>();
/** Children of big arrays by index, so placing findings on a long list's items is not quadratic. */
const indexCache = new WeakMap<JsonTree, Map<number, Int32Array>>();

/** Child of an object by key (last one wins, like JSON.parse) or of an array by index; -1 if none. */
export function childOf(tree: JsonTree, node: number, key: string | number): number {
  if (node < 0) return -1;
  if (kindAt(tree, node) === NodeKind.Array) {
    if (typeof key !== 'number') return -1;
    if (tree.childCount[node] > 16) {
      let perTree = indexCache.get(tree);
      if (!perTree) {
        perTree = new Map();
        indexCache.set(tree, perTree);
      }
      let table = perTree.get(node);
      if (!table) {
        table = new Int32Array(tree.childCount[node]);
        let i = 0;
        for (let c = tree.firstChild[node]; c >= 0 && i < table.length; c = tree.nextSibling[c]) table[i++] = c;
        perTree.set(node, table);
      }
      return Number.isInteger(key) && key >= 0 && key < table.length ? table[key] : -1;
    }
    let i = 0;
    for (let c = tree.firstChild[node]; c >= 0; c = tree.nextSibling[c]) if (i++ === key) return c;
    return -1;
  }
  if (kindAt(tree, node) !== NodeKind.Object) return -1;
  const k = String(key);
  if (tree.childCount[node] > 16) {
    // Big maps (schemas, properties of 1,500 entries) get a memoised lookup table.
    let perTree = lookupCache.get(tree);
    if (!perTree) {
      perTree = new Map();
      lookupCache.set(tree, perTree);
    }
    let table = perTree.get(node);
    if (!table) {
      table = new Map();
      for (let c = tree.firstChild[node]; c >= 0; c = tree.nextSibling[c]) {
        const name = keyOf(tree, c);
        if (name !== undefined) table.set(name, c);
      }
      perTree.set(node, table);
    }
    return table.get(k) ?? -1;
  }
  let found = -1;
  for (let c = tree.firstChild[node]; c >= 0; c = tree.nextSibling[c]) if (keyIs(tree, c, k)) found = c;
  return found;
}

/** keyOf(tree, node) === key, compared in the text (the outline asks thousands of times per version). */
function keyIs(tree: JsonTree, node: number, key: string): boolean {
  const s = tree.keyStart[node];
  if (s < 0) return false;
  const e = tree.keyEnd[node];
  const text = tree.text;
  // A plain quoted key: same length and characters, no copy. Anything else (escapes, unquoted) decodes.
  if (text.charCodeAt(s) === 34 && text.charCodeAt(e - 1) === 34 && e - s >= 2) {
    let plain = true;
    for (let i = s + 1; i < e - 1; i++) {
      if (text.charCodeAt(i) === 92) {
        plain = false;
        break;
      }
    }
    if (plain) {
      if (e - s - 2 !== key.length) return false;
      for (let i = 0; i < key.length; i++) if (text.charCodeAt(s + 1 + i) !== key.charCodeAt(i)) return false;
      return true;
    }
  }
  return keyOf(tree, node) === key;
}

/** Node at a path from the root; -1 when the path does not exist in the text. */
export function nodeAt(tree: JsonTree, path: JsonPath): number {
  if (tree.count === 0) return -1;
  let n = 0;
  for (const seg of path) {
    n = childOf(tree, n, seg);
    if (n < 0) return -1;
  }
  return n;
}

/** Path from the root to a node. */
export function pathOf(tree: JsonTree, node: number): (string | number)[] {
  const out: (string | number)[] = [];
  for (let n = node; n > 0 && tree.parent[n] >= 0; n = tree.parent[n]) {
    const p = tree.parent[n];
    if (kindAt(tree, p) === NodeKind.Array) {
      let i = 0;
      for (let c = tree.firstChild[p]; c >= 0 && c !== n; c = tree.nextSibling[c]) i++;
      out.push(i);
    } else {
      out.push(keyOf(tree, n) ?? '');
    }
  }
  return out.reverse();
}

/** Deepest value node whose range contains offset (end inclusive, so a cursor right after a value counts). */
export function nodeAtOffset(tree: JsonTree, offset: number): number {
  // Nodes are numbered in document order, so start offsets are sorted.
  let lo = 0;
  let hi = tree.count - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tree.start[mid] <= offset) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let n = best; n >= 0; n = tree.parent[n]) {
    if (offset <= tree.end[n]) return n;
  }
  return -1;
}

/** Property value node whose key range contains offset, or -1. */
export function keyNodeAtOffset(tree: JsonTree, offset: number): number {
  // A key lies inside its object but before its value, so the deepest node at the offset is
  // the object itself (or, at a key's closing quote, possibly the previous sibling's value).
  let n = nodeAtOffset(tree, offset);
  if (n >= 0 && kindAt(tree, n) !== NodeKind.Object) n = tree.parent[n];
  if (n < 0) return -1;
  for (let c = tree.firstChild[n]; c >= 0; c = tree.nextSibling[c]) {
    if (tree.keyStart[c] > offset) break;
    if (tree.keyStart[c] >= 0 && offset <= tree.keyEnd[c]) return c;
  }
  return -1;
}

/** Children of a node, in order. */
export function childrenOf(tree: JsonTree, node: number): number[] {
  const out: number[] = [];
  for (let c = tree.firstChild[node]; c >= 0; c = tree.nextSibling[c]) out.push(c);
  return out;
}
