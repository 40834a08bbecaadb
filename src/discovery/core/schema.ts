// Our JSON schema of the format (schemas/discovery-document.schema.json) compiled once into a
// small tree that validation, hover and key completion all read. Only the keywords the file uses
// are understood: type, properties, additionalProperties, items, required, enum, $ref, description,
// deprecationMessage, examples.
import raw from '../../../schemas/discovery-document.schema.json';
import type { JsonPath } from './jsonTree';
import { isObj, type Obj } from './model';

export interface SchemaInfo {
  readonly type?: string;
  readonly description?: string;
  readonly deprecationMessage?: string;
  /** Allowed values (validated). */
  readonly enum?: readonly unknown[];
  /** Suggested values (completion only; the rules check them with better messages). */
  readonly examples?: readonly string[];
  readonly required?: readonly string[];
  readonly properties?: ReadonlyMap<string, SchemaInfo>;
  /** false: no other keys expected; undefined: anything goes. */
  readonly additional?: SchemaInfo | false;
  readonly items?: SchemaInfo;
  /** Name of the definition this came from (JsonSchema, RestMethod, …). */
  readonly definition?: string;
}

type Mutable = { -readonly [K in keyof SchemaInfo]: SchemaInfo[K] };

function compile(root: Obj): SchemaInfo {
  const defs = isObj(root.definitions) ? root.definitions : {};
  const compiledDefs = new Map<string, Mutable>();

  const one = (s: unknown, definition?: string): SchemaInfo => {
    if (!isObj(s)) return {};
    if (typeof s.$ref === 'string') {
      const name = s.$ref.replace('#/definitions/', '');
      const base = defRef(name);
      // Siblings of $ref (a description) decorate the shared definition without changing it.
      if (typeof s.description === 'string' || typeof s.deprecationMessage === 'string') {
        return Object.assign(Object.create(base) as Mutable, pick(s));
      }
      return base;
    }
    const out: Mutable = { ...pick(s), definition };
    if (Array.isArray(s.enum)) out.enum = s.enum;
    if (Array.isArray(s.examples)) out.examples = s.examples.filter((e): e is string => typeof e === 'string');
    if (Array.isArray(s.required)) out.required = s.required.filter((e): e is string => typeof e === 'string');
    if (isObj(s.properties)) {
      const props = new Map<string, SchemaInfo>();
      for (const [k, v] of Object.entries(s.properties)) props.set(k, one(v));
      out.properties = props;
    }
    if (s.additionalProperties === false) out.additional = false;
    else if (isObj(s.additionalProperties)) out.additional = one(s.additionalProperties);
    if (isObj(s.items)) out.items = one(s.items);
    return out;
  };

  const defRef = (name: string): Mutable => {
    let c = compiledDefs.get(name);
    if (!c) {
      // Register before compiling so recursive definitions (JsonSchema.properties → JsonSchema) terminate.
      c = {};
      compiledDefs.set(name, c);
      Object.assign(c, one(defs[name], name));
    }
    return c;
  };

  return one(root, 'RestDescription');
}

function pick(s: Obj): Mutable {
  const out: Mutable = {};
  if (typeof s.type === 'string') out.type = s.type;
  if (typeof s.description === 'string') out.description = s.description;
  if (typeof s.deprecationMessage === 'string') out.deprecationMessage = s.deprecationMessage;
  return out;
}

let compiled: SchemaInfo | undefined;
/** Compiled on first use rather than when the discovery bundle loads (the API Directory view needs none of it). */
function documentSchema(): SchemaInfo {
  return (compiled ??= compile(raw));
}

/** The schema that applies at a path, or undefined where the schema says nothing. */
export function schemaAtPath(path: JsonPath, root: SchemaInfo = documentSchema()): SchemaInfo | undefined {
  let s: SchemaInfo | undefined = root;
  for (const seg of path) {
    if (!s) return undefined;
    if (typeof seg === 'number') s = s.items;
    else s = s.properties?.get(seg) ?? (s.additional === false ? undefined : s.additional);
  }
  return s;
}

export type StructuralCode = 'value-type' | 'value-not-allowed' | 'key-unknown' | 'key-missing';

export interface StructuralFinding {
  code: StructuralCode;
  path: (string | number)[];
  at: 'key' | 'value';
  message: string;
  data?: Record<string, unknown>;
}

