// The one place that talks HTTP: URL building, the key (header by default, `key` query parameter
// on request), retries before the body starts, and abort. node-fetch by default; injectable.
import nodeFetch from 'node-fetch';
import { connectionLost, fromHttpBody, isRetryable, type GenerationError } from './errors';

/** The subset of a fetch Response the client uses (node-fetch, undici and test fakes all fit). */
export interface ResponseLike {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal },
) => Promise<ResponseLike>;

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
  fetch?: FetchLike;
  retry?: RetryOptions;
  /** Told before each retry wait, so a UI can say "retrying in 2 s". */
  onRetry?: (info: { attempt: number; delayMs: number; error: GenerationError }) => void;
  /** Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const USER_AGENT = 'api-workbench/0.1';

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function buildUrl(opts: Pick<ConnectionOptions, 'baseUrl' | 'apiKey' | 'keyInQuery'>, path: string, query: Record<string, string | undefined> = {}): string {
  const url = new URL(opts.baseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  if (opts.keyInQuery) url.searchParams.set('key', opts.apiKey);
  return url.toString();
}

export function headersFor(opts: Pick<ConnectionOptions, 'apiKey' | 'keyInQuery'>, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { 'x-goog-api-client': USER_AGENT, ...extra };
  if (!opts.keyInQuery) h['x-goog-api-key'] = opts.apiKey;
  return h;
}

/** Strips the key from a URL before it is shown anywhere. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]key=)[^&#]*/g, '$1REDACTED');
}

function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return !!signal?.aborted || (err as { name?: string })?.name === 'AbortError';
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
  const doFetch = opts.fetch ?? (nodeFetch as unknown as FetchLike);
  const sleep = opts.sleep ?? defaultSleep;
  const maxAttempts = Math.max(1, opts.retry?.maxAttempts ?? 3);
  const initial = opts.retry?.initialDelayMs ?? 1000;
  const maxDelay = opts.retry?.maxDelayMs ?? 60_000;
  const headers = headersFor(opts, body !== undefined && !extraHeaders['content-type'] ? { 'content-type': 'application/json', ...extraHeaders } : extraHeaders);
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) return { kind: 'aborted', attempts: attempt - 1 };
    let error: GenerationError;
    let httpStatus: number | undefined;
    try {
      const res = await doFetch(url, { method, headers, body, signal: opts.signal });
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
    const backoff = initial * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
    const delay = error.retryDelayMs ?? backoff;
    if (attempt >= maxAttempts || !isRetryable(error) || delay > maxDelay) return { kind: 'error', error, attempts: attempt, httpStatus };
    opts.onRetry?.({ attempt, delayMs: delay, error });
    await sleep(delay, opts.signal);
  }
}
