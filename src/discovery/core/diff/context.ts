// What both sides of a comparison share: each document's schemas by key and by `id`, which schemas
// travel in requests and which in responses, and the bounded memo of retargeted `$ref` comparisons.
import type { JsonPath } from '../jsonTree';
import { isObj, type Obj } from '../model';

export const REQUEST = 1;
export const RESPONSE = 2;

/** Deeper schema nesting than this is not compared (the parser already refuses 256 levels). */
export const MAX_DEPTH = 200;

export interface SchemaTable {
  /** Schemas by key in `schemas` (what a `$ref` names). */
  byKey: Map<string, Obj>;
  /** Key of each schema by its identity: its `id`, or its key when it has none. */
  keyById: Map<string, string>;
  /** REQUEST | RESPONSE bits of each schema key, following `$ref` from the methods. */
  usage: Map<string, number>;
}

export interface DiffContext {
  old: SchemaTable;
  new: SchemaTable;
  /** Settled retarget verdicts of named pairs, `old\0new` → compatible. */
  memo: Map<string, boolean>;
  /**
   * The memo keys in the order they were settled: a verdict settled while an outer pair was assumed
   * compatible is taken back (from this log) when that outer pair turns out not to be.
   */
  memoLog: string[];
  /**
   * Pairs of schema objects (old → new) being compared right now, named or inline: meeting one again is a
   * cycle, which counts as compatible until the outer comparison settles it.
   */
  active: Map<object, Set<object>>;
  /** Node visits left for retarget comparisons; past it a retarget counts as incompatible. */
  budget: number;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The identity a schema is matched by across documents. */
export function identity(table: SchemaTable, key: string): string {
  return str(table.byKey.get(key)?.id) ?? key;
}

/** Every `$ref` inside one schema value (not following them). */
function refsIn(value: unknown, out: Set<string>): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!isObj(v) || depth > MAX_DEPTH) continue;
    if (typeof v.$ref === 'string') out.add(v.$ref);
    if (isObj(v.properties)) for (const k in v.properties) stack.push([v.properties[k], depth + 1]);
    if (v.items !== undefined) stack.push([v.items, depth + 1]);
    if (isObj(v.additionalProperties)) stack.push([v.additionalProperties, depth + 1]);
    if (isObj(v.variant) && Array.isArray(v.variant.map)) for (const e of v.variant.map) stack.push([e, depth + 1]);
  }
}

/** Calls `visit` with each method of the document and its path. */
export function forEachMethod(root: Obj, visit: (method: Obj, path: JsonPath) => void): void {
  const methods = (map: unknown, base: JsonPath) => {
    if (!isObj(map)) return;
    for (const name in map) if (isObj(map[name])) visit(map[name], [...base, name]);
  };
  const resources = (map: unknown, base: JsonPath, depth: number) => {
    if (!isObj(map) || depth > MAX_DEPTH) return;
    for (const name in map) {
      const r = map[name];
      if (!isObj(r)) continue;
      methods(r.methods, [...base, name, 'methods']);
      resources(r.resources, [...base, name, 'resources'], depth + 1);
    }
  };
  methods(root.methods, ['methods']);
  resources(root.resources, ['resources'], 0);
}

export function schemaTable(root: Obj): SchemaTable {
  const byKey = new Map<string, Obj>();
  const keyById = new Map<string, string>();
  if (isObj(root.schemas)) {
    for (const key in root.schemas) {
      const v = root.schemas[key];
      if (!isObj(v)) continue;
      byKey.set(key, v);
      const id = str(v.id) ?? key;
      if (!keyById.has(id)) keyById.set(id, key);
    }
  }
  // Direction of each schema: seeded by the methods' request/response, then spread along `$ref`.
  const usage = new Map<string, number>();
  const refsOf = new Map<string, Set<string>>();
  const queue: string[] = [];
  const mark = (key: string, bit: number) => {
    const had = usage.get(key) ?? 0;
    if ((had & bit) === bit) return;
    usage.set(key, had | bit);
    queue.push(key);
  };
  const seed = (value: unknown, bit: number) => {
    const refs = new Set<string>();
    refsIn(value, refs);
    for (const r of refs) mark(r, bit);
  };
  forEachMethod(root, (m) => {
    seed(m.request, REQUEST);
    seed(m.response, RESPONSE);
  });
  while (queue.length) {
    const key = queue.pop()!;
    let refs = refsOf.get(key);
    if (!refs) {
      refs = new Set();
      refsIn(byKey.get(key), refs);
      refsOf.set(key, refs);
    }
    const bits = usage.get(key) ?? 0;
    for (const r of refs) {
      if (bits & REQUEST) mark(r, REQUEST);
      if (bits & RESPONSE) mark(r, RESPONSE);
    }
  }
  return { byKey, keyById, usage };
}
