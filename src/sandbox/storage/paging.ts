// Opaque page tokens: an offset bound to the query that produced it. A token replayed against a
// different query is rejected like the real service does (400 on pageToken).
import { createHash } from 'node:crypto';
import { ApiError } from './errors';

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

function keyHash(key: string): string {
  return createHash('sha1').update(key).digest('base64url').slice(0, 10);
}

export function encodeToken(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, k: keyHash(key) })).toString('base64url');
}

export function decodeToken(token: string, key: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.k === keyHash(key))
      return parsed.o;
  } catch {
    // fall through to the 400 below
  }
  throw new ApiError(400, {
    domain: 'global',
    reason: 'invalid',
    message: 'Invalid Value',
    locationType: 'parameter',
    location: 'pageToken',
  });
}

/**
 * Slices one page. `shortBy` lets fault injection return fewer items than asked while still
 * handing out a token, which real servers do and clients must survive.
 */
export function paginate<T>(
  all: readonly T[],
  pageToken: string | null,
  maxResults: number,
  key: string,
  shortBy = 0,
): Page<T> {
  const start = pageToken ? decodeToken(pageToken, key) : 0;
  const size = Math.max(0, maxResults - shortBy);
  const end = Math.min(all.length, start + size);
  const items = all.slice(start, end);
  return end < all.length ? { items, nextPageToken: encodeToken(end, key) } : { items };
}
