// The storage retry policy: how many times, and the shared backoff (src/shared/http) it waits by.
import type { Backoff } from '../../shared/http';

export interface RetryPolicy extends Backoff {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  /**
   * Retries when the connection is refused or the host is unknown, each after `unreachableDelayMs`: a
   * sandbox being restarted comes back in a moment, and nothing else is worth seconds of waiting.
   */
  unreachableRetries: number;
  unreachableDelayMs: number;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1000,
  maxDelayMs: 16_000,
  jitter: 0.4,
  unreachableRetries: 2,
  unreachableDelayMs: 150,
};
