// The one backoff: exponential with jitter, replaced by the server's own wait when it gives one
// (HTTP Retry-After, or google.rpc.RetryInfo in an error body) — the server knows when it recovers.

export interface Backoff {
  /** Wait before the first retry, doubled for each further one. */
  baseDelayMs: number;
  /** Cap of the exponential part (the server's own wait is not capped here; callers decide). */
  maxDelayMs: number;
  /** Spread as a fraction of the delay: 0.4 draws from 80 %–120 %. Keeps many clients from retrying in step. */
  jitter: number;
  /** Injected for tests. */
  random?: () => number;
}

/** Milliseconds to wait before retry number `attempt` (0-based). */
export function backoffDelay(policy: Backoff, attempt: number, serverDelayMs?: number): number {
  if (serverDelayMs !== undefined && Number.isFinite(serverDelayMs) && serverDelayMs >= 0) return serverDelayMs;
  const random = policy.random ?? Math.random;
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt));
  return Math.round(exp * (1 - policy.jitter / 2 + policy.jitter * random()));
}

/** A Retry-After header (delta-seconds or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** A protobuf Duration in JSON form ("47.88s", RetryInfo.retryDelay) in milliseconds. */
export function durationMs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(text.trim());
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}
