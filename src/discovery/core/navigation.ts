// Definition, references and rename over the model's indexes: no walk of the document per request.
import type { Analysis } from './analyze';
import type { TextEdit } from './edits';
import type { JsonPath, JsonTree } from './jsonTree';
import { nodeAt } from './jsonTreeLookup';
import { isObj, type DiscoveryModel, type MethodEntry, type RefSite } from './model';
import { contextAt } from './position';

export interface Span {
  offset: number;
  length: number;
}

const refIndex = new WeakMap<DiscoveryModel, Map<string, RefSite>>();

function pathKey(path: JsonPath): string {
  return path.join('\u0000');
}

/** The `$ref` site whose value sits at this path, if the model knows it as a reference. */
export function refAtPath(model: DiscoveryModel, path: JsonPath): RefSite | undefined {
  let idx = refIndex.get(model);
  if (!idx) {
    idx = new Map(model.refs.map((r) => [pathKey(r.path), r]));
    refIndex.set(model, idx);
  }
  return idx.get(pathKey(path));
}

export function keySpan(tree: JsonTree, path: JsonPath): Span | undefined {
  const n = nodeAt(tree, path);
  if (n < 0) return undefined;
  if (tree.keyStart[n] >= 0) return { offset: tree.keyStart[n], length: tree.keyEnd[n] - tree.keyStart[n] };
  return { offset: tree.start[n], length: tree.end[n] - tree.start[n] };
}

export function valueSpan(tree: JsonTree, path: JsonPath): Span | undefined {
  const n = nodeAt(tree, path);
  return n < 0 ? undefined : { offset: tree.start[n], length: tree.end[n] - tree.start[n] };
}

const methodIndex = new WeakMap<DiscoveryModel, Map<string, MethodEntry>>();

/** The method whose object sits at this path, if any. */
export function methodAtPath(model: DiscoveryModel, path: JsonPath): MethodEntry | undefined {
  let idx = methodIndex.get(model);
  if (!idx) {
    idx = new Map(model.methods.map((m) => [pathKey(m.path), m]));
    methodIndex.set(model, idx);
  }
  return idx.get(pathKey(path));
}

/** Builds the lookups definition, hover and rename use, so the first request after opening does not pay for them. */
export function prepareNavigation(model: DiscoveryModel): void {
  refAtPath(model, []);
  methodAtPath(model, []);
}

/** Where the symbol under the cursor is defined. */
export function definitionAt(analysis: Analysis, offset: number): Span | undefined {
  const { model } = analysis;
  const tree = analysis.parsed.tree;
  if (!model || !tree) return undefined;
  const ctx = contextAt(tree, offset);
  if (!ctx) return undefined;
  if (ctx.kind === 'key' && ctx.objectPath.length === 1 && ctx.objectPath[0] === 'schemas')
    return keySpan(tree, ['schemas', ctx.key]);
  if (ctx.kind !== 'value') return undefined;
  const path = ctx.path;
  const v = valueAt(model.root, path);
  if (typeof v !== 'string') return undefined;
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  if (last === '$ref' && refAtPath(model, path)) return keySpan(tree, ['schemas', v]);
  if (typeof last === 'number' && parent === 'scopes' && methodAtPath(model, path.slice(0, -2))) {
    return model.scopes.has(v) ? keySpan(tree, ['auth', 'oauth2', 'scopes', v]) : undefined;
  }
  if (typeof last === 'number' && parent === 'parameterOrder') {
    const method = path.slice(0, -2);
    const params = valueAt(model.root, [...method, 'parameters']);
    if (isObj(params) && v in params) return keySpan(tree, [...method, 'parameters', v]);
    return undefined;
  }
  if (typeof last === 'number' && parent === 'required' && path[path.length - 3] === 'annotations') {
    const m = model.methodsById.get(v)?.[0];
    return m ? keySpan(tree, m.path) : undefined;
  }
  if (last === 'id' && path.length === 3 && path[0] === 'schemas') return keySpan(tree, ['schemas', String(path[1])]);
  return undefined;
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** The schema name the cursor is on: its key, its id, or a `$ref` to it. */
export function schemaNameAt(analysis: Analysis, offset: number): { name: string; span: Span } | undefined {
  const { model } = analysis;
  const tree = analysis.parsed.tree;
  if (!model || !tree) return undefined;
  const ctx = contextAt(tree, offset);
  if (!ctx) return undefined;
  if (ctx.kind === 'key' && ctx.objectPath.length === 1 && ctx.objectPath[0] === 'schemas') {
    return {
      name: ctx.key,
      span: { offset: tree.keyStart[ctx.node] + 1, length: tree.keyEnd[ctx.node] - tree.keyStart[ctx.node] - 2 },
    };
  }
  if (ctx.kind === 'value') {
    const v = valueAt(model.root, ctx.path);
    const isRef = ctx.path[ctx.path.length - 1] === '$ref' && refAtPath(model, ctx.path);
    const isId = ctx.path.length === 3 && ctx.path[0] === 'schemas' && ctx.path[2] === 'id' && v === ctx.path[1];
    if (typeof v === 'string' && (isRef || isId) && model.schemas.has(v)) {
      return {
        name: v,
        span: { offset: tree.start[ctx.node] + 1, length: tree.end[ctx.node] - tree.start[ctx.node] - 2 },
      };
    }
  }
  return undefined;
}

/** Every `$ref` to the schema under the cursor (and its declaration when asked). */
export function referencesAt(analysis: Analysis, offset: number, includeDeclaration = true): Span[] {
  const hit = schemaNameAt(analysis, offset);
  const tree = analysis.parsed.tree;
  if (!hit || !tree || !analysis.model) return [];
  const out: Span[] = [];
  if (includeDeclaration) {
    const decl = keySpan(tree, ['schemas', hit.name]);
    if (decl) out.push(decl);
  }
  for (const r of analysis.model.refsByTarget.get(hit.name) ?? []) {
    const s = valueSpan(tree, r.path);
    if (s) out.push(s);
  }
  return out;
}

export type RenameResult = { edits: TextEdit[] } | { error: string };

/** Renames a schema: its key, its `id` and every `$ref`; refuses names already taken. */
export function renameSchemaAt(analysis: Analysis, offset: number, newName: string): RenameResult {
  const hit = schemaNameAt(analysis, offset);
  const tree = analysis.parsed.tree;
  const model = analysis.model;
  if (!hit || !tree || !model)
    return { error: 'Only schema names can be renamed here: place the cursor on a schema key, its id or a $ref.' };
  if (!newName || !usableSchemaName(newName)) return { error: `"${newName}" is not a usable schema name.` };
  if (newName === hit.name) return { edits: [] };
  if (model.schemas.has(newName)) return { error: `A schema named "${newName}" already exists; choose another name.` };
  const quoted = JSON.stringify(newName);
  const edits: TextEdit[] = [];
  const key = keySpan(tree, ['schemas', hit.name]);
  if (key) edits.push({ ...key, newText: quoted });
  const id = model.schemas.get(hit.name)?.value.id;
  if (id === hit.name) {
    const s = valueSpan(tree, ['schemas', hit.name, 'id']);
    if (s) edits.push({ ...s, newText: quoted });
  }
  for (const r of model.refsByTarget.get(hit.name) ?? []) {
    const s = valueSpan(tree, r.path);
    if (s) edits.push({ ...s, newText: quoted });
  }
  return { edits };
}

/** A schema name must be writable as a JSON key as is: no quote, backslash or control character. */
function usableSchemaName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || c === 0x22 /* " */ || c === 0x5c /* \ */) return false;
  }
  return true;
}
