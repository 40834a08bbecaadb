// Entry point: two texts of one API → every change between them, classified and placed in both.
import { detectDiscoveryDocument } from '../detect';
import type { JsonPath } from '../jsonTree';
import { LineIndex } from '../lineIndex';
import { isObj, type Obj } from '../model';
import type { ParsedJson } from '../parse';
import { forEachMethod, identity, schemaTable, str, type DiffContext } from './context';
import { compareMethod } from './methods';
import { compareParameters } from './parameters';
import { ChangeSink, DocumentPlaces, sortChanges, type DiffChange } from './report';
import { compareSchema } from './schemas';
import { DIFF_CODES } from './codes';

/** An input is not a description document (or was refused as too large or deep). */
export class DiffInputError extends Error {}

function parse(text: string, which: string): ParsedJson & { value: Obj } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = detectDiscoveryDocument(body);
  if (!parsed)
    throw new DiffInputError(`${which} is not a discovery document (no "kind": "discovery#restDescription").`);
  if (!parsed.tree || !isObj(parsed.value))
    throw new DiffInputError(`${which} was not compared: ${parsed.problems[0]?.message ?? 'it could not be read'}`);
  // A truncated or half-edited text would read as "everything after the break was removed".
  const syntax = parsed.problems.find((p) => p.code === 'json-syntax');
  if (syntax)
    throw new DiffInputError(
      `${which} was not compared: ${syntax.message} (line ${new LineIndex(body).positionAt(syntax.offset).line})`,
    );
  return parsed as ParsedJson & { value: Obj };
}

/** Methods by `id` (spec §9: ids match across versions); a method without one by its place. */
function methodsById(root: Obj): Map<string, { value: Obj; path: JsonPath }> {
  const out = new Map<string, { value: Obj; path: JsonPath }>();
  forEachMethod(root, (value, path) => {
    const id = str(value.id) ?? path.join('.');
    if (!out.has(id)) out.set(id, { value, path });
  });
  return out;
}

/** Work allowed for retarget comparisons: generous for real documents, linear in their size. */
const BUDGET_PER_CHAR = 2;

export function diffDiscovery(oldText: string, newText: string): DiffChange[] {
  const a = parse(oldText, 'The old document');
  const b = parse(newText, 'The new document');
  const o = a.value;
  const n = b.value;
  const ctx: DiffContext = {
    old: schemaTable(o),
    new: schemaTable(n),
    memo: new Map(),
    memoLog: [],
    active: new Map(),
    budget: 100_000 + BUDGET_PER_CHAR * (a.text.length + b.text.length),
  };
  const sink = new ChangeSink();

  for (const key of ['rootUrl', 'servicePath', 'batchPath'] as const) {
    if (str(o[key]) === str(n[key])) continue;
    const code =
      key === 'rootUrl' ? 'root-url-changed' : key === 'servicePath' ? 'service-path-changed' : 'batch-path-changed';
    sink.add(
      code,
      `${key} changed from ${JSON.stringify(o[key] ?? null)} to ${JSON.stringify(n[key] ?? null)}.`,
      [key],
      [key],
    );
  }
  if (str(o.revision) !== str(n.revision))
    sink.add(
      'revision-changed',
      `Revision changed from ${str(o.revision) ?? 'none'} to ${str(n.revision) ?? 'none'}.`,
      ['revision'],
      ['revision'],
    );
  if (str(o.description) !== str(n.description))
    sink.add('description-changed', 'Description of the API changed.', ['description'], ['description']);
  compareParameters(sink, o.parameters, n.parameters, ['parameters'], ['parameters'], 'every method');

  const oldMethods = methodsById(o);
  const newMethods = methodsById(n);
  for (const [id, m] of oldMethods) {
    const other = newMethods.get(id);
    if (other) compareMethod(sink, ctx, id, m.value, other.value, m.path, other.path);
    else sink.add('method-removed', `Method ${id} was removed.`, m.path, undefined);
  }
  for (const [id, m] of newMethods)
    if (!oldMethods.has(id)) sink.add('method-added', `Method ${id} was added.`, undefined, m.path);

  // Schemas by identity; renames are known once every `$ref` has been compared, so they go last.
  const removed: string[] = [];
  for (const [id, oldKey] of ctx.old.keyById) {
    const newKey = ctx.new.keyById.get(id);
    if (newKey === undefined) {
      removed.push(oldKey);
      continue;
    }
    compareSchema(sink, ctx, ctx.old.byKey.get(oldKey), ctx.new.byKey.get(newKey), {
      oldPath: ['schemas', oldKey],
      newPath: ['schemas', newKey],
      label: newKey,
      usage: (ctx.old.usage.get(oldKey) ?? 0) | (ctx.new.usage.get(newKey) ?? 0),
      depth: 0,
    });
  }
  // A removed schema that some `$ref` now names an added schema in place of, compatibly, was renamed.
  const renames = new Map<string, string>();
  for (const [pair, compatible] of ctx.memo) {
    const [oldKey, newKey] = pair.split('\u0000');
    if (
      compatible &&
      !renames.has(oldKey) &&
      !ctx.new.keyById.has(identity(ctx.old, oldKey)) &&
      !ctx.old.keyById.has(identity(ctx.new, newKey))
    )
      renames.set(oldKey, newKey);
  }
  const renamedTo = new Set<string>();
  for (const oldKey of removed) {
    const newKey = renames.get(oldKey);
    if (newKey !== undefined && !renamedTo.has(newKey)) {
      renamedTo.add(newKey);
      sink.add(
        'schema-renamed',
        `Schema ${oldKey} was renamed to ${newKey}; its shape is unchanged.`,
        ['schemas', oldKey],
        ['schemas', newKey],
      );
    } else sink.add('schema-removed', `Schema ${oldKey} was removed.`, ['schemas', oldKey], undefined);
  }
  for (const [id, newKey] of ctx.new.keyById)
    if (!ctx.old.keyById.has(id) && !renamedTo.has(newKey))
      sink.add('schema-added', `Schema ${newKey} was added.`, undefined, ['schemas', newKey]);

  const oldPlaces = new DocumentPlaces(a.tree!);
  const newPlaces = new DocumentPlaces(b.tree!);
  return sortChanges(
    sink.found.map((c) => ({
      code: c.code,
      severity: DIFF_CODES[c.code].severity,
      message: c.message,
      old: oldPlaces.place(c.old),
      new: newPlaces.place(c.new),
    })),
  );
}
