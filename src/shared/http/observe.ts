// What the request log sees: one typed event per call of the default fetch, with the URL and headers
// already redacted (the event never holds a credential), and the hook anyone (the editor's Request Log)
// can listen on. Editor-free; the cores only label their requests (`trace`), they never log.
import { PassThrough, Readable } from 'node:stream';
import { putOwn } from '../wire/ownKeys';
import { redactHeaders, redactText, redactUrl } from './redact';
import type { HttpBody, HttpFetch, HttpRequest, HttpResponse, RequestTrace } from './types';

/** Request bodies kept for the details view and "Copy as curl": enough for JSON and forms, never a whole upload. */
export const BODY_PREVIEW_CHARS = 4096;

export type RequestPhase = 'headers' | 'done' | 'failed';

export interface RequestEvent {
  /** Same id for every event of one call ("headers" first, then "done" or "failed"). */
  readonly id: number;
  readonly phase: RequestPhase;
  readonly feature: RequestTrace['feature'] | 'other';
  readonly method: string;
  /** Redacted: credential query values read REDACTED. */
  readonly url: string;
  /** Redacted: credential header values read REDACTED. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** Text bodies up to BODY_PREVIEW_CHARS, redacted; a stream or bytes are described, not kept. */
  readonly requestBody?: { text?: string; note?: string; contentType?: string };
  readonly startedAt: number;
  /** Until the headers ("headers"), the whole body ("done") or the failure ("failed"). */
  readonly durationMs: number;
  readonly status?: number;
  readonly statusText?: string;
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /** Bytes read so far ("done": the whole body); on "headers" the Content-Length when the server sent one. */
  readonly responseBytes?: number;
  /** 0 for a first attempt; n for the n-th retry of the same request. */
  readonly retries: number;
  /** The wait before this attempt and why (a backoff after a failure, or a rate limiter's spacing). */
  readonly wait?: { ms: number; reason: 'backoff' | 'rate-limit' };
  /** Redacted message of a network error, timeout or abort. */
  readonly error?: string;
}

export type RequestListener = (event: RequestEvent) => void;

/**
 * One registry per process, not per bundle: the entry (which owns the Request Log) and each feature bundle
 * carry their own copy of this module, so the listeners and the id counter live on a global symbol.
 */
interface Registry {
  listeners: Set<RequestListener>;
  nextId: number;
}
const REGISTRY_KEY = Symbol.for('apiWorkbench.http.requestListeners');
const registry: Registry = ((globalThis as Record<symbol, Registry | undefined>)[REGISTRY_KEY] ??= {
  listeners: new Set<RequestListener>(),
  nextId: 1,
});
const listeners = registry.listeners;

/** Listens to every call of the default fetch; returns the function that stops listening. */
export function onRequest(listener: RequestListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: RequestEvent): void {
  for (const l of [...listeners]) {
    try {
      l(event);
    } catch {
      // A listener's failure never breaks the request it observes.
    }
  }
}

/** Wraps a fetch so every call reports its events to the listeners of `onRequest`. */
export function observeFetch(inner: HttpFetch, now: () => number = Date.now): HttpFetch {
  return async (url, init = {}) => {
    if (listeners.size === 0) return inner(url, init);
    const id = registry.nextId++;
    const startedAt = now();
    const base = {
      id,
      feature: init.trace?.feature ?? 'other',
      method: (init.method ?? 'GET').toUpperCase(),
      url: redactUrl(url),
      requestHeaders: redactHeaders(init.headers ?? {}),
      requestBody: describeBody(init),
      startedAt,
      retries: Math.max(0, init.trace?.attempt ?? 0),
      wait: init.trace?.wait && init.trace.wait.ms > 0 ? { ...init.trace.wait } : undefined,
    } as const;
    let res: HttpResponse;
    try {
      res = await inner(url, init);
    } catch (e) {
      emit({ ...base, phase: 'failed', durationMs: now() - startedAt, error: redactText(errorText(e)) });
      throw e;
    }
    const headers = headerRecord(res.headers);
    const length = Number(headers['content-length']);
    const answered = {
      ...base,
      status: res.status,
      statusText: res.statusText,
      responseHeaders: redactHeaders(headers),
    };
    emit({
      ...answered,
      phase: 'headers',
      durationMs: now() - startedAt,
      responseBytes: Number.isFinite(length) ? length : undefined,
    });
    let finished = false;
    const finish = (bytes: number, error?: unknown) => {
      if (finished) return;
      finished = true;
      const durationMs = now() - startedAt;
      if (error === undefined) emit({ ...answered, phase: 'done', durationMs, responseBytes: bytes });
      else
        emit({ ...answered, phase: 'failed', durationMs, responseBytes: bytes, error: redactText(errorText(error)) });
    };
    if (res.body === null || init.method === 'HEAD' || res.status === 204 || res.status === 304) finish(0);
    return countingResponse(res, finish);
  };
}

