// proto3 JSON field names: a parser must accept both the lowerCamelCase JSON name and the proto field's
// own snake_case name (`fileUri` and `file_uri`). Google's services and SDKs rely on it (the Python SDK
// sends snake_case), so both sides of our wire normalise to lowerCamelCase with a table of known
// message fields. Struct-valued fields (function args, JSON schemas) are opaque: their keys are user data.

/** How a field's value is read: a nested message, a map of messages, or a value left untouched. */
export type FieldKind = { message: string } | { mapOf: string } | 'value';

/** Message name → lowerCamelCase field name → kind. */
export type MessageTable = Readonly<Record<string, Readonly<Record<string, FieldKind>>>>;

export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy of `value` read as message `type`, with every known field under its lowerCamelCase name.
 * Unknown fields keep their spelling so that the caller can still reject or ignore them. When both
 * spellings of one field are present the lowerCamelCase one wins. Depth is bounded by the input.
 */
export function normaliseMessage(value: unknown, type: string, table: MessageTable): unknown {
  if (Array.isArray(value)) return value.map((v) => normaliseMessage(v, type, table));
  const fields = table[type];
  if (!fields || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const camel = snakeToCamel(key);
    const kind = Object.prototype.hasOwnProperty.call(fields, camel) ? fields[camel] : undefined;
    if (!kind) {
      if (!Object.prototype.hasOwnProperty.call(out, key)) define(out, key, v);
      continue;
    }
    if (camel !== key && Object.prototype.hasOwnProperty.call(value, camel)) continue;
    define(out, camel, normaliseField(v, kind, table));
  }
  return out;
}

function normaliseField(v: unknown, kind: FieldKind, table: MessageTable): unknown {
  if (kind === 'value') return v;
  if ('message' in kind) return normaliseMessage(v, kind.message, table);
  if (!isPlainObject(v)) return v;
  // Map keys are data; only the values are messages.
  return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, normaliseMessage(item, kind.mapOf, table)]));
}

/** Own data property even for a key like `__proto__`, which plain assignment would treat as the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
