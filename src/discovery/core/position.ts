// What sits at an offset: a key, a value, or a gap where one is expected. Works on broken text
// because it only reads the structural index and the raw characters around the cursor.
import { kindAt, NodeKind, type JsonTree } from './jsonTree';
import { childrenOf, keyNodeAtOffset, keyOf, nodeAtOffset, pathOf } from './jsonTreeLookup';

export type PositionContext =
  | {
      kind: 'key';
      /** Path of the object holding the key. */ objectPath: (string | number)[];
      key: string;
      node: number;
      replace: { offset: number; length: number };
    }
  | { kind: 'value'; path: (string | number)[]; node: number; replace: { offset: number; length: number } }
  | { kind: 'newKey'; objectPath: (string | number)[]; object: number; replace: { offset: number; length: number } }
  | {
      kind: 'newValue';
      /** Path the new value will have (array index = current length). */ path: (string | number)[];
      replace: { offset: number; length: number };
    };

function prevSignificant(text: string, offset: number, floor: number): number {
  let i = offset - 1;
  while (i >= floor) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i--;
    else break;
  }
  return i;
}

export function contextAt(tree: JsonTree, offset: number): PositionContext | undefined {
  if (tree.count === 0) return undefined;
  const k = keyNodeAtOffset(tree, offset);
  if (k >= 0 && offset > tree.keyStart[k]) {
    const objectPath = pathOf(tree, tree.parent[k]);
    return {
      kind: 'key',
      objectPath,
      key: keyOf(tree, k) ?? '',
      node: k,
      replace: { offset: tree.keyStart[k], length: tree.keyEnd[k] - tree.keyStart[k] },
    };
  }
  const n = nodeAtOffset(tree, offset);
  if (n < 0) return undefined;
  const kind = kindAt(tree, n);
  const inside = offset > tree.start[n] && offset < tree.end[n];
  if (kind !== NodeKind.Object && kind !== NodeKind.Array) {
    if (offset >= tree.start[n] && offset <= tree.end[n] && (inside || kind !== NodeKind.String)) {
      return {
        kind: 'value',
        path: pathOf(tree, n),
        node: n,
        replace: { offset: tree.start[n], length: tree.end[n] - tree.start[n] },
      };
    }
  }
  // In a gap of a container: look at what precedes the cursor inside it.
  let container = n;
  if ((kind !== NodeKind.Object && kind !== NodeKind.Array) || !inside) container = tree.parent[n];
  if (container < 0) return undefined;
  const text = tree.text;
  const before = prevSignificant(text, offset, tree.start[container]);
  const ch = before >= 0 ? text[before] : '';
  const containerPath = pathOf(tree, container);
  const empty = { offset, length: 0 };
  if (kindAt(tree, container) === NodeKind.Array) {
    return {
      kind: 'newValue',
      path: [...containerPath, childrenOf(tree, container).filter((c) => tree.start[c] < offset).length],
      replace: empty,
    };
  }
  if (ch === ':') {
    // `"key": |` — the key is the last one before the colon.
    const keyEnd = prevSignificant(text, before, tree.start[container]);
    if (text[keyEnd] === '"') {
      const keyStart = text.lastIndexOf('"', keyEnd - 1);
      const key = keyStart >= 0 ? text.slice(keyStart + 1, keyEnd) : '';
      return { kind: 'newValue', path: [...containerPath, key], replace: empty };
    }
  }
  return { kind: 'newKey', objectPath: containerPath, object: container, replace: empty };
}
