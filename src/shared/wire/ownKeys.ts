// Keys that come from outside (a document's names, a file's columns, a request's fields, a server's enum
// values) may be any string, `__proto__`, `constructor` or `toString` among them. On a plain object
// `obj[key] = v` with `__proto__` swaps the prototype and the member is lost, and `key in obj` or `obj[key]`
// with `constructor` answers with Object's own members. These helpers read and write own members only.
// Shared by the features and the emulators (src/sandbox may import src/shared/wire alone).

/** The own member `key` of `map`, or undefined: never an inherited one. */
export function ownValue<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/**
 * Sets an own, enumerable member whatever its name, keeping a plain object (its JSON and its prototype
 * stay as they were): for objects that leave as JSON or reach code that expects a plain object.
 */
export function putOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A table with no prototype (empty, or holding `from`'s own members): `in`, reads and writes see its own keys alone. */
export function dictionary<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}
