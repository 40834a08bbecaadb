// The storage retry policy: how many times, and the shared backoff (src/shared/http) it waits by.
import type { Backoff } from '../../shared/http';

export interface RetryPolicy extends Backoff {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 16_000, jitter: 0.4 };
