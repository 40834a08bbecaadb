// Equality of JSON values the service repeats on every chunk (citation sources, safety ratings), decided
// without printing them: the aggregator's shortcuts for repeats (see aggregate.ts).

export function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/**
 * Whether two values print as the same JSON: same own keys in the same order, equal primitives. Anything
 * JSON.parse cannot produce (or nested deeper than a citation ever is) counts as different, so the caller
 * falls back to printing it.
 */
export function sameJson(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return a === null || typeof a === 'string' || typeof a === 'boolean' || Number.isFinite(a);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 16) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (
    Array.isArray(b) ||
    Object.getPrototypeOf(a) !== Object.prototype ||
    Object.getPrototypeOf(b) !== Object.prototype
  )
    return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // x's keys in order, in a list kept per depth: a fresh Object.keys per compared item was garbage on every
  // event that repeats its sources, and garbage is dear while the aggregate's text survives each collection.
  const keys = (KEYS[depth] ??= []);
  let n = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k)) return false;
    const u = x[k];
    const v = y[k];
    // Equal strings (most values of a citation) are decided here, without a call per value.
    if (u !== v || typeof u !== 'string') {
      if (!sameJson(u, v, depth + 1)) return false;
    }
    keys[n++] = k;
  }
  // Same values under x's keys; now y's keys must be those, in that order, and no more.
  let i = 0;
  for (const k in y) if (i >= n || keys[i++] !== k) return false;
  return i === n;
}

/** Scratch key lists of sameJson, one per depth (a nested call must not overwrite its caller's). */
const KEYS: string[][] = [];

export function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}
