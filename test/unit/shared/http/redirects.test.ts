import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import {
  guardFetch,
  nextHop,
  RedirectError,
  TimeoutError,
  type HttpFetch,
  type HttpRequest,
  type HttpResponse,
} from '../../../../src/shared/http';

function answer(status: number, headers: Record<string, string> = {}, body = ''): HttpResponse {
  return {
    status,
    ok: status >= 200 && status < 300,
    statusText: '',
    headers: { get: (n) => headers[n.toLowerCase()] ?? null },
    body: null,
    text: () => Promise.resolve(body),
    arrayBuffer: () => Promise.resolve(new TextEncoder().encode(body).buffer),
  };
}

/** A scripted single-hop fetch that records what each hop was sent. */
function scripted(routes: Record<string, () => HttpResponse>) {
  const sent: { url: string; init: HttpRequest }[] = [];
  const inner: HttpFetch = (url, init = {}) => {
    sent.push({ url, init });
    const route = routes[url];
    if (!route) return Promise.reject(new Error(`no route ${url}`));
    return Promise.resolve(route());
  };
  return { sent, fetch: guardFetch(inner) };
}

describe('shared http: redirect policy', () => {
  it('keeps credentials on a same-origin redirect', async () => {
    const { sent, fetch } = scripted({
      'https://a.test/x?key=K1234567890': () => answer(302, { location: '/y?key=K1234567890' }),
      'https://a.test/y?key=K1234567890': () => answer(200),
    });
    const res = await fetch('https://a.test/x?key=K1234567890', { headers: { 'x-goog-api-key': 'K1234567890' } });
    assert.equal(res.status, 200);
    assert.equal(sent[1].init.headers?.['x-goog-api-key'], 'K1234567890');
  });

  it('strips every credential header and our key parameter on a hop to another origin', async () => {
    const { sent, fetch } = scripted({
      'https://a.test/x': () => answer(307, { location: 'https://b.test/z?sig=public&key=K1234567890' }),
      'https://b.test/z?sig=public': () => answer(200),
    });
    await fetch('https://a.test/x', {
      method: 'POST',
      body: 'hi',
      headers: {
        authorization: 'Bearer K1234567890',
        'X-Api-Key': 'K1234567890',
        'x-goog-api-key': 'K1234567890',
        cookie: 'c=1',
        accept: 'x',
      },
    });
    assert.deepEqual(sent[1].init.headers, { accept: 'x' });
    assert.equal(sent[1].init.method, 'POST', '307 keeps the method');
    assert.equal(sent[1].init.body, 'hi');
  });

  it('refuses a hop to another origin that would still carry the credential', () => {
    assert.throws(
      () =>
        nextHop(
          { url: 'https://a.test/x?key=K1234567890', method: 'GET', headers: {} },
          302,
          'https://evil.test/K1234567890/',
        ),
      (e: unknown) =>
        e instanceof RedirectError &&
        /Refused a redirect from https:\/\/a\.test to https:\/\/evil\.test/.test(e.message) &&
        !e.message.includes('K1234567890'),
    );
  });

  it('treats http→https on one host as another origin', () => {
    const hop = nextHop(
      { url: 'http://a.test/x', method: 'GET', headers: { authorization: 'Bearer abcdefghij' } },
      301,
      'https://a.test/x',
    );
    assert.deepEqual(hop.headers, {});
  });

  it('turns 303 (and a POST 301/302) into a body-less GET; refuses to replay a stream; refuses other schemes', () => {
    const post = { url: 'https://a.test/x', method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'b' };
    assert.deepEqual(nextHop(post, 303, '/y'), {
      url: 'https://a.test/y',
      method: 'GET',
      headers: {},
      body: undefined,
    });
    assert.equal(nextHop(post, 302, '/y').method, 'GET');
    assert.throws(() => nextHop({ ...post, body: Readable.from(['x']) }, 307, '/y'), RedirectError);
    assert.throws(() => nextHop(post, 302, 'file:///etc/passwd'), RedirectError);
  });

  it('stops a redirect loop with an error that holds no key', async () => {
    const { fetch } = scripted({
      'https://a.test/l?key=K1234567890': () => answer(302, { location: '/l?key=K1234567890' }),
    });
    await assert.rejects(
      fetch('https://a.test/l?key=K1234567890'),
      (e: unknown) =>
        e instanceof RedirectError && /Too many redirects/.test(e.message) && !e.message.includes('K1234567890'),
    );
  });

  it('returns a 3xx without Location as the answer (resumable uploads: 308 resume incomplete)', async () => {
    const { fetch } = scripted({ 'https://a.test/u': () => answer(308, { range: 'bytes=0-9' }) });
    assert.equal((await fetch('https://a.test/u')).status, 308);
  });

  it('rewrites a failing fetch error so it holds no credential', async () => {
    const fetch = guardFetch((url) =>
      Promise.reject(Object.assign(new Error(`request to ${url} failed, reason: boom`), { code: 'ECONNRESET' })),
    );
    await assert.rejects(
      fetch('https://a.test/?upload_id=SESSION12345'),
      (e: unknown) =>
        e instanceof Error &&
        !e.message.includes('SESSION12345') &&
        (e as Error & { code?: string }).code === 'ECONNRESET',
    );
  });

  it('times out when no response headers arrive, and reports a caller abort as AbortError', async () => {
    const hang: HttpFetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
        ),
      );
    await assert.rejects(
      guardFetch(hang)('https://a.test/', { timeoutMs: 20 }),
      (e: unknown) => e instanceof TimeoutError && /within/.test(e.message),
    );
    const c = new AbortController();
    const p = guardFetch(hang)('https://a.test/', { signal: c.signal });
    c.abort();
    await assert.rejects(p, (e: unknown) => (e as Error).name === 'AbortError');
  });
});
