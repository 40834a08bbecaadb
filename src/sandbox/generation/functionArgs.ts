// Arguments of an emulated function call. A declaration's parameters come either as the API's OpenAPI
// subset (`parameters`, types in capitals) or as JSON Schema (`parametersJsonSchema`, lowercase types,
// `$ref`/`$defs`, `anyOf`, type arrays). Either way the call must satisfy the schema: every required
// property present, values of the declared type, enums respected; `name=value` in the prompt wins.

type JsonObject = Record<string, unknown>;

const MAX_DEPTH = 8;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Follows a local `$ref` (#/$defs/x, #/definitions/x) and picks the first usable branch of anyOf/oneOf/allOf. */
function resolve(schema: unknown, root: unknown, depth: number): JsonObject {
  let s: unknown = schema;
  for (let hops = 0; hops < MAX_DEPTH && isObject(s); hops++) {
    const ref = s.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      let target: unknown = root;
      for (const seg of ref.slice(2).split('/'))
        target = isObject(target) ? target[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
      s = target;
      continue;
    }
    const branches = [s.anyOf, s.oneOf, s.allOf].find(Array.isArray) as unknown[] | undefined;
    if (s.type === undefined && s.properties === undefined && branches?.length) {
      s = branches.find((b) => isObject(b) && typeOf(b) !== 'null') ?? branches[0];
      continue;
    }
    break;
  }
  return isObject(s) && depth <= MAX_DEPTH ? s : {};
}

function typeOf(s: JsonObject): string {
  const t: unknown = Array.isArray(s.type)
    ? (s.type.find((x) => String(x).toLowerCase() !== 'null') ?? s.type[0])
    : s.type;
  if (t !== undefined) return (typeof t === 'string' ? t : JSON.stringify(t)).toLowerCase();
  if (isObject(s.properties)) return 'object';
  if (s.items !== undefined) return 'array';
  if (Array.isArray(s.enum) && s.enum.length) return typeof s.enum[0] === 'number' ? 'number' : 'string';
  return 'string';
}

function explicitValue(name: string, prompt: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`\\b${escaped}\\s*[=:]\\s*("([^"]*)"|(\\S+))`).exec(prompt);
  return m ? (m[2] ?? m[3]) : undefined;
}

function numberIn(s: JsonObject, raw: string | undefined, prompt: string, integer: boolean): number {
  let n = Number(raw ?? /-?\d+(\.\d+)?/.exec(prompt)?.[0] ?? NaN);
  if (!Number.isFinite(n)) n = typeof s.minimum === 'number' ? s.minimum : 1;
  if (typeof s.minimum === 'number') n = Math.max(n, s.minimum);
  if (typeof s.maximum === 'number') n = Math.min(n, s.maximum);
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) n = s.exclusiveMinimum + 1;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) n = s.exclusiveMaximum - 1;
  return integer ? Math.trunc(n) : n;
}

function stringFor(s: JsonObject, raw: string | undefined, prompt: string): string {
  if (raw !== undefined) return raw;
  switch (s.format) {
    case 'date':
      return '2024-01-01';
    case 'date-time':
      return '2024-01-01T00:00:00Z';
    case 'email':
      return 'sandbox@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/sandbox';
  }
  // A quoted phrase, else the last capitalised word after the first ("…weather in Oslo?" → Oslo).
  const capitalised = [...prompt.matchAll(/(?<=\s)\p{Lu}[\p{L}-]+/gu)].map((m) => m[0]);
  let v = /"([^"]+)"/.exec(prompt)?.[1] ?? capitalised[capitalised.length - 1] ?? 'sandbox';
  const min = Number(s.minLength ?? 0);
  if (v.length < min) v = v.padEnd(min, 'x');
  if (typeof s.maxLength === 'number') v = v.slice(0, s.maxLength);
  return v;
}

/** A deterministic value of `schema`; `raw` is what the prompt said for this property, if anything. */
export function valueOf(schema: unknown, root: unknown, prompt: string, raw: string | undefined, depth = 0): unknown {
  const s = resolve(schema, root, depth);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) {
    return raw !== undefined && s.enum.map(String).includes(raw) ? s.enum.find((e) => String(e) === raw) : s.enum[0];
  }
  switch (typeOf(s)) {
    case 'integer':
      return numberIn(s, raw, prompt, true);
    case 'number':
      return numberIn(s, raw, prompt, false);
    case 'boolean':
      return raw === undefined ? true : raw === 'true';
    case 'null':
      return null;
    case 'array': {
      const items = s.items ?? {};
      if (raw !== undefined) return raw.split(',').map((part) => valueOf(items, root, prompt, part, depth + 1));
      const n = Math.max(Number(s.minItems ?? 0) || 0, 1);
      return depth >= MAX_DEPTH
        ? []
        : Array.from({ length: Math.min(n, 16) }, () => valueOf(items, root, prompt, undefined, depth + 1));
    }
    case 'object':
      return depth >= MAX_DEPTH ? {} : objectOf(s, root, prompt, depth);
    default:
      return stringFor(s, raw, prompt);
  }
}

function objectOf(s: JsonObject, root: unknown, prompt: string, depth: number): JsonObject {
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const out: JsonObject = {};
  for (const [name, sub] of Object.entries(props)) {
    // Only the top level reads `name=value` from the prompt; nested names would be ambiguous.
    const raw = depth === 0 ? explicitValue(name, prompt) : undefined;
    if (raw === undefined && !required.has(name)) continue;
    Object.defineProperty(out, name, {
      value: valueOf(sub, root, prompt, raw, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Arguments for a call of a declaration with `parameters` or `parametersJsonSchema` (or neither). */
export function argsFor(decl: { parameters?: unknown; parametersJsonSchema?: unknown }, prompt: string): JsonObject {
  const schema = decl.parametersJsonSchema ?? decl.parameters;
  if (!isObject(schema)) return {};
  const value = valueOf(schema, schema, prompt, undefined, 0);
  return isObject(value) ? value : {};
}
