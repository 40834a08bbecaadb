import * as assert from 'node:assert/strict';
import type { HttpFetch } from '../../../src/shared/http';
import { WaterClient } from '../../../src/waterData/core/client';
import { WaterApiError } from '../../../src/waterData/core/errors';
import { collectRows, parseLinkHeader } from '../../../src/waterData/core/pager';
import { RateLimiter } from '../../../src/waterData/core/rateLimiter';
import { FakeClock } from './fakeClock';

const BASE = 'https://api.example.test/v1/odata/v4';

interface Scripted {
  status?: number;
  body: unknown;
  link?: string;
}

function scriptedFetch(script: (url: string, n: number) => Scripted) {
  const calls: { url: string; key?: string }[] = [];
  const fetch: HttpFetch = (url, init) => {
    calls.push({ url, key: init?.headers?.['x-api-key'] });
    const r = script(url, calls.length);
    const status = r.status ?? 200;
    const text = JSON.stringify(r.body);
    return Promise.resolve({
      status,
      ok: status >= 200 && status < 300,
      statusText: '',
      headers: { get: (n: string) => (n.toLowerCase() === 'link' ? (r.link ?? null) : null) },
      body: null,
      text: () => Promise.resolve(text),
      arrayBuffer: () => Promise.resolve(new TextEncoder().encode(text).buffer),
    });
  };
  return { fetch, calls };
}

function rows(from: number, n: number) {
  return Array.from({ length: n }, (_, i) => ({ Id: from + i, DOI: '10.25976/abcd-ef12' }));
}

describe('waterData pager', () => {
  it('follows @odata.nextLink up to the row limit, asking only for the rows still wanted', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch((url) => {
      const top = Number(/%24top=(\d+)/.exec(url)![1]);
      const after = Number(/Id%3A(\d+)/.exec(url)?.[1] ?? 0);
      // The documented nextLink form: raw `$`, a different host.
      return {
        body: {
          value: rows(after + 1, top),
          '@odata.nextLink': `https://api.datastream.org/v1/odata/v4/Locations?$skiptoken=Id:${after + top}&$top=${top}`,
        },
      };
    });
    const client = new WaterClient({ baseUrl: BASE, apiKey: 'k', fetch, limiter: new RateLimiter({ clock }) });
    const p = collectRows(client, `${BASE}/Locations`, { maxRows: 2500, pageSize: 1000 });
    await clock.advance(5000);
    const r = await p;
    assert.equal(r.rows.length, 2500);
    assert.equal(r.pages, 3);
    assert.ok(r.truncated);
    assert.deepEqual(
      calls.map((c) => c.url),
      [
        `${BASE}/Locations?%24top=1000`,
        `${BASE}/Locations?%24skiptoken=Id%3A1000&%24top=1000`,
        `${BASE}/Locations?%24skiptoken=Id%3A2000&%24top=500`,
      ],
    );
    assert.ok(
      calls.every((c) => c.key === 'k'),
      'the key goes in the header, re-based links keep it on our host',
    );
    assert.match(r.nextLink!, /^https:\/\/api\.example\.test\/v1\/odata\/v4\/Locations\?%24skiptoken=Id%3A2500/);
  });

  it('uses the Link header when the body has no nextLink, and stops when neither is present', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch((_url, n) =>
      n === 1
        ? { body: { value: rows(1, 2) }, link: `<${BASE}/Observations?%24skiptoken=Id%3A2&%24top=2>; rel="next"` }
        : { body: { value: rows(3, 1) } },
    );
    const client = new WaterClient({ baseUrl: BASE, apiKey: 'k', fetch, limiter: new RateLimiter({ clock }) });
    const p = collectRows(client, `${BASE}/Observations?%24top=2`, { maxRows: 100 });
    await clock.advance(2000);
    const r = await p;
    assert.equal(calls.length, 2);
    assert.deepEqual(
      r.rows.map((x) => x.Id),
      [1, 2, 3],
    );
    assert.equal(r.nextLink, undefined);
    assert.equal(r.truncated, false);
  });

  it('pages are spaced by the limiter: N pages take (N-1) × 0.5 s on the clock', async () => {
    const clock = new FakeClock();
    const times: number[] = [];
    const { fetch } = scriptedFetch((url) => {
      times.push(clock.now());
      const after = Number(/Id%3A(\d+)/.exec(url)?.[1] ?? 0);
      return {
        body: {
          value: rows(after + 1, 10),
          ...(after < 40 ? { '@odata.nextLink': `${BASE}/Records?%24skiptoken=Id%3A${after + 10}&%24top=10` } : {}),
        },
      };
    });
    const client = new WaterClient({
      baseUrl: BASE,
      apiKey: 'k',
      fetch,
      limiter: new RateLimiter({ clock, minIntervalMs: 500 }),
    });
    const p = collectRows(client, `${BASE}/Records?%24top=10`, { maxRows: 1000 });
    await clock.advance(10_000);
    const r = await p;
    assert.equal(r.rows.length, 50);
    assert.deepEqual(times, [0, 500, 1000, 1500, 2000]);
  });

  it('keeps the rows already received when a later page fails', async () => {
    const clock = new FakeClock();
    const { fetch } = scriptedFetch((_url, n) =>
      n === 1
        ? { body: { value: rows(1, 3), '@odata.nextLink': `${BASE}/Locations?%24skiptoken=Id%3A3&%24top=3` } }
        : { status: 400, body: { message: 'boom' } },
    );
    const client = new WaterClient({ baseUrl: BASE, apiKey: 'k', fetch, limiter: new RateLimiter({ clock }) });
    const p = collectRows(client, `${BASE}/Locations?%24top=3`, { maxRows: 100 });
    await clock.advance(2000);
    const r = await p;
    assert.equal(r.rows.length, 3);
    assert.equal(r.error?.kind, 'bad-request');
    assert.equal(r.nextLink, `${BASE}/Locations?%24skiptoken=Id%3A3&%24top=3`, 'resumable from the failed page');
  });

  it('halves the page size on 413 and continues', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch((url) => {
      const top = Number(/%24top=(\d+)/.exec(url)![1]);
      return top > 250 ? { status: 413, body: { message: 'too large' } } : { body: { value: rows(1, top) } };
    });
    const client = new WaterClient({ baseUrl: BASE, apiKey: 'k', fetch, limiter: new RateLimiter({ clock }) });
    const p = collectRows(client, `${BASE}/Observations`, { maxRows: 1000, pageSize: 1000 });
    await clock.advance(5000);
    const r = await p;
    assert.equal(r.rows.length, 250);
    assert.deepEqual(
      calls.map((c) => /%24top=(\d+)/.exec(c.url)![1]),
      ['1000', '500', '250'],
    );
  });

  it('refuses a nextLink that points back at the same page', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch((url) => ({ body: { value: rows(1, 1), '@odata.nextLink': url } }));
    const client = new WaterClient({ baseUrl: BASE, apiKey: 'k', fetch, limiter: new RateLimiter({ clock }) });
    const p = collectRows(client, `${BASE}/Locations?%24top=1`, { maxRows: 100 });
    await clock.advance(2000);
    await p;
    assert.equal(calls.length, 1);
  });

  it('parses Link headers with several relations', () => {
    assert.equal(parseLinkHeader('<https://x/a?p=1>; rel="prev", <https://x/a?p=3>; rel="next"'), 'https://x/a?p=3');
    assert.equal(parseLinkHeader('<https://x/a>; rel="prev"'), undefined);
  });
});

