// One GET against the water-quality API, through the process-wide limiter, with the service's documented
// recovery rules: back off on 403/429 throttling, retry 408/504 once, never retry a key problem.
import {
  backoffDelay,
  defaultFetch,
  isAbortError,
  redactText,
  redactUrl,
  retryAfterMs,
  type HttpFetch,
} from '../../shared/http';
import { WATER_API_KEY_HEADER } from '../../shared/wire/waterData';
import { WaterApiError, serverMessage } from './errors';
import { AbortError, sharedRateLimiter, type RateLimiter } from './rateLimiter';

/** The service gives up on a query after 30 s; a little more covers the network. */
const RESPONSE_TIMEOUT_MS = 60_000;
const THROTTLE_BACKOFF = { baseDelayMs: 1000, maxDelayMs: 30_000, jitter: 0.2 };

export interface WaterClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  fetch?: HttpFetch;
  limiter?: RateLimiter;
  /** Throttling retries before giving up (403 that is not a key problem, 429). */
  maxThrottleRetries?: number;
  userAgent?: string;
  /** Told about waits so progress can say "rate limited, retrying in 2 s". */
  onRetry?: (info: { status: number; attempt: number; delayMs: number }) => void;
  /** How this user sets the key, for the advice of key errors (the editor's command by default; the CLI names its flag). */
  setKey?: string;
}

/** How the editor's user sets the water-quality key. */
const EDITOR_SET_WATER_KEY = 'run "API Workbench: Set API Key or Access Token…" and choose Water-quality data';

export interface WaterResponse {
  url: string;
  status: number;
  body: unknown;
  link?: string;
}

/** A successful answer whose body is not JSON (or not an object): usually a base URL that is not the API. */
export function notJsonError(status: number, url: string): WaterApiError {
  return new WaterApiError(
    'invalid-response',
    'The service answered with something other than JSON.',
    'Check that the base URL ends in /v1/odata/v4.',
    status,
    redactUrl(url),
  );
}