/** The same response whose body, however it is read (stream, text, bytes), reports its size once read. */
function countingResponse(res: HttpResponse, finish: (bytes: number, error?: unknown) => void): HttpResponse {
  let stream: AsyncIterable<Uint8Array> | null | undefined;
  const bytesOf = async (read: Promise<ArrayBuffer>): Promise<ArrayBuffer> => {
    try {
      const buf = await read;
      finish(buf.byteLength);
      return buf;
    } catch (e) {
      finish(0, e);
      throw e;
    }
  };
  return {
    status: res.status,
    ok: res.ok,
    statusText: res.statusText,
    headers: res.headers,
    get body() {
      stream ??= res.body === null ? null : countStream(res.body, finish);
      return stream;
    },
    text: async () => new TextDecoder().decode(await bytesOf(res.arrayBuffer())),
    arrayBuffer: () => bytesOf(res.arrayBuffer()),
  };
}

/** A Node stream stays a Node stream (downloads pipe it to disk); bytes are counted as they pass. */
function countStream(
  body: AsyncIterable<Uint8Array>,
  finish: (bytes: number, error?: unknown) => void,
): AsyncIterable<Uint8Array> {
  let bytes = 0;
  if (body instanceof Readable) {
    const out = new PassThrough();
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    body.on('error', (e) => {
      finish(bytes, e);
      out.destroy(e);
    });
    out.on('end', () => finish(bytes));
    out.on('close', () =>
      finish(bytes, out.readableEnded ? undefined : new Error('The body was not read to its end.')),
    );
    body.pipe(out);
    return out;
  }
  return (async function* () {
    try {
      for await (const chunk of body) {
        bytes += chunk.byteLength;
        yield chunk;
      }
      finish(bytes);
    } catch (e) {
      finish(bytes, e);
      throw e;
    }
  })();
}

function headerRecord(headers: HttpResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const iterable = headers as unknown as { forEach?: (cb: (value: string, name: string) => void) => void };
  if (typeof iterable.forEach === 'function') iterable.forEach((value, name) => putOwn(out, name.toLowerCase(), value));
  else
    for (const name of ['content-type', 'content-length', 'retry-after', 'location']) {
      const v = headers.get(name);
      if (v !== null) out[name] = v;
    }
  return out;
}

function describeBody(init: HttpRequest): RequestEvent['requestBody'] {
  const body: HttpBody | undefined = init.body;
  if (body === undefined) return undefined;
  const contentType = Object.entries(init.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (typeof body !== 'string') {
    const note = body instanceof Uint8Array ? `${body.byteLength} bytes` : 'streamed body';
    return { note, contentType };
  }
  // Cut before redacting (bodies can be megabytes of inline data); a cut value is still redacted whole.
  const kept = body.slice(0, BODY_PREVIEW_CHARS);
  const text = /x-www-form-urlencoded/i.test(contentType ?? '') ? redactForm(kept) : redactText(kept);
  return body.length > BODY_PREVIEW_CHARS
    ? { text, note: `${body.length} characters, first ${BODY_PREVIEW_CHARS} kept`, contentType }
    : { text, contentType };
}

/** A form body (token requests) holds codes, verifiers and refresh tokens as its first or any field. */
function redactForm(body: string): string {
  return redactText(`?${body}`).slice(1);
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
}
