import * as assert from 'node:assert/strict';
import { startWaterEmulator, type TestServer } from './emulatorServer';
import {
  WATER_SELECT_FIELDS,
  type WaterAppError,
  type WaterCountBody,
  type WaterPage,
} from '../../../src/shared/wire/waterData';
import { parseAs } from '../../support/typedJson';
import type { LocationRow, MetadataRow } from './wireRows';
import { FrontEnd } from '../../../src/sandbox/waterData/frontEnd';

/** `Body` names the answer the request asks for. */
async function get<Body = unknown>(s: TestServer, path: string, key: string | null = s.apiKey) {
  const r = await fetch(s.baseUrl + path, { headers: key === null ? {} : { 'x-api-key': key } });
  const text = await r.text();
  return { status: r.status, body: parseAs<Body>(text), link: r.headers.get('link') };
}
const enc = (s: string) => encodeURIComponent(s).replace(/'/g, '%27').replace(/\(/g, '%28').replace(/\)/g, '%29');
const q = (params: Record<string, string>) =>
  '?' +
  Object.entries(params)
    .map(([k, v]) => `%24${k.slice(1)}=${enc(v)}`)
    .join('&');

describe('waterData emulator: conformance', () => {
  let s: TestServer;
  before(async () => {
    s = await startWaterEmulator({ minIntervalMs: 0 });
  });
  after(() => s.close());

  it('requires x-api-key: 401 missing, 403 invalid (the documented bodies)', async () => {
    assert.deepEqual(await get(s, '/Locations', null), {
      status: 401,
      body: { message: 'Missing API key' },
      link: null,
    });
    assert.deepEqual(await get(s, '/Locations', 'wrong'), {
      status: 403,
      body: { message: 'Invalid API key' },
      link: null,
    });
  });

  it('rejects an unencoded $ with 400 {"message":null}', async () => {
    const r = await get(s, '/Locations?$top=5');
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: null });
  });

  it('defaults to 10 rows and returns every Locations column with the documented types', async () => {
    const r = await get<WaterPage<LocationRow>>(s, '/Locations');
    assert.equal(r.status, 200);
    assert.equal(r.body.value.length, 10);
    const row = r.body.value[0];
    assert.deepEqual(Object.keys(row), [...WATER_SELECT_FIELDS.Locations]);
    assert.equal(typeof row.Id, 'number');
    assert.equal(typeof row.Latitude, 'number');
    assert.match(row.DOI, /^10\.(25976|81029)\/[a-z0-9]{4}-[a-z0-9]{2}[0-9]{2}$/);
  });

  it('$top, $select and paging by @odata.nextLink and Link header cover every row exactly once', async () => {
    const first = await get<WaterPage<LocationRow>>(s, '/Locations' + q({ $top: '7', $select: 'Id,Name' }));
    assert.equal(first.body.value.length, 7);
    assert.deepEqual(Object.keys(first.body.value[0]), ['Id', 'Name']);
    const next = first.body['@odata.nextLink'] as string;
    assert.match(next, /\/Locations\?%24skiptoken=Id%3A\d+&%24top=7&%24select=Id%2CName$/);
    assert.equal(first.link, `<${next}>; rel="next"`);
    const all = await get<WaterPage<LocationRow>>(s, '/Locations' + q({ $top: '10000', $select: 'Id' }));
    const ids: number[] = [];
    let url: string | undefined = s.baseUrl + '/Locations' + q({ $top: '97', $select: 'Id' });
    while (url) {
      const r = await fetch(url, { headers: { 'x-api-key': s.apiKey } });
      const b = (await r.json()) as { value: { Id: number }[]; '@odata.nextLink'?: string };
      ids.push(...b.value.map((x) => x.Id));
      url = b['@odata.nextLink'];
    }
    assert.deepEqual(
      ids,
      all.body.value.map((x: { Id: number }) => x.Id),
    );
    assert.ok(
      ids.every((id, i) => i === 0 || id > ids[i - 1]),
      'ascending Id order',
    );
  });

  it('$filter basics: eq, in, and/or, bounding box, RegionId', async () => {
    const atl = await get<WaterPage<LocationRow>>(
      s,
      '/Locations' + q({ $filter: "RegionId eq 'hub.atlantic'", $top: '10000' }),
    );
    assert.ok(atl.body.value.length > 0);
    for (const l of atl.body.value) assert.ok(l.Longitude > -70 && l.Latitude < 52, 'atlantic provinces');
    const box = await get<WaterPage<LocationRow>>(
      s,
      '/Locations' +
        q({
          $filter: "Longitude gt '-102.01' and Longitude lt '-88.99' and Latitude gt '49' and Latitude lt '60'",
          $top: '10000',
        }),
    );
    for (const l of box.body.value)
      assert.ok(l.Longitude > -102.01 && l.Longitude < -88.99 && l.Latitude > 49 && l.Latitude < 60);
    assert.ok(box.body.value.length > 0);
    const one = atl.body.value[0];
    const byDoi = await get<WaterPage<LocationRow>>(
      s,
      '/Locations' + q({ $filter: `DOI in ('${one.DOI}', '10.25976/zzzz-zz99') and (Id eq ${one.Id} or Id eq '1')` }),
    );
    assert.deepEqual(
      byDoi.body.value.map((l: { Id: number }) => l.Id),
      [one.Id],
    );
  });

  it('$count=true returns only the count, consistent with paging', async () => {
    const c = await get<WaterCountBody & { '@odata.nextLink'?: string }>(
      s,
      '/Locations' + q({ $filter: "RegionId eq 'hub.pacific'", $count: 'true' }),
    );
    const rows = await get<WaterPage<LocationRow>>(
      s,
      '/Locations' + q({ $filter: "RegionId eq 'hub.pacific'", $top: '10000' }),
    );
    assert.equal(c.body.value, rows.body.value.length);
    assert.equal(c.body['@odata.nextLink'], undefined);
  });

  it('$top above 10000 and unknown fields are rejected with an errors body', async () => {
    const top = await get<WaterAppError>(s, '/Locations' + q({ $top: '10001' }));
    assert.equal(top.status, 400);
    assert.match(top.body.errors[0].detail, /maximum of 10000/);
    const sel = await get(s, '/Locations' + q({ $select: 'Colour' }));
    assert.equal(sel.status, 400);
    const fil = await get(s, '/Records' + q({ $filter: "Name eq 'x'" }));
    assert.equal(fil.status, 400);
  });

  it('Metadata carries licence, citation with a DOI link, and pages by UUID', async () => {
    const m = await get<WaterPage<MetadataRow>>(s, '/Metadata' + q({ $top: '2' }));
    assert.equal(m.body.value.length, 2);
    for (const d of m.body.value) {
      assert.match(d.Id, /^[0-9a-f-]{36}$/);
      assert.ok(d.Citation.endsWith(`https://doi.org/${d.DOI}.`));
      assert.match(d.Licence, /^https:\/\//);
      assert.ok(Array.isArray(d.Keywords) && Array.isArray(d.TopicCategoryCode) && d.TemporalExtent.length === 2);
    }
    assert.match(m.body['@odata.nextLink'] ?? '', /%24skiptoken=Id%3A[0-9a-f-]{36}&/);
  });

  it('is deterministic across instances', async () => {
    const other = await startWaterEmulator({ minIntervalMs: 0 });
    try {
      const a = await get<WaterPage>(s, '/Observations' + q({ $top: '50' }));
      const b = await get<WaterPage>(other, '/Observations' + q({ $top: '50' }));
      assert.deepEqual(a.body.value, b.body.value);
    } finally {
      await other.close();
    }
  });
});

