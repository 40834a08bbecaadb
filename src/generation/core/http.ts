// Generation's use of the shared HTTP layer: URL building, the key (header by default, `key` query
// parameter on request), retries before the body starts, and abort. Fetch, redirects, timeouts,
// backoff and redaction are src/shared/http's; `fetch` is injectable for tests.
import {
  backoffDelay,
  defaultFetch,
  isAbortError,
  sleep as sharedSleep,
  type HttpFetch,
  type HttpResponse,
} from '../../shared/http';
import { connectionLost, fromHttpBody, isRetryable, type GenerationError } from './errors';

export type ResponseLike = HttpResponse;

export interface RetryOptions {
  /** Attempts including the first; 1 disables retries. Default 3. */
  maxAttempts?: number;
  /** First backoff when the service gives no RetryInfo. Default 1000 ms, doubled each attempt. */
  initialDelayMs?: number;
  /** Longest wait we accept; a RetryInfo asking for more is reported instead. Default 60 s. */
  maxDelayMs?: number;
}

export interface ConnectionOptions {
  /** Origin the spec's paths are relative to, e.g. https://generativelanguage.googleapis.com. */
  baseUrl: string;
  apiKey: string;
  /** Send the key as the spec's `key` query parameter instead of the x-goog-api-key header. */
  keyInQuery?: boolean;
  signal?: AbortSignal;
  fetch?: HttpFetch;
  retry?: RetryOptions;
  /** Told before each retry wait, so a UI can say "retrying in 2 s". */
  onRetry?: (info: { attempt: number; delayMs: number; error: GenerationError }) => void;
  /** Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A GET whose answer does not change for this long (ms) may be answered from the last one (HttpRequest.reuseMs). */
  reuseMs?: number;
}

export const USER_AGENT = 'api-workbench/0.1';

/**
 * Waits between attempts. An abort ends the wait without throwing: generation reports a stop as an
 * `aborted` outcome (the partial reply is kept), so callers check the signal after the pause.
 */
export async function pause(
  ms: number,
  signal: AbortSignal | undefined,
  sleep: ConnectionOptions['sleep'] = sharedSleep,
): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (e) {
    if (!isAbortError(e)) throw e;
  }
}

export function buildUrl(
  opts: Pick<ConnectionOptions, 'baseUrl' | 'apiKey' | 'keyInQuery'>,
  path: string,
  query: Record<string, string | undefined> = {},
): string {
  const url = new URL(opts.baseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  if (opts.keyInQuery) url.searchParams.set('key', opts.apiKey);
  return url.toString();
}

export function headersFor(
  opts: Pick<ConnectionOptions, 'apiKey' | 'keyInQuery'>,
  extra: Record<string, string> = {},
): Record<string, string> {
  const h: Record<string, string> = { 'x-goog-api-client': USER_AGENT, ...extra };
  if (!opts.keyInQuery) h['x-goog-api-key'] = opts.apiKey;
  return h;
}

function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return !!signal?.aborted || isAbortError(err);
}

export type SendOutcome =
  | { kind: 'response'; response: ResponseLike; attempts: number }
  | { kind: 'error'; error: GenerationError; attempts: number; httpStatus?: number }
  | { kind: 'aborted'; attempts: number };

/**
 * Sends a request and returns the first 2xx response (body unread), retrying failures that
 * happen before any body byte: 408/429/5xx and dropped connections, honouring RetryInfo.
 */
export async function send(
  opts: ConnectionOptions,
  method: string,
  url: string,
  body?: string | Uint8Array,
  extraHeaders: Record<string, string> = {},
): Promise<SendOutcome> {
  const doFetch = opts.fetch ?? defaultFetch;
  const maxAttempts = Math.max(1, opts.retry?.maxAttempts ?? 3);
  const initial = opts.retry?.initialDelayMs ?? 1000;
  const maxDelay = opts.retry?.maxDelayMs ?? 60_000;
  const headers = headersFor(
    opts,
    body !== undefined && !extraHeaders['content-type']
      ? { 'content-type': 'application/json', ...extraHeaders }
      : extraHeaders,
  );
  let waited: { ms: number; reason: 'backoff' | 'rate-limit' } | undefined;
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) return { kind: 'aborted', attempts: attempt - 1 };
    let error: GenerationError;
    let httpStatus: number | undefined;
    try {
      const res = await doFetch(url, {
        method,
        headers,
        body,
        signal: opts.signal,
        trace: { feature: 'generation', attempt: attempt - 1, wait: waited },
        ...(opts.reuseMs ? { reuseMs: opts.reuseMs } : {}),
      });
      if (res.ok) return { kind: 'response', response: res, attempts: attempt };
      httpStatus = res.status;
      error = fromHttpBody(res.status, res.statusText, await res.text());
      error.phase = 'request';
    } catch (err) {
      if (isAbort(err, opts.signal)) return { kind: 'aborted', attempts: attempt };
      error = connectionLost(err);
      error.phase = 'request';
      // A refused connection or an unknown host will not heal in a second: report it now.
      const code = (err as { code?: string })?.code;
      if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') return { kind: 'error', error, attempts: attempt };
    }
    const delay = backoffDelay(
      { baseDelayMs: initial, maxDelayMs: maxDelay, jitter: 0.4 },
      attempt - 1,
      error.retryDelayMs,
    );
    if (attempt >= maxAttempts || !isRetryable(error) || (error.retryDelayMs ?? 0) > maxDelay)
      return { kind: 'error', error, attempts: attempt, httpStatus };
    opts.onRetry?.({ attempt, delayMs: delay, error });
    // A 429 (quota) backoff is a rate-limit wait in the request log; anything else is a plain backoff.
    waited = { ms: delay, reason: httpStatus === 429 ? 'rate-limit' : 'backoff' };
    await pause(delay, opts.signal, opts.sleep);
  }
}
