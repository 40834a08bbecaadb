// The output schema of a .prompt file is JSON Schema (Picoschema expanded by dotprompt); the API's
// `responseSchema` is a subset of an OpenAPI schema. This maps one to the other: types become the API's
// enum names, `[T, "null"]` becomes `nullable`, properties keep their declaration order (`propertyOrdering`),
// and what the subset cannot say is refused with the schema path rather than sent and rejected.
import type { Schema } from '../../../shared/wire/generation';
import { ownValue, putOwn } from '../../../shared/wire/ownKeys';

const TYPES: Record<string, string> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** Keys copied as they are (their meaning is the same in both). */
const KEPT = [
  'description',
  'format',
  'title',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
  'default',
  'example',
];

export class SchemaMappingError extends Error {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function toResponseSchema(js: unknown, path = 'schema'): Schema {
  if (!isRecord(js)) throw new SchemaMappingError(`${path} must be an object`);
  const out: Schema = {};
  let nullable = js.nullable === true;
  const types = (Array.isArray(js.type) ? js.type : js.type === undefined ? [] : [js.type]).map(String);
  if (types.includes('null')) nullable = true;
  const real = types.filter((t) => t !== 'null');
  if (real.length > 1)
    throw new SchemaMappingError(`${path}: a value of several types (${real.join(', ')}) cannot be a responseSchema`);
  if (real.length === 1) {
    const t = ownValue(TYPES, real[0]);
    if (!t) throw new SchemaMappingError(`${path}: unknown type ${JSON.stringify(real[0])}`);
    out.type = t;
  }
  if (Array.isArray(js.enum)) {
    const values = js.enum.filter((v) => v !== null);
    if (values.length < js.enum.length) nullable = true;
    out.type = 'STRING';
    out.format = 'enum';
    out.enum = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  }
  for (const k of KEPT) if (js[k] !== undefined && out[k] === undefined) out[k] = js[k];
  if (nullable) out.nullable = true;
  if (isRecord(js.properties)) {
    if (!out.type) out.type = 'OBJECT';
    const props: Record<string, Schema> = {};
    for (const [name, sub] of Object.entries(js.properties))
      putOwn(props, name, toResponseSchema(sub, `${path}.${name}`));
    const order = Object.keys(props);
    // An object with no declared properties (a Picoschema wildcard map) is just OBJECT: the subset has no
    // additionalProperties, and an empty properties map is refused by the service.
    if (order.length) {
      out.properties = props;
      out.propertyOrdering = order;
    }
    if (Array.isArray(js.required) && js.required.length) out.required = js.required.map(String);
  }
  if (js.items !== undefined) out.items = toResponseSchema(js.items, `${path}[]`);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = js[key];
    if (Array.isArray(list)) out.anyOf = list.map((s, i) => toResponseSchema(s, `${path}.${key}[${i}]`));
  }
  return out;
}