function jsonType(v: unknown): string {
  const t = typeof v;
  if (t === 'string') return t;
  if (t === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return t;
}

/**
 * The schema as the validator reads it: one object shape for every node (the compiled SchemaInfo
 * nodes come in many shapes, some with a prototype, which made each property read a slow lookup
 * in the walk over every value of a 4 MB document).
 */
class Shape {
  type: string | undefined = undefined;
  enum: readonly unknown[] | undefined = undefined;
  required: readonly string[] | undefined = undefined;
  /** By key, without a prototype: a keyed read here was cheaper than Map.get in the walk over every key. */
  properties: Record<string, Shape | undefined> | undefined = undefined;
  additional: Shape | false | undefined = undefined;
  items: Shape | undefined = undefined;
  definition: string | undefined = undefined;
  /** Any string is valid here: such a value needs no visit (most values are such strings). */
  anyString = false;
}

const shapes = new WeakMap<SchemaInfo, Shape>();

function shapeOf(s: SchemaInfo): Shape {
  let out = shapes.get(s);
  if (out) return out;
  out = new Shape();
  // Registered before the children so recursive definitions terminate.
  shapes.set(s, out);
  out.type = s.type;
  out.enum = s.enum;
  out.required = s.required;
  out.definition = s.definition;
  out.anyString = s.enum === undefined && (s.type === undefined || s.type === 'string');
  if (s.properties) {
    const props = Object.create(null) as Record<string, Shape | undefined>;
    for (const [k, v] of s.properties) props[k] = shapeOf(v);
    out.properties = props;
  }
  out.additional = s.additional === false ? false : s.additional && shapeOf(s.additional);
  if (s.items) out.items = shapeOf(s.items);
  return out;
}

function typeMatches(expected: string, actual: string): boolean {
  return expected === actual || (expected === 'number' && actual === 'integer');
}

const MAX_DEPTH = 300;

/** Structural validation of a whole document value against our schema. */
export function validateStructure(value: unknown, root: SchemaInfo = documentSchema()): StructuralFinding[] {
  const out: StructuralFinding[] = [];
  visit(value, shapeOf(root), 0, out, []);
  return out;
}

// A function of the module rather than a closure made for every document: the recursive call in the
// code compiled on the first document would otherwise meet a new target on the next one and be thrown away.
function visit(v: unknown, s: Shape, depth: number, out: StructuralFinding[], path: (string | number)[]): void {
  if (depth > MAX_DEPTH) return;
  const actual = jsonType(v);
  if (s.type && !typeMatches(s.type, actual)) {
    out.push({
      code: 'value-type',
      path: path.slice(),
      at: 'value',
      message: `Expected ${article(s.type)} here but found ${article(actual)}${hintFor(s.type, v)}.`,
      data: { expected: s.type, actual },
    });
    return;
  }
  if (s.enum && !s.enum.includes(v)) {
    out.push({
      code: 'value-not-allowed',
      path: path.slice(),
      at: 'value',
      message: `${JSON.stringify(v)} is not an allowed value; expected ${s.enum.map((e) => JSON.stringify(e)).join(', ')}.`,
      data: { allowed: s.enum },
    });
  }
  if (actual === 'object') {
    const o = v as Obj;
    if (s.required) {
      for (const k of s.required) {
        if (!(k in o))
          out.push({
            code: 'key-missing',
            path: path.slice(),
            at: 'key',
            message: `Missing required key "${k}".`,
            data: { key: k },
          });
      }
    }
    // for-in rather than Object.keys: no array per object on a 60,000-object document.
    const props = s.properties;
    for (const k in o) {
      const child = (props !== undefined ? props[k] : undefined) ?? s.additional;
      if (child === false) {
        out.push({
          code: 'key-unknown',
          path: [...path, k],
          at: 'key',
          message: `"${k}" is not a key of ${s.definition ? describeDefinition(s.definition) : 'this object'} that tools know; it is kept but ignored.`,
          data: { key: k },
        });
      } else if (child) {
        const x = o[k];
        if (child.anyString && typeof x === 'string') continue;
        path.push(k);
        visit(x, child, depth + 1, out, path);
        path.pop();
      }
    }
  } else if (actual === 'array' && s.items) {
    const a = v as unknown[];
    const items = s.items;
    for (let i = 0; i < a.length; i++) {
      if (items.anyString && typeof a[i] === 'string') continue;
      path.push(i);
      visit(a[i], items, depth + 1, out, path);
      path.pop();
    }
  }
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

function hintFor(expected: string, v: unknown): string {
  if (expected === 'string' && (typeof v === 'number' || typeof v === 'boolean'))
    return `; write it as a string, ${JSON.stringify(String(v))}`;
  if (expected === 'boolean' && (v === 'true' || v === 'false')) return `; write ${v} without quotes`;
  return '';
}

function describeDefinition(d: string): string {
  switch (d) {
    case 'JsonSchema':
      return 'a schema';
    case 'RestMethod':
      return 'a method';
    case 'RestResource':
      return 'a resource';
    case 'RestDescription':
      return 'the document';
    default:
      return d;
  }
}
