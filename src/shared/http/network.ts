// What a failed connection means, read from the system error code node-fetch keeps on its errors.

/** Codes that say nothing answers there now (refused, no such host, no route): waiting seconds will not help. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing is listening there)',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed for now',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'no answer in time',
  EPIPE: 'connection closed while sending',
};

function networkErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when the endpoint is not there at all, so a caller should fail at once rather than back off for long. */
export function isUnreachable(err: unknown): boolean {
  const code = networkErrorCode(err);
  return code !== undefined && UNREACHABLE.has(code);
}

/** One short line for people: "127.0.0.1:1: connection refused (nothing is listening there)". No path, no query. */
export function describeNetworkError(err: unknown, url: string): string {
  let where = '';
  try {
    where = new URL(url).host;
  } catch {
    // an unparsable URL is left out of the line
  }
  const code = networkErrorCode(err);
  const reason =
    (code && REASONS[code]) ?? (code ? code : ((err as Error | undefined)?.message ?? 'network error').split('\n')[0]);
  return where ? `${where}: ${reason}` : reason;
}
