// Query-parameter readers that answer bad values the way the real service does (400 with the
// parameter named in `location`), so clients can show which input was wrong.
import { ApiError, required } from './errors';

export function boolParam(q: URLSearchParams, name: string, fallback: boolean): boolean {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new ApiError(400, {
    domain: 'global',
    reason: 'invalidParameter',
    message: `Invalid value '${v}'. Values must be true or false.`,
    locationType: 'parameter',
    location: name,
  });
}

export function intParam(
  q: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(n)) {
    throw new ApiError(400, {
      domain: 'global',
      reason: 'invalidParameter',
      message: `Invalid value '${v}'. Values must be integers.`,
      locationType: 'parameter',
      location: name,
    });
  }
  if (n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `[${min}, ]` : `[${min}, ${max}]`;
    throw new ApiError(400, {
      domain: 'global',
      reason: 'invalid',
      message: `Invalid value '${v}'. Values must be within the range: ${range}`,
      locationType: 'parameter',
      location: name,
    });
  }
  return n;
}

export function enumParam<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[], fallback: T): T {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ApiError(400, {
      domain: 'global',
      reason: 'invalidParameter',
      message: `Invalid value '${v}'. Values must be one of: ${allowed.join(', ')}`,
      locationType: 'parameter',
      location: name,
    });
  }
  return v as T;
}

export function requiredParam(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  if (v === null || v === '') throw required(name);
  return v;
}

/** Comma-separated id lists (addParents, removeParents). */
export function listParam(q: URLSearchParams, name: string): string[] {
  return (q.get(name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
