// Identical GET requests in flight share one round trip, and an answer its caller marked as lasting
// (`HttpRequest.reuseMs`: the model list, the root folder's metadata) is reused for that long. Two parts of
// the editor asking the same thing at once (the tree and the file system, the side-bar chat and an editor
// chat) then cost one request, and the Request Log shows only requests that really went out.
import { Readable } from 'node:stream';
import { abortError } from './sleep';
import type { HttpFetch, HttpRequest, HttpResponse } from './types';

/** Only small answers are shared: they are read whole once and handed to every caller as a copy. */
export const SHARE_MAX_BYTES = 1024 * 1024;

interface Buffered {
  status: number;
  statusText: string;
  headers: HttpResponse['headers'];
  bytes: Uint8Array;
}

/** What a shared request ends as: the answer read whole, or `unshared` when it could not be shared. */
type Outcome = { kind: 'shared'; answer: Buffered } | { kind: 'unshared' };

/** Each caller's own copy: a Node stream over the bytes, as the default fetch gives. */
function bufferedResponse(b: Buffered): HttpResponse {
  const bytes = b.bytes;
  return {
    status: b.status,
    ok: b.status >= 200 && b.status < 300,
    statusText: b.statusText,
    headers: b.headers,
    body: Readable.from(bytes.byteLength ? [Buffer.from(bytes)] : []),
    text: () => Promise.resolve(Buffer.from(bytes).toString('utf8')),
    arrayBuffer: () => Promise.resolve(bytes.slice().buffer),
  };
}

/**
 * Whether an answer can be handed to several callers: JSON (what callers read whole anyway) of a known, small
 * length. Anything else is a stream its caller consumes as it arrives (a file's bytes, an export, an event
 * stream): reading it whole first would hold and copy every downloaded file for a sharing that almost never
 * happens, and delay its first byte.
 */
function shareable(res: HttpResponse): boolean {
  const length = Number(res.headers.get('content-length') ?? NaN);
  const type = res.headers.get('content-type') ?? '';
  return Number.isFinite(length) && length <= SHARE_MAX_BYTES && /[/+]json\b/i.test(type);
}

async function readWhole(res: HttpResponse): Promise<Buffered> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, statusText: res.statusText, headers: res.headers, bytes };
}

/** Reused answers kept at most; the oldest goes first. */
const KEEP_MAX = 64;

/** Waits for `p` unless `signal` aborts first. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Wraps a fetch so that a GET without a body that is identical (URL and headers, credentials included) to one
 * still in flight waits for that one's answer instead of sending its own. An answer that is large or of
 * unknown length is not shared: its first caller streams it, and a caller that waited sends its own request.
 * A caller that gives `reuseMs` takes a 2xx answer that a caller with `reuseMs` got in the last `reuseMs` ms;
 * any other method sent to the same origin forgets the kept answers of that origin (what it changed may be
 * among them).
 */
export function shareGets(inner: HttpFetch, now: () => number = Date.now): HttpFetch {
  const inFlight = new Map<string, Promise<Outcome>>();
  const kept = new Map<string, { at: number; answer: Buffered }>();

  return async (url, init: HttpRequest = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' || init.body !== undefined) {
      const origin = originOf(url);
      for (const key of kept.keys()) if (key.startsWith(`${origin} `)) kept.delete(key);
      return inner(url, init);
    }
    const key = keyOf(url, init.headers);
    const reuse = init.reuseMs ?? 0;
    const last = kept.get(key);
    if (last && reuse > 0 && now() - last.at <= reuse) {
      if (init.signal?.aborted) throw abortError();
      return bufferedResponse(last.answer);
    }

    const pending = inFlight.get(key);
    if (pending) {
      const outcome = await untilAborted(
        pending.catch((): Outcome => ({ kind: 'unshared' })),
        init.signal,
      );
      if (outcome.kind === 'shared') return bufferedResponse(outcome.answer);
      return inner(url, init);
    }

    let settle!: (o: Outcome) => void;
    const shared = new Promise<Outcome>((resolve) => (settle = resolve));
    inFlight.set(key, shared);
    const done = (o: Outcome) => {
      if (inFlight.get(key) === shared) inFlight.delete(key);
      settle(o);
    };
    let res: HttpResponse;
    try {
      res = await inner(url, init);
    } catch (e) {
      done({ kind: 'unshared' });
      throw e;
    }
    if (!shareable(res)) {
      done({ kind: 'unshared' });
      return res;
    }
    let answer: Buffered;
    try {
      answer = await readWhole(res);
    } catch (e) {
      done({ kind: 'unshared' });
      throw e;
    }
    kept.delete(key);
    if (reuse > 0 && answer.status >= 200 && answer.status < 300) {
      kept.set(key, { at: now(), answer });
      if (kept.size > KEEP_MAX) kept.delete(kept.keys().next().value!);
    }
    done({ kind: 'shared', answer });
    return bufferedResponse(answer);
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function keyOf(url: string, headers: Record<string, string> | undefined): string {
  const h = Object.entries(headers ?? {})
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${originOf(url)} ${url} ${JSON.stringify(h)}`;
}