export class WaterClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly fetchImpl: HttpFetch;
  readonly limiter: RateLimiter;
  private readonly maxThrottleRetries: number;
  private readonly userAgent: string;
  private readonly onRetry?: WaterClientOptions['onRetry'];
  private readonly setKey: string;

  constructor(o: WaterClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.apiKey = o.apiKey;
    this.fetchImpl = o.fetch ?? defaultFetch;
    this.limiter = o.limiter ?? sharedRateLimiter;
    this.maxThrottleRetries = o.maxThrottleRetries ?? 5;
    this.userAgent = o.userAgent ?? 'api-workbench';
    this.onRetry = o.onRetry;
    this.setKey = o.setKey ?? EDITOR_SET_WATER_KEY;
  }

  async get(url: string, signal?: AbortSignal): Promise<WaterResponse> {
    return this.send(url, signal);
  }

  /**
   * A GET whose successful body is handed to `read` as its bytes arrive, not held whole and parsed at once
   * (an export's page is megabytes). `read` runs inside the limiter slot, like the body of `get`: the request
   * is not over until its body has arrived. A connection that breaks while the body is read is retried as
   * any network failure, so `read` is then called again with the body from its start. What `read` throws
   * itself (a body that is not a page, a sink that failed) ends the request as it is.
   */
  async getStreamed<T>(
    url: string,
    read: (body: AsyncIterable<Uint8Array>, status: number) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<WaterResponse & { value: T }> {
    return (await this.send(url, signal, read)) as WaterResponse & { value: T };
  }

  private async send(
    url: string,
    signal?: AbortSignal,
    read?: (body: AsyncIterable<Uint8Array>, status: number) => Promise<unknown>,
  ): Promise<WaterResponse & { value?: unknown }> {
    if (!this.apiKey) {
      throw new WaterApiError(
        'key-missing',
        'No API key is set for the water-quality data API.',
        `To set it, ${this.setKey}.`,
        undefined,
        redactUrl(url),
      );
    }
    const fetchImpl = this.fetchImpl;
    let throttled = 0;
    let timedOut = 0;
    let networkFailures = 0;
    for (let attempt = 0; ; attempt++) {
      let res: { status: number; text: string; link: string | null; retryAfter: string | null; value?: unknown };
      // The limiter's queue and spacing (and a hold-off after throttling) is this request's rate-limit wait.
      const queued = Date.now();
      /** Set while `read` has the body: its own failures are not the network's, unless the body broke. */
      let reading = false;
      let bodyBroke = false;
      try {
        res = await this.limiter.run(async (answered) => {
          const r = await fetchImpl(url, {
            method: 'GET',
            headers: { [WATER_API_KEY_HEADER]: this.apiKey!, accept: 'application/json', 'user-agent': this.userAgent },
            signal,
            timeoutMs: RESPONSE_TIMEOUT_MS,
            trace: { feature: 'waterData', attempt, wait: { ms: Date.now() - queued, reason: 'rate-limit' } },
          });
          answered();
          const head = { status: r.status, link: r.headers.get('link'), retryAfter: r.headers.get('retry-after') };
          if (read && r.status >= 200 && r.status < 300) {
            const bytes = r.body ?? [Buffer.from(await r.text())];
            const body = (async function* () {
              try {
                yield* bytes;
              } catch (e) {
                bodyBroke = true;
                throw e;
              }
            })();
            reading = true;
            return { ...head, text: '', value: await read(body, r.status) };
          }
          // The body is read inside the limiter slot: the request is not over until it has arrived.
          return { ...head, text: await r.text() };
        }, signal);
      } catch (e) {
        if (signal?.aborted || e instanceof AbortError || isAbortError(e))
          throw new WaterApiError('cancelled', 'Cancelled.', '', undefined, redactUrl(url));
        if (reading && !bodyBroke) throw e;
        if (networkFailures++ < 1) continue;
        throw new WaterApiError(
          'network',
          `Could not reach ${new URL(url).host}: ${redactText((e as Error).message)}`,
          'Check the base URL and your connection.',
          undefined,
          redactUrl(url),
        );
      }
      const s = res.status;
      if ('value' in res) return { url, status: s, body: undefined, link: res.link ?? undefined, value: res.value };
      let body: unknown;
      try {
        body = res.text ? JSON.parse(res.text) : undefined;
      } catch {
        body = res.text;
      }
      if (s >= 200 && s < 300) {
        if (!body || typeof body !== 'object') throw notJsonError(s, url);
        return { url, status: s, body, link: res.link ?? undefined };
      }
      const said = serverMessage(body);
      if (s === 401)
        throw new WaterApiError(
          'key-missing',
          `The service says the API key is missing (401)${said ? `: ${said}` : ''}.`,
          `To set it, ${this.setKey}.`,
          s,
          redactUrl(url),
        );
      const keyWords =
        /invalid api key|api key|forbidden$/i.test(said ?? '') && !/rate|too many|throttl|parallel/i.test(said ?? '');
      if (s === 403 && /invalid api key/i.test(said ?? '')) {
        throw new WaterApiError(
          'key-invalid',
          'The service rejected the API key (403 Invalid API key).',
          `To set a valid key, ${this.setKey}; ask DataStream for a new one if it was exposed.`,
          s,
          redactUrl(url),
        );
      }
      if (s === 429 || s === 403) {
        // A bare 403 can be either throttling (the specification) or a bad key: retry a little, then say both.
        const limit = s === 403 && keyWords ? 2 : this.maxThrottleRetries;
        if (throttled < limit) {
          const delay = backoffDelay(THROTTLE_BACKOFF, throttled, retryAfterMs(res.retryAfter));
          throttled++;
          this.onRetry?.({ status: s, attempt: throttled, delayMs: delay });
          this.limiter.holdOff(delay);
          continue;
        }
        if (s === 403) {
          throw new WaterApiError(
            'key-invalid',
            `The service kept refusing the request (403)${said ? `: ${said}` : ''}.`,
            `Either the API key is not valid (to set it, ${this.setKey}) or another program is using the same key faster than 2 requests per second.`,
            s,
            redactUrl(url),
          );
        }
        throw new WaterApiError(
          'rate-limited',
          `Rate limited (429) after ${throttled} retries.`,
          'Another program may be using the same key; wait a minute and run again. The service allows 2 requests per second, none in parallel.',
          s,
          redactUrl(url),
        );
      }
      if (s === 408 || s === 504) {
        if (timedOut++ < 1) {
          this.onRetry?.({ status: s, attempt: 1, delayMs: 1000 });
          this.limiter.holdOff(1000);
          continue;
        }
        throw new WaterApiError(
          'timeout',
          `The query did not finish within the service's 30 s limit (${s}), twice.`,
          'Lower $top and/or add narrower filters (RegionId, DOI, LocationId, ActivityStartYear).',
          s,
          redactUrl(url),
        );
      }
      if (s === 413)
        throw new WaterApiError(
          'too-large',
          'The result is too large for one response (413).',
          'Lower $top or $select only the fields you need.',
          s,
          redactUrl(url),
        );
      if (s === 400) {
        const msg =
          said ??
          (body && typeof body === 'object' && (body as { message?: unknown }).message === null
            ? 'The request was rejected before it reached the service (usually a character left unencoded in the query).'
            : 'Bad request.');
        throw new WaterApiError(
          'bad-request',
          `The service rejected the query (400): ${msg}`,
          'Fix the query; the cell shows the problem where it can.',
          s,
          redactUrl(url),
        );
      }
      if (s === 404)
        throw new WaterApiError(
          'not-found',
          `Not found (404)${said ? `: ${said}` : ''}.`,
          'The base URL must end in /v1/odata/v4 and the entity set be Metadata, Locations, Observations or Records.',
          s,
          redactUrl(url),
        );
      throw new WaterApiError(
        'server',
        `The service failed (${s})${said ? `: ${said}` : ''}.`,
        'Try again later.',
        s,
        redactUrl(url),
      );
    }
  }
}
