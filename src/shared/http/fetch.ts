// The default fetch of every core and the CLI, and the guard any fetch can be wrapped in.
//
// Why node-fetch and not Node 20's global fetch: request bodies are Node streams (uploads are read
// from disk chunk by chunk) and response bodies are piped to files as Node streams, which global
// fetch only takes through `duplex: 'half'` and `Readable.fromWeb`; node-fetch's network errors carry
// the system `code` (ECONNREFUSED, ENOTFOUND) that our retry rules read, where undici hides it in
// `cause`; and we control the keep-alive agent. It is bundled, so the CLI and every VS Code host run
// the same code. Only this file imports it, and only when the first request is made: with its stream and
// blob polyfills it is a third of each feature's bundle, which would otherwise be compiled whenever a
// feature loads (the extension's bundles share one copy of it, dist/vendor/nodeFetch.js; see esbuild.mjs).
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';
import { isRedirect, MAX_REDIRECTS, nextHop, RedirectError, type Hop } from './redirects';
import { redactError, redactUrl } from './redact';
import { abortError } from './sleep';
import { observeFetch } from './observe';
import { shareGets } from './shareGets';
import type { HttpBody, HttpFetch, HttpRequest, HttpResponse } from './types';

/** Time allowed for the response headers when the caller sets none: long, because a unary generation answers only when done. */
export const DEFAULT_TIMEOUT_MS = 300_000;

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
}

// Reused connections: paging and chunked uploads make many requests to one host in a row.
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16 });

let nodeFetch: Promise<typeof import('node-fetch').default> | undefined;

/** One hop, never following a redirect itself (the guard does, by policy). */
export const singleHopFetch: HttpFetch = async (url, init = {}) => {
  nodeFetch ??= import('node-fetch').then((m) => m.default);
  const r = await (
    await nodeFetch
  )(url, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: toNodeBody(init.body),
    signal: init.signal,
    redirect: 'manual',
    agent: (u: URL) => (u.protocol === 'http:' ? httpAgent : httpsAgent),
  });
  return {
    status: r.status,
    ok: r.ok,
    statusText: r.statusText,
    headers: r.headers,
    body: r.body instanceof Readable ? r.body : null,
    text: () => r.text(),
    arrayBuffer: () => r.arrayBuffer(),
  };
};

function toNodeBody(body: HttpBody | undefined): string | Buffer | Readable | undefined {
  if (body instanceof Uint8Array && !Buffer.isBuffer(body))
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return body;
}

/**
 * Wraps a single-hop fetch with what every request needs: redirects followed by policy (see
 * redirects.ts), a timeout for the response headers, and errors whose messages hold no credential.
 */
export function guardFetch(inner: HttpFetch, defaults: { timeoutMs?: number } = {}): HttpFetch {
  return async (url, init = {}) => {
    let hop: Hop = { url, method: init.method ?? 'GET', headers: { ...(init.headers ?? {}) }, body: init.body };
    for (let redirects = 0; ; redirects++) {
      const res = await oneHop(inner, hop, init, init.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      // A 3xx without Location is an answer, not a redirect (308 "resume incomplete" of resumable uploads).
      const location = res.headers.get('location');
      if (!isRedirect(res.status) || location === null) return res;
      await res.text().catch(() => '');
      if (redirects >= MAX_REDIRECTS)
        throw new RedirectError(`Too many redirects (more than ${MAX_REDIRECTS}) from ${redactUrl(url)}.`);
      hop = nextHop(hop, res.status, location);
    }
  };
}

async function oneHop(inner: HttpFetch, hop: Hop, init: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  if (init.signal?.aborted) throw abortError();
  const timer = new AbortController();
  const signal = init.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal;
  const t = setTimeout(() => timer.abort(), timeoutMs);
  try {
    return await inner(hop.url, { method: hop.method, headers: hop.headers, body: hop.body, signal });
  } catch (e) {
    if (init.signal?.aborted) throw abortError();
    if (timer.signal.aborted)
      throw new TimeoutError(`No answer from ${new URL(hop.url).origin} within ${Math.round(timeoutMs / 1000)} s.`);
    throw redactError(e);
  } finally {
    clearTimeout(t);
  }
}

/**
 * node-fetch behind the guard, observed for the request log, with identical GETs in flight shared (outside
 * the observer, so the log shows each request that went out once): what cores use when no fetch is injected.
 */
export const defaultFetch: HttpFetch = shareGets(observeFetch(guardFetch(singleHopFetch)));
