// Structural comparison of two schema nodes. A `$ref` to the same schema (by `id`) on both sides is
// not descended: each named schema is compared once, at the top. A `$ref` now naming another schema
// is judged by comparing the two targets (memoised per named pair; a pair of schemas already being
// compared counts as compatible, which ends cycles, and a verdict that leant on it is dropped if that
// pair fails; a work budget bounds the whole).
import type { JsonPath } from '../jsonTree';
import { isObj, type Obj } from '../model';
import { identity, MAX_DEPTH, REQUEST, RESPONSE, str, type DiffContext } from './context';
import { compareEnums } from './enums';
import type { ChangeSink } from './report';
import { ChangeSink as Sink } from './report';

export interface SchemaSite {
  oldPath: JsonPath;
  newPath: JsonPath;
  /** How messages name this node, e.g. `Item.tags[]` or `request of demo.items.insert`. */
  label: string;
  /** REQUEST | RESPONSE: where this node travels (unknown counts as both). */
  usage: number;
  depth: number;
}

const typeOf = (v: Obj) => str(v.type) ?? (typeof v.$ref === 'string' ? undefined : 'any');

export function compareSchema(sink: ChangeSink, ctx: DiffContext, o: unknown, n: unknown, site: SchemaSite): void {
  if (!isObj(o) || !isObj(n) || site.depth > MAX_DEPTH) return;
  if (sink.quiet && --ctx.budget < 0) return;
  const oRef = str(o.$ref);
  const nRef = str(n.$ref);
  if (oRef !== undefined || nRef !== undefined) {
    compareRefs(sink, ctx, o, n, oRef, nRef, site);
    return;
  }
  const { oldPath, newPath, label } = site;
  const oType = typeOf(o);
  const nType = typeOf(n);
  if (oType !== nType) {
    sink.add(
      'property-type-changed',
      `Type of ${label} changed from ${oType} to ${nType}.`,
      [...oldPath, 'type'],
      [...newPath, 'type'],
    );
    return; // what is inside a value of another type is not comparable
  }
  if (str(o.format) !== str(n.format)) {
    sink.add(
      'property-format-changed',
      `Format of ${label} changed from ${str(o.format) ?? 'none'} to ${str(n.format) ?? 'none'}.`,
      [...oldPath, 'format'],
      [...newPath, 'format'],
    );
  }
  if (!sink.quiet) compareNotes(sink, o, n, site);
  const toClients = (site.usage & RESPONSE) !== 0 || site.usage === 0;
  const fromClients = (site.usage & REQUEST) !== 0 || site.usage === 0;
  compareEnums(sink, o, n, oldPath, newPath, label, {
    removed: fromClients ? 'request-enum-value-removed' : 'response-enum-value-removed',
    added: toClients ? 'response-enum-value-added' : 'request-enum-value-added',
  });
  compareRequiredFor(sink, o, n, site);
  compareProperties(sink, ctx, o, n, site);
  const child = (key: 'items' | 'additionalProperties', suffix: string) => {
    if (isObj(o[key]) && isObj(n[key]))
      compareSchema(sink, ctx, o[key], n[key], {
        ...site,
        oldPath: [...oldPath, key],
        newPath: [...newPath, key],
        label: `${label}${suffix}`,
        depth: site.depth + 1,
      });
  };
  child('items', '[]');
  child('additionalProperties', '{}');
}

function compareNotes(sink: ChangeSink, o: Obj, n: Obj, site: SchemaSite): void {
  if (str(o.description) !== str(n.description))
    sink.add(
      'description-changed',
      `Description of ${site.label} changed.`,
      [...site.oldPath, 'description'],
      [...site.newPath, 'description'],
    );
  if (o.deprecated !== true && n.deprecated === true)
    sink.add('property-deprecated', `${site.label} is now deprecated.`, site.oldPath, [...site.newPath, 'deprecated']);
}

function requiredFor(v: Obj): Set<string> {
  const a = isObj(v.annotations) ? v.annotations.required : undefined;
  return new Set(Array.isArray(a) ? a.filter((x): x is string => typeof x === 'string') : []);
}

function compareRequiredFor(sink: ChangeSink, o: Obj, n: Obj, site: SchemaSite): void {
  const before = requiredFor(o);
  const after = requiredFor(n);
  for (const m of after)
    if (!before.has(m))
      sink.add('property-made-required', `${site.label} is now required in requests of ${m}.`, site.oldPath, [
        ...site.newPath,
        'annotations',
        'required',
      ]);
  for (const m of before)
    if (!after.has(m))
      sink.add(
        'property-made-optional',
        `${site.label} is no longer required in requests of ${m}.`,
        [...site.oldPath, 'annotations', 'required'],
        site.newPath,
      );
}

