// Identical GETs in flight share one round trip; an answer marked as lasting is reused; nothing else changes.
import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { isAbortError, type HttpFetch, type HttpRequest, type HttpResponse } from '../../../../src/shared/http';
import { SHARE_MAX_BYTES, shareGets } from '../../../../src/shared/http/shareGets';

interface Call {
  url: string;
  init: HttpRequest;
  answer(text: string, opts?: { status?: number; length?: boolean; type?: string }): HttpResponse;
  fail(e: Error): void;
}

/** A fetch whose calls wait until the test answers them. */
function manualFetch() {
  const calls: Call[] = [];
  const fetch: HttpFetch = (url, init = {}) =>
    new Promise<HttpResponse>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
      calls.push({
        url,
        init,
        fail: reject,
        answer: (text, { status = 200, length = true, type = 'application/json; charset=UTF-8' } = {}) => {
          const bytes = Buffer.from(text);
          const headers = new Map([['content-type', type]]);
          if (length) headers.set('content-length', String(bytes.length));
          const res: HttpResponse = {
            status,
            ok: status >= 200 && status < 300,
            statusText: status === 200 ? 'OK' : 'Error',
            headers: { get: (n) => headers.get(n.toLowerCase()) ?? null },
            body: Readable.from([bytes]),
            text: () => Promise.resolve(text),
            arrayBuffer: () => Promise.resolve(new Uint8Array(bytes).buffer),
          };
          resolve(res);
          return res;
        },
      });
    });
  return { fetch, calls };
}

const tick = () => new Promise((r) => setImmediate(r));
const URL_A = 'http://127.0.0.1:9/store/v2/files/abc?fields=id';

