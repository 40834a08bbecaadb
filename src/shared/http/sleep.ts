// The one abortable wait. Abort semantics everywhere: the promise REJECTS with an error named
// `AbortError`, so a loop that waits between retries stops at once and its caller sees why.
import { setTimeout as delay } from 'node:timers/promises';

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError());
  return delay(Math.max(0, ms), undefined, { signal }).then(
    () => undefined,
    (e: unknown) => {
      throw isAbortError(e) ? abortError() : e;
    },
  );
}

export function abortError(message = 'The operation was cancelled.'): Error {
  const e = new Error(message);
  e.name = 'AbortError';
  return e;
}

export function isAbortError(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}
