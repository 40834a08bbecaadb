// Checks a JSON value against the JSON Schema a .prompt file's output (or input) declares: the keywords
// Picoschema expands to (type incl. unions with null, properties, required, additionalProperties, items,
// enum) and the common constraints of hand-written schemas. Each failure names the path that broke it.

type Json = unknown;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(type: string, v: Json): boolean {
  const t = typeOf(v);
  if (type === 'number') return t === 'number' || t === 'integer';
  return t === type;
}

/** The failures of `value` against `schema`, empty when it conforms. */
export function schemaErrors(schema: unknown, value: Json, path = '$'): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  if (!isRecord(schema)) return [];
  const out: string[] = [];
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  if (schema.nullable === true && value === null) return [];
  if (types.length && !types.some((t) => typeMatches(t.toLowerCase(), value))) {
    return [`${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    out.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    out.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && [...value].length < schema.minLength)
      out.push(`${path}: shorter than ${schema.minLength} characters`);
    if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength)
      out.push(`${path}: longer than ${schema.maxLength} characters`);
    if (typeof schema.pattern === 'string') {
      let re: RegExp | undefined;
      try {
        re = new RegExp(schema.pattern, 'u');
      } catch {
        out.push(`${path}: the schema's pattern ${schema.pattern} is not a valid regular expression`);
      }
      if (re && !re.test(value)) out.push(`${path}: does not match ${schema.pattern}`);
    }
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) out.push(`${path}: less than ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      out.push(`${path}: greater than ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    const min = Number(schema.minItems ?? 0);
    const max = schema.maxItems === undefined ? Infinity : Number(schema.maxItems);
    if (value.length < min) out.push(`${path}: fewer than ${min} items`);
    if (value.length > max) out.push(`${path}: more than ${max} items`);
    if (schema.items !== undefined)
      value.forEach((v, i) => out.push(...schemaErrors(schema.items, v, `${path}[${i}]`)));
  }
  if (isRecord(value)) {
    const props = isRecord(schema.properties) ? schema.properties : {};
    for (const r of Array.isArray(schema.required) ? schema.required : [])
      if (!Object.hasOwn(value, String(r))) out.push(`${path}.${String(r)}: required`);
    for (const [k, v] of Object.entries(value)) {
      if (Object.hasOwn(props, k)) out.push(...schemaErrors(props[k], v, `${path}.${k}`));
      else if (schema.additionalProperties === false) out.push(`${path}.${k}: not allowed (additionalProperties)`);
      else if (isRecord(schema.additionalProperties))
        out.push(...schemaErrors(schema.additionalProperties, v, `${path}.${k}`));
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const passing = list.filter((s) => schemaErrors(s, value, path).length === 0).length;
    if (key === 'anyOf' ? passing === 0 : passing !== 1)
      out.push(`${path}: matches ${passing} of the ${key} schemas (${key === 'anyOf' ? 'at least 1' : 'exactly 1'})`);
  }
  if (Array.isArray(schema.allOf)) for (const s of schema.allOf) out.push(...schemaErrors(s, value, path));
  return out;
}
