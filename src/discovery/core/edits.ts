// Minimal text edits on the original text, so fixes and renames keep the user's formatting.
import { kindAt, NodeKind, type JsonPath, type JsonTree } from './jsonTree';
import { childrenOf, nodeAt } from './jsonTreeLookup';

export interface TextEdit {
  offset: number;
  length: number;
  newText: string;
}

/** Applies edits (non-overlapping) to a text; used by tests and the CLI. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.offset - a.offset);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.offset) + e.newText + out.slice(e.offset + e.length);
  return out;
}

/** The indentation unit of the text (two spaces if it cannot tell). */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text.slice(0, 4096));
  return m ? m[1] : '  ';
}

function lineIndent(text: string, offset: number): string {
  const ls = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(ls, offset));
  return m ? m[0] : '';
}

/** Pretty JSON for inserting at a given indentation. */
export function jsonAt(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit)
    .split('\n')
    .join('\n' + indent);
}

export function replaceValue(tree: JsonTree, path: JsonPath, value: unknown): TextEdit | undefined {
  const n = nodeAt(tree, path);
  if (n < 0) return undefined;
  const indent = lineIndent(tree.text, tree.start[n]);
  return {
    offset: tree.start[n],
    length: tree.end[n] - tree.start[n],
    newText: jsonAt(value, indent, indentUnit(tree.text)),
  };
}

/** Adds `"key": value` as the last member of the object at path. */
export function insertProperty(
  tree: JsonTree,
  objectPath: JsonPath,
  key: string,
  value: unknown,
): TextEdit | undefined {
  const obj = nodeAt(tree, objectPath);
  if (obj < 0 || kindAt(tree, obj) !== NodeKind.Object) return undefined;
  const text = tree.text;
  const unit = indentUnit(text);
  const kids = childrenOf(tree, obj);
  const multiline = text.slice(tree.start[obj], tree.end[obj]).includes('\n') || kids.length === 0;
  if (kids.length === 0) {
    const outer = lineIndent(text, tree.start[obj]);
    const inner = outer + unit;
    return {
      offset: tree.start[obj] + 1,
      length: tree.end[obj] - 1 - (tree.start[obj] + 1),
      newText: `\n${inner}${JSON.stringify(key)}: ${jsonAt(value, inner, unit)}\n${outer}`,
    };
  }
  const last = kids[kids.length - 1];
  const inner = multiline ? lineIndent(text, tree.keyStart[last] >= 0 ? tree.keyStart[last] : tree.start[last]) : '';
  const sep = multiline ? `,\n${inner}` : ', ';
  return {
    offset: tree.end[last],
    length: 0,
    newText: `${sep}${JSON.stringify(key)}: ${multiline ? jsonAt(value, inner, unit) : JSON.stringify(value)}`,
  };
}

/** Appends an element to the array at path. */
export function appendArrayItem(tree: JsonTree, arrayPath: JsonPath, value: unknown): TextEdit | undefined {
  const arr = nodeAt(tree, arrayPath);
  if (arr < 0 || kindAt(tree, arr) !== NodeKind.Array) return undefined;
  const kids = childrenOf(tree, arr);
  if (kids.length === 0)
    return { offset: tree.start[arr] + 1, length: tree.end[arr] - tree.start[arr] - 2, newText: JSON.stringify(value) };
  const last = kids[kids.length - 1];
  const text = tree.text;
  const multiline = text.slice(tree.start[arr], tree.start[last]).includes('\n');
  const sep = multiline ? `,\n${lineIndent(text, tree.start[last])}` : ', ';
  return { offset: tree.end[last], length: 0, newText: sep + JSON.stringify(value) };
}

/** Removes one array element or object member with its separating comma. */
export function removeNode(tree: JsonTree, path: JsonPath): TextEdit | undefined {
  const n = nodeAt(tree, path);
  if (n < 0 || tree.parent[n] < 0) return undefined;
  const siblings = childrenOf(tree, tree.parent[n]);
  const i = siblings.indexOf(n);
  const startOf = (x: number) => (tree.keyStart[x] >= 0 ? tree.keyStart[x] : tree.start[x]);
  if (i > 0) {
    // Take the comma before it, from the end of the previous sibling.
    const from = tree.end[siblings[i - 1]];
    return { offset: from, length: tree.end[n] - from, newText: '' };
  }
  if (siblings.length > 1) {
    const to = startOf(siblings[1]);
    return { offset: startOf(n), length: to - startOf(n), newText: '' };
  }
  const p = tree.parent[n];
  return { offset: tree.start[p] + 1, length: tree.end[p] - tree.start[p] - 2, newText: '' };
}