function compareProperties(sink: ChangeSink, ctx: DiffContext, o: Obj, n: Obj, site: SchemaSite): void {
  const op = isObj(o.properties) ? o.properties : {};
  const np = isObj(n.properties) ? n.properties : {};
  for (const key in op) {
    const path = [...site.oldPath, 'properties', key];
    if (!Object.hasOwn(np, key)) {
      sink.add('property-removed', `Property ${site.label}.${key} was removed.`, path, undefined);
      continue;
    }
    compareSchema(sink, ctx, op[key], np[key], {
      ...site,
      oldPath: path,
      newPath: [...site.newPath, 'properties', key],
      label: `${site.label}.${key}`,
      depth: site.depth + 1,
    });
  }
  for (const key in np) {
    if (Object.hasOwn(op, key)) continue;
    const path = [...site.newPath, 'properties', key];
    sink.add('property-added', `Property ${site.label}.${key} was added.`, undefined, path);
    const v = np[key];
    if (isObj(v))
      for (const m of requiredFor(v))
        sink.add(
          'property-made-required',
          `New property ${site.label}.${key} is required in requests of ${m}.`,
          undefined,
          [...path, 'annotations', 'required'],
        );
  }
}

function compareRefs(
  sink: ChangeSink,
  ctx: DiffContext,
  o: Obj,
  n: Obj,
  oRef: string | undefined,
  nRef: string | undefined,
  site: SchemaSite,
): void {
  const oldPath = [...site.oldPath, ...(oRef !== undefined ? ['$ref'] : [])];
  const newPath = [...site.newPath, ...(nRef !== undefined ? ['$ref'] : [])];
  if (oRef !== undefined && nRef !== undefined && identity(ctx.old, oRef) === identity(ctx.new, nRef)) return;
  const oTarget = oRef === undefined ? o : ctx.old.byKey.get(oRef);
  const nTarget = nRef === undefined ? n : ctx.new.byKey.get(nRef);
  const from = oRef ?? 'an inline schema';
  const to = nRef ?? 'an inline schema';
  if (!nTarget) {
    sink.add('ref-retargeted', `${site.label} now refers to ${to}, which does not exist.`, oldPath, newPath);
    return;
  }
  const verdict = oTarget ? retarget(ctx, oRef, nRef, oTarget, nTarget) : { ok: true };
  if (!verdict.ok) {
    sink.add(
      'ref-retargeted',
      `${site.label} now refers to ${to} instead of ${from}, which is not compatible${verdict.why ? `: ${verdict.why}` : ''}.`,
      oldPath,
      newPath,
    );
    return;
  }
  const renamed =
    oRef !== undefined &&
    nRef !== undefined &&
    !ctx.new.keyById.has(identity(ctx.old, oRef)) &&
    !ctx.old.keyById.has(identity(ctx.new, nRef));
  if (renamed) return; // reported once, as schema-renamed, on the schemas themselves
  sink.add(
    'ref-retargeted-compatible',
    `${site.label} now refers to ${to} instead of ${from}, of a compatible shape.`,
    oldPath,
    newPath,
  );
}

/**
 * Whether the new target can stand for the old one: comparing them finds nothing breaking. Cycles (a schema
 * that refers to itself, X → Y → X, or a chain of bare `$ref`s on either side, named or inline) end at a pair
 * of schema objects already being compared, assumed compatible; a verdict settled under that assumption is
 * taken back if the assumption fails.
 */
function retarget(
  ctx: DiffContext,
  oRef: string | undefined,
  nRef: string | undefined,
  oTarget: Obj,
  nTarget: Obj,
): { ok: boolean; why?: string } {
  const key = oRef !== undefined && nRef !== undefined ? `${oRef}\u0000${nRef}` : undefined;
  if (key !== undefined) {
    const known = ctx.memo.get(key);
    if (known !== undefined) return { ok: known };
  }
  let partners = ctx.active.get(oTarget);
  if (partners?.has(nTarget)) return { ok: true };
  if (!partners) ctx.active.set(oTarget, (partners = new Set()));
  partners.add(nTarget);
  const settledBefore = ctx.memoLog.length;
  const quiet = new Sink(true);
  const usage = (oRef !== undefined ? ctx.old.usage.get(oRef) : undefined) ?? 0;
  try {
    compareSchema(quiet, ctx, oTarget, nTarget, {
      oldPath: oRef !== undefined ? ['schemas', oRef] : [],
      newPath: nRef !== undefined ? ['schemas', nRef] : [],
      label: nRef ?? 'the schema',
      usage,
      depth: 0,
    });
  } finally {
    partners.delete(nTarget);
    if (partners.size === 0) ctx.active.delete(oTarget);
  }
  const overBudget = ctx.budget < 0;
  const ok = quiet.breaking === 0 && !overBudget;
  // Verdicts settled inside may have leant on this pair being compatible: if it is not, they are unproven.
  if (!ok) for (const k of ctx.memoLog.splice(settledBefore)) ctx.memo.delete(k);
  if (key !== undefined) {
    ctx.memo.set(key, ok);
    ctx.memoLog.push(key);
  }
  const why = overBudget ? 'not compared, the comparison reached its work limit' : quiet.found[0]?.message;
  return { ok, why: why?.replace(/\.$/, '') };
}