describe('shared HTTP layer: identical GETs share one request', () => {
  it('two identical GETs in flight cost one request; each caller reads its own copy', async () => {
    const m = manualFetch();
    const f = shareGets(m.fetch);
    const a = f(URL_A, { headers: { authorization: 'Bearer t' } });
    const b = f(URL_A, { headers: { Authorization: 'Bearer t' } });
    await tick();
    assert.equal(m.calls.length, 1);
    m.calls[0].answer('{"id":"abc"}');
    const [ra, rb] = await Promise.all([a, b]);
    assert.equal(await ra.text(), '{"id":"abc"}');
    assert.equal(await rb.text(), '{"id":"abc"}');
    const chunks: Buffer[] = [];
    for await (const c of rb.body!) chunks.push(Buffer.from(c));
    assert.equal(Buffer.concat(chunks).toString(), '{"id":"abc"}');
    assert.equal(rb.headers.get('content-type'), 'application/json; charset=UTF-8');
  });

  it('different credentials, methods or bodies are never shared', async () => {
    const m = manualFetch();
    const f = shareGets(m.fetch);
    const calls = [
      f(URL_A, { headers: { authorization: 'Bearer one' } }),
      f(URL_A, { headers: { authorization: 'Bearer two' } }),
      f(URL_A, { method: 'POST', body: '{}' }),
      f(URL_A, { method: 'POST', body: '{}' }),
    ];
    await tick();
    assert.equal(m.calls.length, 4);
    for (const c of m.calls) c.answer('{}');
    await Promise.all(calls);
  });

  it('an answer of unknown or large size streams to its caller; one who waited sends its own request', async () => {
    const m = manualFetch();
    const f = shareGets(m.fetch);
    const a = f(URL_A);
    const b = f(URL_A);
    await tick();
    m.calls[0].answer('x'.repeat(10), { length: false });
    assert.equal(await (await a).text(), 'x'.repeat(10));
    await tick();
    assert.equal(m.calls.length, 2, 'the waiting caller asked for itself');
    m.calls[1].answer('y'.repeat(SHARE_MAX_BYTES + 1));
    assert.equal((await (await b).text()).length, SHARE_MAX_BYTES + 1);
  });

  it("a file's bytes, however small, go to their caller as they arrive: never read whole to be shared", async () => {
    // A download read whole first held and copied every file of up to 1 MiB (a third of a first sync's CPU went
    // to copies and the collections they caused) and sent its first byte only after its last.
    const m = manualFetch();
    const f = shareGets(m.fetch);
    for (const type of ['application/octet-stream', 'text/plain', 'image/png', 'text/event-stream', '']) {
      const a = f(URL_A);
      const b = f(URL_A);
      await tick();
      const inner = m.calls[m.calls.length - 1].answer('bytes', { type });
      assert.equal(await a, inner, `${type || 'no type'}: the caller gets the response as it came`);
      await tick();
      m.calls[m.calls.length - 1].answer('bytes', { type });
      assert.equal(await (await b).text(), 'bytes');
    }
    assert.equal(m.calls.length, 10, 'each caller asked for itself');
  });

  it('a caller that stops waiting gets an AbortError; the request goes on for the others', async () => {
    const m = manualFetch();
    const f = shareGets(m.fetch);
    const a = f(URL_A);
    const stop = new AbortController();
    const b = f(URL_A, { signal: stop.signal });
    stop.abort();
    await assert.rejects(b, (e: unknown) => isAbortError(e));
    m.calls[0].answer('{"ok":true}');
    assert.equal(await (await a).text(), '{"ok":true}');
  });

  it('when the first caller aborts, one who waited sends its own request', async () => {
    const m = manualFetch();
    const f = shareGets(m.fetch);
    const stop = new AbortController();
    const a = f(URL_A, { signal: stop.signal });
    const b = f(URL_A);
    await tick();
    stop.abort();
    await assert.rejects(a);
    await tick();
    assert.equal(m.calls.length, 2);
    m.calls[1].answer('{"ok":1}');
    assert.equal(await (await b).text(), '{"ok":1}');
  });

  it('reuses a 2xx answer marked reuseMs for that long; a write to the origin forgets it', async () => {
    const m = manualFetch();
    let now = 1000;
    const f = shareGets(m.fetch, () => now);
    const models = 'http://127.0.0.1:9/v1beta/models?pageSize=100';
    const first = f(models, { reuseMs: 60_000 });
    await tick();
    m.calls[0].answer('{"models":[]}');
    await first;
    now += 30_000;
    assert.equal(await (await f(models, { reuseMs: 60_000 })).text(), '{"models":[]}');
    assert.equal(m.calls.length, 1, 'reused');
    // Without reuseMs a caller always asks.
    const fresh = f(models);
    await tick();
    assert.equal(m.calls.length, 2);
    m.calls[1].answer('{"models":[1]}');
    await fresh;
    // Past the time, or after a write to the same origin, it asks again.
    now += 31_000;
    const late = f(models, { reuseMs: 60_000 });
    await tick();
    assert.equal(m.calls.length, 3);
    m.calls[2].answer('{"models":[2]}');
    await late;
    const write = f('http://127.0.0.1:9/v1beta/cachedContents', { method: 'POST', body: '{}' });
    await tick();
    m.calls[3].answer('{}');
    await write;
    const after = f(models, { reuseMs: 60_000 });
    await tick();
    assert.equal(m.calls.length, 5, 'a write forgot the kept answer');
    m.calls[4].answer('{"models":[3]}');
    assert.equal(await (await after).text(), '{"models":[3]}');
  });

  it('an error answer is shared while in flight but never reused', async () => {
    const m = manualFetch();
    const f = shareGets(m.fetch);
    const a = f(URL_A, { reuseMs: 60_000 });
    const b = f(URL_A, { reuseMs: 60_000 });
    await tick();
    m.calls[0].answer('{"error":{}}', { status: 503 });
    assert.deepEqual(
      (await Promise.all([a, b])).map((r) => r.status),
      [503, 503],
    );
    const c = f(URL_A, { reuseMs: 60_000 });
    await tick();
    assert.equal(m.calls.length, 2);
    m.calls[1].answer('{}');
    assert.equal((await c).status, 200);
  });
});