describe('waterData emulator: rate limit', () => {
  it("strict (burst 1): refuses a second request within 500 ms with the front end's bare body, 429 when configured", async () => {
    for (const status of [403, 429] as const) {
      const s = await startWaterEmulator({ rateLimitStatus: status, burst: 1 });
      try {
        assert.equal((await get(s, '/Locations' + q({ $top: '1' }))).status, 200);
        const fast = await get(s, '/Locations' + q({ $top: '1' }));
        assert.deepEqual([fast.status, fast.body], [status, { message: null }]);
        await new Promise((r) => setTimeout(r, 520));
        assert.equal((await get(s, '/Locations' + q({ $top: '1' }))).status, 200);
      } finally {
        await s.close();
      }
    }
  });

  it('default: a small burst passes, then 2 per second; a refusal does not restart the window', async () => {
    const s = await startWaterEmulator({});
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(s, '/Locations' + q({ $top: '1' }))).status);
      assert.deepEqual(statuses, [200, 200, 403]);
      // The refused third request did not cost a token: one token is back 500 ms after the second.
      await new Promise((r) => setTimeout(r, 520));
      assert.equal((await get(s, '/Locations' + q({ $top: '1' }))).status, 200);
    } finally {
      await s.close();
    }
  });

  it('limits per API key: another key is not slowed by the first', async () => {
    const s = await startWaterEmulator({ burst: 1, extraApiKeys: ['second-key'] });
    try {
      assert.equal((await get(s, '/Locations' + q({ $top: '1' }))).status, 200);
      assert.equal((await get(s, '/Locations' + q({ $top: '1' }), 'second-key')).status, 200);
      assert.equal((await get(s, '/Locations' + q({ $top: '1' }))).status, 403);
    } finally {
      await s.close();
    }
  });

  it('answers 403 to parallel requests', async () => {
    const s = await startWaterEmulator({ minIntervalMs: 1 });
    try {
      const both = await Promise.all([
        get(s, '/Observations' + q({ $top: '3000' })),
        get(s, '/Observations' + q({ $top: '3000' })),
      ]);
      assert.deepEqual(both.map((r) => r.status).sort(), [200, 403]);
    } finally {
      await s.close();
    }
  });
});

describe('waterData emulator: front end token bucket (server clock)', () => {
  it('requests spaced exactly 500 ms apart always pass, even strictly; 499 ms fails only when strict', () => {
    let t = 0;
    const strict = new FrontEnd({ intervalMs: 500, burst: 1, now: () => t });
    const tolerant = new FrontEnd({ intervalMs: 500, burst: 2, now: () => t });
    for (let i = 0; i < 20; i++) {
      const a = strict.admit('k');
      const b = tolerant.admit('k');
      assert.ok(a && b, `request ${i} at ${t} ms`);
      a();
      b();
      t += 500;
    }
    t -= 1;
    assert.equal(strict.admit('k'), undefined);
    assert.ok(tolerant.admit('k'));
  });

  it('holds the long-run rate at 2 per second whatever the burst', () => {
    let t = 0;
    const fe = new FrontEnd({ intervalMs: 500, burst: 3, now: () => t });
    let admitted = 0;
    for (; t < 10_000; t += 10) {
      const r = fe.admit('k');
      if (r) {
        admitted++;
        r();
      }
    }
    assert.ok(admitted <= 3 + 20 && admitted >= 20, `${admitted} in 10 s`);
  });

  it('forgets the least recently seen keys beyond its bound', () => {
    let t = 0;
    const fe = new FrontEnd({ intervalMs: 500, burst: 1, now: () => t });
    fe.admit('first')?.();
    for (let i = 0; i < 10_001; i++) fe.admit(`k${i}`)?.();
    t += 1;
    assert.ok(fe.admit('first'), 'evicted, so it starts with a full bucket again');
  });
});
