// Completion proposals from our JSON schema (keys, fixed values) and the model (schema names,
// parameters, scopes). The adapter turns them into editor items.
import type { Analysis } from './analyze';
import { isObj, type DiscoveryModel } from './model';
import { valueAt, type Span } from './navigation';
import { contextAt } from './position';
import { schemaAtPath, type SchemaInfo } from './schema';
import { FORMATS_BY_TYPE } from './rules/schemaTypes';
import { ownValue } from '../../shared/wire/ownKeys';

export type CompletionKind = 'property' | 'value' | 'reference' | 'scope' | 'parameter';

export interface CompletionProposal {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Text to insert; a snippet when `snippet` is true ($1, ${1:x} placeholders). */
  insertText: string;
  snippet: boolean;
}

export interface CompletionResult {
  /** The text the chosen proposal replaces (a whole string token, quotes included, or an empty span). */
  replace: Span;
  items: readonly CompletionProposal[];
}

const EMPTY: readonly CompletionProposal[] = [];

const MAX_REFERENCE_PROPOSALS = 5000;

function values(
  list: Iterable<string>,
  kind: CompletionKind,
  doc?: (v: string) => string | undefined,
  detail?: string,
): CompletionProposal[] {
  const out: CompletionProposal[] = [];
  for (const v of list) {
    out.push({ label: v, kind, insertText: quote(v), snippet: false, documentation: doc?.(v), detail });
    if (out.length >= MAX_REFERENCE_PROPOSALS) break;
  }
  return out;
}

/** Proposal lists that depend only on the model (schema names, scopes, method ids). */
const MODEL_LISTS = {
  $ref: (model: DiscoveryModel) =>
    values(
      model.schemas.keys(),
      'reference',
      (n) => {
        const d = model.schemas.get(n)?.value.description;
        return typeof d === 'string' ? d : undefined;
      },
      'schema',
    ),
  scopes: (model: DiscoveryModel) =>
    values(model.scopes.keys(), 'scope', (n) => model.scopes.get(n)?.description, 'scope'),
  methodIds: (model: DiscoveryModel) => values(model.methodsById.keys(), 'value', undefined, 'method id'),
};

/** Each model's lists, built once per analysis. */
const modelLists = new WeakMap<DiscoveryModel, Map<keyof typeof MODEL_LISTS, readonly CompletionProposal[]>>();

function modelList(model: DiscoveryModel, key: keyof typeof MODEL_LISTS): readonly CompletionProposal[] {
  let m = modelLists.get(model);
  if (!m) {
    m = new Map();
    modelLists.set(model, m);
  }
  let l = m.get(key);
  if (!l) {
    l = MODEL_LISTS[key](model);
    m.set(key, l);
  }
  return l;
}

/** Builds the model's lists ahead of the first completion (a big document's $ref list is 1,000+ proposals). */
export function prepareCompletion(model: DiscoveryModel): void {
  for (const key of Object.keys(MODEL_LISTS) as (keyof typeof MODEL_LISTS)[]) modelList(model, key);
}

function valueSnippet(s: SchemaInfo | undefined): string {
  switch (s?.type) {
    case 'string':
      return s.enum || s.examples ? '"${1|' + (s.enum ?? s.examples ?? []).map(String).join(',') + '|}"' : '"$1"';
    case 'boolean':
      return '${1|true,false|}';
    case 'object':
      return '{$1}';
    case 'array':
      return '[$1]';
    case 'integer':
    case 'number':
      return '${1:0}';
    default:
      return '$1';
  }
}

function quote(s: string): string {
  return JSON.stringify(s);
}

export function completionsAt(analysis: Analysis, offset: number): CompletionResult {
  const tree = analysis.parsed.tree;
  if (!tree) return { replace: { offset, length: 0 }, items: EMPTY };
  const model = analysis.model;
  const root = model?.root ?? analysis.parsed.value;
  const ctx = contextAt(tree, offset);
  if (!ctx) return { replace: { offset, length: 0 }, items: EMPTY };
  const result = (items: readonly CompletionProposal[]): CompletionResult => ({ replace: ctx.replace, items });

  if (ctx.kind === 'key' || ctx.kind === 'newKey') {
    const objectPath = ctx.objectPath;
    const s = schemaAtPath(objectPath);
    if (!s?.properties) return result(EMPTY);
    const present = valueAt(root, objectPath);
    const existing = new Set(isObj(present) ? Object.keys(present) : []);
    const current = ctx.kind === 'key' ? ctx.key : undefined;
    // A key already followed by a colon keeps its value; a fresh one (or a bare `""`) gets a value snippet.
    const withValue =
      ctx.kind === 'newKey' ||
      !/^\s*:/.test(
        tree.text.slice(ctx.replace.offset + ctx.replace.length, ctx.replace.offset + ctx.replace.length + 64),
      );
    const out: CompletionProposal[] = [];
    for (const [key, child] of s.properties) {
      if (existing.has(key) && key !== current) continue;
      const insertText = withValue ? `${quote(key)}: ${valueSnippet(child)}` : quote(key);
      out.push({
        label: key,
        kind: 'property',
        detail: child.type,
        documentation: child.description,
        insertText,
        snippet: withValue,
      });
    }
    return result(out);
  }

  const path = ctx.path;
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  if (last === '$ref' && model) return result(modelList(model, '$ref'));
  if (typeof last === 'number' && parent === 'scopes' && model) return result(modelList(model, 'scopes'));
  if (typeof last === 'number' && parent === 'parameterOrder') {
    const params = valueAt(root, [...path.slice(0, -2), 'parameters']);
    const order = valueAt(root, path.slice(0, -1));
    const listed = new Set(Array.isArray(order) ? order : []);
    if (isObj(params)) {
      const names = Object.keys(params).filter((n) => !listed.has(n) || valueAt(root, path) === n);
      // Required parameters first: they are the ones parameterOrder is for.
      names.sort(
        (a, b) =>
          Number(isObj(params[b]) && params[b].required === true) -
          Number(isObj(params[a]) && params[a].required === true),
      );
      return result(values(names, 'parameter', undefined, 'parameter'));
    }
    return result(EMPTY);
  }
  if (typeof last === 'number' && parent === 'required' && path[path.length - 3] === 'annotations' && model) {
    return result(modelList(model, 'methodIds'));
  }
  if (last === 'format') {
    const t = valueAt(root, [...path.slice(0, -1), 'type']);
    const list =
      (typeof t === 'string' ? ownValue(FORMATS_BY_TYPE, t) : undefined) ?? Object.values(FORMATS_BY_TYPE).flat();
    return result(values(list, 'value', undefined, typeof t === 'string' ? `format for ${t}` : 'format'));
  }
  const s = schemaAtPath(path);
  if (!s) return result(EMPTY);
  const fixed = s.enum?.filter((e): e is string => typeof e === 'string') ?? s.examples;
  if (fixed) return result(values(fixed, 'value', undefined, String(last)));
  if (s.type === 'boolean') {
    return result(['true', 'false'].map((b) => ({ label: b, kind: 'value' as const, insertText: b, snippet: false })));
  }
  return result(EMPTY);
}
