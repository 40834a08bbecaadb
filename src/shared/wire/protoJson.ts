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

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * `value` read as message `type`, with every known field under its lowerCamelCase name. Unknown fields keep
 * their spelling so that the caller can still reject or ignore them. When both spellings of one field are
 * present the lowerCamelCase one wins. What the service sends is already lowerCamelCase, so an object (or
 * list) in which nothing changes is returned as it is, and a copy is made only from the first key that does
 * change (each level is read once, whatever the depth): streaming reads every chunk through here.
 */
export function normaliseMessage(value: unknown, type: string, table: MessageTable): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const n = normaliseMessage(value[i], type, table);
      if (n !== value[i]) (copy ??= value.slice())[i] = n;
    }
    return copy ?? value;
  }
  const fields = table[type];
  if (!fields || !isPlainObject(value)) return value;
  const keys = Object.keys(value);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const v = value[key];
    const camel = key.includes('_') ? snakeToCamel(key) : key;
    const kind = hasOwn(fields, camel) ? fields[camel] : undefined;
    const dropped = !!kind && camel !== key && hasOwn(value, camel);
    const next = kind && !dropped ? normaliseField(v, kind, table) : v;
    if (!out && (dropped || (!!kind && camel !== key) || next !== v)) {
      // Every key before this one came through unchanged.
      out = {};
      for (let j = 0; j < i; j++) define(out, keys[j], value[keys[j]]);
    }
    if (!out || dropped) continue;
    if (kind) define(out, camel, next);
    else if (!hasOwn(out, key)) define(out, key, v);
  }
  return out ?? value;
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
