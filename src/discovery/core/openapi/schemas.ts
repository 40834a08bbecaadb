// Discovery JSON schemas → OpenAPI schema objects (3.0 or 3.1). Discovery schemas are a JSON Schema
// draft-03 dialect: `required` is a boolean on a property, numbers bounds are strings, `$ref` is a bare
// schema id, `enumDescriptions` sits beside `enum`, and `type: "any"` means no constraint.
import { isObj, type Obj } from '../model';

export type OpenApiVersion = '3.0' | '3.1';

export interface SchemaContext {
  readonly version: OpenApiVersion;
  /** Discovery schema id → the key it has under components/schemas (ids are sanitised there). */
  readonly names: ReadonlyMap<string, string>;
  /** Told when a schema nests deeper than MAX_SCHEMA_DEPTH and the part below is written as `{}`. */
  readonly onTooDeep?: () => void;
}

/**
 * Schema nesting converted; deeper parts become `{}` (any value) and the caller is told. Real documents nest
 * a dozen levels; the recursion below stays far from the stack's limit at this depth.
 */
export const MAX_SCHEMA_DEPTH = 256;

/**
 * Sets an own, enumerable member whatever its name: `out[key] = v` with key `__proto__` would set the
 * object's prototype instead and the member would be lost (a schema or property may be named anything).
 */
export function put(out: Obj, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An own member only: `constructor` or `toString` of a plain object is not a member of the document. */
export function own(map: Obj, key: string): unknown {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/** components/schemas keys must match ^[a-zA-Z0-9.\-_]+$; anything else becomes "_". */
export function componentName(id: string): string {
  const s = id.replace(/[^A-Za-z0-9._-]/g, '_');
  return s || '_';
}

export function refTo(ctx: SchemaContext, target: string): string {
  return `#/components/schemas/${ctx.names.get(target) ?? componentName(target)}`;
}

/** A discovery number written as a string ("0", "2147483647") → a number, when it is one. */
function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The OpenAPI type and format of a discovery type/format pair. 64-bit integers stay strings (JSON numbers
 * lose precision past 2^53, which is why discovery sends them as strings); Google's own formats map to the
 * nearest standard one where there is one and are kept otherwise (format is an open vocabulary).
 */
export function mapTypeFormat(type: unknown, format: unknown): { type?: string; format?: string } {
  const t = typeof type === 'string' ? type : undefined;
  const f = typeof format === 'string' ? format : undefined;
  if (t === 'any' || t === undefined) return {};
  if (f === 'int64' || f === 'uint64') return { type: 'string', format: f };
  if (f === 'google-datetime') return { type: 'string', format: 'date-time' };
  if (f === 'uint32') return { type: 'integer', format: 'int64' };
  return f ? { type: t, format: f } : { type: t };
}

/** A discovery default (always a string in parameters) as a value of the parameter's type. */
export function typedDefault(type: string | undefined, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (type === 'boolean') return v === 'true' ? true : v === 'false' ? false : undefined;
  if (type === 'integer' || type === 'number') return num(v);
  return v;
}

function enumKeywords(s: Obj, out: Obj): void {
  if (!Array.isArray(s.enum)) return;
  out.enum = s.enum;
  if (Array.isArray(s.enumDescriptions)) out['x-enumDescriptions'] = s.enumDescriptions;
  if (Array.isArray(s.enumDeprecated)) out['x-enumDeprecated'] = s.enumDeprecated;
}

/** Converts one schema (recursively); `depth` bounds hostile nesting, and a cut is reported. */
export function convertSchema(ctx: SchemaContext, s: unknown, depth = 0): Obj {
  if (!isObj(s)) return {};
  if (depth > MAX_SCHEMA_DEPTH) {
    ctx.onTooDeep?.();
    return {};
  }
  if (typeof s.$ref === 'string') {
    const ref = { $ref: refTo(ctx, s.$ref) };
    const siblings: Obj = {};
    if (typeof s.description === 'string') siblings.description = s.description;
    if (s.readOnly === true) siblings.readOnly = true;
    if (s.deprecated === true) siblings.deprecated = true;
    if (Object.keys(siblings).length === 0) return ref;
    // 3.0 ignores keywords beside $ref; 3.1 (JSON Schema 2020-12) applies them.
    return ctx.version === '3.1' ? { ...ref, ...siblings } : { allOf: [ref], ...siblings };
  }
  const out: Obj = mapTypeFormat(s.type, s.format);
  if (typeof s.description === 'string') out.description = s.description;
  if (s.default !== undefined) {
    const d = typedDefault(out.type as string | undefined, s.default);
    if (d !== undefined) out.default = d;
  }
  enumKeywords(s, out);
  if (typeof s.pattern === 'string') out.pattern = s.pattern;
  const min = num(s.minimum);
  const max = num(s.maximum);
  if (min !== undefined) out.minimum = min;
  if (max !== undefined) out.maximum = max;
  if (s.readOnly === true) out.readOnly = true;
  if (s.deprecated === true) out.deprecated = true;
  if (out.type === 'array' || isObj(s.items)) out.items = convertSchema(ctx, s.items, depth + 1);
  if (isObj(s.properties)) {
    const props: Obj = {};
    const required: string[] = [];
    for (const [name, p] of Object.entries(s.properties)) {
      put(props, name, convertSchema(ctx, p, depth + 1));
      if (isObj(p) && p.required === true) required.push(name);
    }
    out.properties = props;
    if (required.length) out.required = required;
  }
  if (isObj(s.additionalProperties)) out.additionalProperties = convertSchema(ctx, s.additionalProperties, depth + 1);
  else if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
  if (isObj(s.variant) && typeof s.variant.discriminant === 'string' && Array.isArray(s.variant.map)) {
    const mapping: Obj = {};
    for (const m of s.variant.map)
      if (isObj(m) && typeof m.type_value === 'string' && typeof m.$ref === 'string')
        put(mapping, m.type_value, refTo(ctx, m.$ref));
    const refs = [...new Set(Object.values(mapping) as string[])];
    if (refs.length) {
      out.oneOf = refs.map(($ref) => ({ $ref }));
      out.discriminator = { propertyName: s.variant.discriminant, mapping };
    }
  }
  return out;
}

/**
 * The names of a request schema's top-level properties that `annotations.required` lists for a method:
 * discovery marks "required for insert, not for patch" there, so it applies per operation.
 */
export function requiredFor(schema: Obj | undefined, methodId: string): string[] {
  const props = schema && isObj(schema.properties) ? schema.properties : {};
  const out: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    const req = isObj(p) && isObj(p.annotations) ? p.annotations.required : undefined;
    if (Array.isArray(req) && req.includes(methodId)) out.push(name);
  }
  return out;
}
