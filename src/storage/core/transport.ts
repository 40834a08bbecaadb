// One HTTP round trip to the storage API with what every call needs: bearer auth (refreshed once
// on 401), retries with backoff on rate limits and 5xx, and error mapping. HTTP itself (fetch,
// redirects, timeouts, redaction) is the shared layer's; `fetch` is injectable for tests.
import { Readable } from 'node:stream';
import {
  backoffDelay,
  defaultFetch,
  isAbortError,
  redactUrl,
  sleep,
  type HttpBody,
  type HttpFetch,
  type HttpResponse,
} from '../../shared/http';
import { errorFromResponse, NetworkError } from './errors';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';

export type ResponseLike = HttpResponse;

export interface AuthProvider {
  /** The current access token; undefined when signed out. Never logged. */
  token(): Promise<string | undefined> | string | undefined;
  /** Called once after a 401; resolves true when a fresh token is available. */
  refresh?(): Promise<boolean>;
}

export interface TransportOptions {
  /** Origin (or any URL prefix) the API paths are relative to, e.g. http://127.0.0.1:5555. */
  baseUrl: string;
  /** Path of the metadata API below baseUrl; `store/v2/` (or `drive/v2/` for the real service). */
  servicePath?: string;
  /** Path of uploads below baseUrl; `upload/store/v2/`. */
  uploadPath?: string;
  auth: AuthProvider;
  fetch?: HttpFetch;
  retry?: Partial<RetryPolicy>;
  /** Observes every attempt (method, URL without query, status); for logs and tests. */
  onAttempt?: (info: { method: string; url: string; status: number | 'network'; attempt: number }) => void;
}

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface RequestSpec {
  method: string;
  /** Path below servicePath (or uploadPath when `upload`), e.g. `files/abc`. */
  path?: string;
  /** A full URL (resumable session URIs); overrides path. */
  url?: string;
  query?: Record<string, QueryValue>;
  /** JSON body. */
  json?: unknown;
  /** Raw body; a factory is called per attempt so streams can be recreated for retries. */
  body?: Buffer | string | (() => unknown);
  headers?: Record<string, string>;
  upload?: boolean;
  signal?: AbortSignal;
  /** Whether a network failure may be retried (the request may have reached the server). */
  idempotent?: boolean;
  /** Statuses the caller handles itself (e.g. 308 during resumable uploads). */
  expectStatus?: number[];
  noRetry?: boolean;
  /** A GET whose answer does not change for this long (ms) may be answered from the last one (HttpRequest.reuseMs). */
  reuseMs?: number;
}

export class Transport {
  readonly servicePath: string;
  readonly uploadPath: string;
  private readonly fetchImpl: HttpFetch;
  private readonly policy: RetryPolicy;

  constructor(readonly options: TransportOptions) {
    this.servicePath = trimSlashes(options.servicePath ?? 'store/v2/');
    this.uploadPath = trimSlashes(options.uploadPath ?? 'upload/store/v2/');
    this.fetchImpl = options.fetch ?? defaultFetch;
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
  }

  url(path: string, query?: Record<string, QueryValue>, upload = false): string {
    const base = this.options.baseUrl.replace(/\/+$/, '');
    const prefix = upload ? this.uploadPath : this.servicePath;
    const u = new URL(`${base}/${prefix}/${path.replace(/^\/+/, '')}`);
    appendQuery(u, query);
    return u.href;
  }

  /** Sends the request; resolves with the response on 2xx (or an expected status), throws StorageError otherwise. */
  async send(spec: RequestSpec): Promise<ResponseLike> {
    const target = spec.url ? withQuery(spec.url, spec.query) : this.url(spec.path ?? '', spec.query, spec.upload);
    const idempotent = spec.idempotent ?? spec.method !== 'POST';
    let refreshed = false;
    let waited: { ms: number; reason: 'backoff' } | undefined;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { ...(spec.headers ?? {}) };
      const token = await this.options.auth.token();
      if (token) headers.authorization = `Bearer ${token}`;
      let body: HttpBody | undefined;
      if (spec.json !== undefined) {
        body = JSON.stringify(spec.json);
        headers['content-type'] ??= 'application/json; charset=UTF-8';
      } else body = asBody(typeof spec.body === 'function' ? spec.body() : spec.body);
      let res: ResponseLike;
      try {
        res = await this.fetchImpl(target, {
          method: spec.method,
          headers,
          body,
          signal: spec.signal,
          trace: { feature: 'storage', attempt, wait: waited },
          ...(spec.reuseMs ? { reuseMs: spec.reuseMs } : {}),
        });
      } catch (e) {
        if (isAbortError(e) || spec.signal?.aborted) throw e;
        this.options.onAttempt?.({ method: spec.method, url: stripQuery(target), status: 'network', attempt });
        const failure = new NetworkError(e, target);
        // Refused or unknown host: a couple of very short retries, never the long backoff (the view would spin).
        const retries = failure.unreachable
          ? Math.min(this.policy.unreachableRetries, this.policy.maxRetries)
          : this.policy.maxRetries;
        if (!spec.noRetry && idempotent && attempt < retries) {
          waited = {
            ms: failure.unreachable ? this.policy.unreachableDelayMs : backoffDelay(this.policy, attempt),
            reason: 'backoff',
          };
          await (this.policy.sleep ?? sleep)(waited.ms, spec.signal);
          continue;
        }
        throw failure;
      }
      this.options.onAttempt?.({ method: spec.method, url: stripQuery(target), status: res.status, attempt });
      if ((res.status >= 200 && res.status < 300) || spec.expectStatus?.includes(res.status)) return res;
      const err = errorFromResponse(res.status, await res.text().catch(() => ''), res.headers.get('retry-after'));
      if (err.status === 401 && !refreshed && this.options.auth.refresh) {
        refreshed = true;
        if (await this.options.auth.refresh()) {
          attempt--;
          waited = undefined;
          continue;
        }
      }
      if (!spec.noRetry && err.retryable && attempt < this.policy.maxRetries) {
        const ms = backoffDelay(
          this.policy,
          attempt,
          err.retryAfterSeconds === undefined ? undefined : err.retryAfterSeconds * 1000,
        );
        waited = { ms, reason: 'backoff' };
        await (this.policy.sleep ?? sleep)(ms, spec.signal);
        continue;
      }
      throw err;
    }
  }

  async json<T>(spec: RequestSpec): Promise<T> {
    const res = await this.send(spec);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

/** Bodies come from callers as `unknown` factories (streams recreated per attempt); only what fetch can send passes. */
function asBody(b: unknown): HttpBody | undefined {
  if (b === undefined || typeof b === 'string' || b instanceof Uint8Array || b instanceof Readable) return b;
  throw new TypeError('A storage request body must be text, bytes or a stream.');
}

function trimSlashes(p: string): string {
  return p.replace(/^\/+|\/+$/g, '');
}

function appendQuery(u: URL, query?: Record<string, QueryValue>): void {
  if (!query) return;
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'object') for (const item of v) u.searchParams.append(k, item);
    else u.searchParams.set(k, String(v));
  }
}

function withQuery(url: string, query?: Record<string, QueryValue>): string {
  const u = new URL(url);
  appendQuery(u, query);
  return u.href;
}

/** What `onAttempt` observers see: no query (it may hold an upload session id), credentials redacted. */
function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return redactUrl(i < 0 ? url : url.slice(0, i));
}