describe('waterData client error handling', () => {
  async function attempt(script: (n: number) => Scripted, advance = 60_000) {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch((_u, n) => script(n));
    const client = new WaterClient({ baseUrl: BASE, apiKey: 'k', fetch, limiter: new RateLimiter({ clock }) });
    const p = client.get(`${BASE}/Locations`).then(
      (r) => ({ ok: r }),
      (e: unknown) => {
        assert.ok(e instanceof WaterApiError, String(e));
        return { err: e };
      },
    );
    await clock.advance(advance);
    return { result: await p, calls, clock };
  }

  it('429 → waits with backoff and retries', async () => {
    const { result, calls } = await attempt((n) =>
      n < 3 ? { status: 429, body: { message: 'Too Many Requests' } } : { body: { value: [] } },
    );
    assert.ok('ok' in result);
    assert.equal(calls.length, 3);
  });

  it('403 rate limiting → retries, 403 Invalid API key → key problem at once', async () => {
    const rate = await attempt((n) =>
      n < 2 ? { status: 403, body: { message: 'Forbidden: rate limit exceeded' } } : { body: { value: [] } },
    );
    assert.ok('ok' in rate.result);
    const bad = await attempt(() => ({ status: 403, body: { message: 'Invalid API key' } }));
    assert.equal(bad.calls.length, 1);
    assert.ok('err' in bad.result && bad.result.err.keyProblem);
  });

  it('408/504 → retried once, then advice to lower $top or narrow filters', async () => {
    const once = await attempt((n) =>
      n === 1 ? { status: 504, body: { message: 'Endpoint request timed out' } } : { body: { value: [] } },
    );
    assert.ok('ok' in once.result);
    const twice = await attempt(() => ({ status: 408, body: { message: 'Request Timeout' } }));
    assert.equal(twice.calls.length, 2);
    assert.ok('err' in twice.result);
    assert.equal(twice.result.err.kind, 'timeout');
    assert.match(twice.result.err.advice, /Lower \$top/);
  });

  it('401 → key missing; 400 → the server message; 413 → advice', async () => {
    const missing = await attempt(() => ({ status: 401, body: { message: 'Missing API key' } }));
    assert.ok('err' in missing.result && missing.result.err.kind === 'key-missing');
    const bad = await attempt(() => ({
      status: 400,
      body: { errors: [{ status: '400', title: 'Bad Request', detail: "Field 'X' cannot be filtered" }] },
    }));
    assert.ok('err' in bad.result);
    assert.match(bad.result.err.message, /Field 'X' cannot be filtered/);
    const gateway = await attempt(() => ({ status: 400, body: { message: null } }));
    assert.ok('err' in gateway.result);
    assert.match(gateway.result.err.message, /unencoded/);
    const big = await attempt(() => ({ status: 413, body: {} }));
    assert.ok('err' in big.result);
    assert.match(big.result.err.advice, /Lower \$top or \$select/);
  });

  it('without a key nothing is sent', async () => {
    const { fetch, calls } = scriptedFetch(() => ({ body: { value: [] } }));
    const client = new WaterClient({ baseUrl: BASE, apiKey: undefined, fetch });
    await assert.rejects(client.get(`${BASE}/Locations`), (e: { kind: string }) => e.kind === 'key-missing');
    assert.equal(calls.length, 0);
  });
});
