// Partial responses: the `fields` selector (`a,b/c,items(id,labels/trashed),*`) parsed into a
// tree and applied to a rendered resource. A malformed selector is a 400 on parameter `fields`.

import { putOwn } from '../../shared/wire/ownKeys';

export type FieldTree = Map<string, FieldTree | true>;

export class FieldSyntaxError extends Error {}

export function parseFields(spec: string): FieldTree {
  let i = 0;
  const parseList = (closing: string | undefined): FieldTree => {
    const tree: FieldTree = new Map();
    for (;;) {
      parsePath(tree);
      if (i >= spec.length) {
        if (closing) throw new FieldSyntaxError(`missing ${closing}`);
        return tree;
      }
      const c = spec[i];
      if (c === ',') {
        i++;
        continue;
      }
      if (c === closing) {
        i++;
        return tree;
      }
      throw new FieldSyntaxError(`unexpected '${c}' at ${i}`);
    }
  };
  const parseName = (): string => {
    while (spec[i] === ' ') i++;
    const m = /^(\*|[A-Za-z_$][A-Za-z0-9_$.-]*)/.exec(spec.slice(i));
    if (!m) throw new FieldSyntaxError(`expected a field name at ${i}`);
    i += m[0].length;
    while (spec[i] === ' ') i++;
    return m[0];
  };
  const merge = (tree: FieldTree, name: string, sub: FieldTree | true) => {
    const cur = tree.get(name);
    if (cur === true || sub === true) {
      tree.set(name, true);
    } else if (cur) {
      for (const [k, v] of sub) merge(cur, k, v);
    } else tree.set(name, sub);
  };
  const parsePath = (tree: FieldTree): void => {
    const name = parseName();
    if (spec[i] === '/') {
      i++;
      const sub: FieldTree = new Map();
      parsePath(sub);
      merge(tree, name, sub);
    } else if (spec[i] === '(') {
      i++;
      merge(tree, name, parseList(')'));
    } else merge(tree, name, true);
  };
  if (spec.trim() === '') throw new FieldSyntaxError('empty field selection');
  return parseList(undefined);
}

export function project(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((v) => project(v, tree));
  if (value === null || typeof value !== 'object') return value;
  if (tree.get('*') === true) return value;
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const [key, sub] of tree) {
    if (key === '*') continue;
    if (!Object.hasOwn(src, key) || src[key] === undefined) continue;
    putOwn(out, key, sub === true ? src[key] : project(src[key], sub));
  }
  return out;
}
