// Exponential backoff with jitter, the policy the service asks clients to follow for rate limits
// and 5xx: wait base·2^attempt plus up to `jitterMs` random, capped, honouring Retry-After.

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  jitterMs: number;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 16_000, jitterMs: 1000 };

export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterSeconds?: number): number {
  const random = policy.random ?? Math.random;
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = exp + random() * policy.jitterMs;
  const floor = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : 0;
  return Math.min(Math.max(jittered, floor), Math.max(policy.maxDelayMs + policy.jitterMs, floor));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(): Error {
  const e = new Error('The operation was cancelled.');
  e.name = 'AbortError';
  return e;
}
