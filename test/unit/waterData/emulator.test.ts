import * as assert from 'node:assert/strict';
import { startWaterEmulator, type TestServer } from './emulatorServer';
import { WATER_SELECT_FIELDS } from '../../../src/shared/wire/waterData';

async function get(s: TestServer, path: string, key: string | null = s.apiKey) {
  const r = await fetch(s.baseUrl + path, { headers: key === null ? {} : { 'x-api-key': key } });
  const text = await r.text();
  return { status: r.status, body: JSON.parse(text), link: r.headers.get('link') };
}
const enc = (s: string) => encodeURIComponent(s).replace(/'/g, '%27').replace(/\(/g, '%28').replace(/\)/g, '%29');
const q = (params: Record<string, string>) => '?' + Object.entries(params).map(([k, v]) => `%24${k.slice(1)}=${enc(v)}`).join('&');

describe('waterData emulator: conformance', () => {
  let s: TestServer;
  before(async () => {
    s = await startWaterEmulator({ minIntervalMs: 0 });
  });
  after(() => s.close());

  it('requires x-api-key: 401 missing, 403 invalid (the documented bodies)', async () => {
    assert.deepEqual(await get(s, '/Locations', null), { status: 401, body: { message: 'Missing API key' }, link: null });
    assert.deepEqual(await get(s, '/Locations', 'wrong'), { status: 403, body: { message: 'Invalid API key' }, link: null });
  });

  it('rejects an unencoded $ with 400 {"message":null}', async () => {
    const r = await get(s, '/Locations?$top=5');
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: null });
  });

  it('defaults to 10 rows and returns every Locations column with the documented types', async () => {
    const r = await get(s, '/Locations');
    assert.equal(r.status, 200);
    assert.equal(r.body.value.length, 10);
    const row = r.body.value[0];
    assert.deepEqual(Object.keys(row), [...WATER_SELECT_FIELDS.Locations]);
    assert.equal(typeof row.Id, 'number');
    assert.equal(typeof row.Latitude, 'number');
    assert.match(row.DOI, /^10\.(25976|81029)\/[a-z0-9]{4}-[a-z0-9]{2}[0-9]{2}$/);
  });

  it('$top, $select and paging by @odata.nextLink and Link header cover every row exactly once', async () => {
    const first = await get(s, '/Locations' + q({ $top: '7', $select: 'Id,Name' }));
    assert.equal(first.body.value.length, 7);
    assert.deepEqual(Object.keys(first.body.value[0]), ['Id', 'Name']);
    const next = first.body['@odata.nextLink'] as string;
    assert.match(next, /\/Locations\?%24skiptoken=Id%3A\d+&%24top=7&%24select=Id%2CName$/);
    assert.equal(first.link, `<${next}>; rel="next"`);
    const all = await get(s, '/Locations' + q({ $top: '10000', $select: 'Id' }));
    const ids: number[] = [];
    let url: string | undefined = s.baseUrl + '/Locations' + q({ $top: '97', $select: 'Id' });
    while (url) {
      const r = await fetch(url, { headers: { 'x-api-key': s.apiKey } });
      const b = (await r.json()) as { value: { Id: number }[]; '@odata.nextLink'?: string };
      ids.push(...b.value.map((x) => x.Id));
      url = b['@odata.nextLink'];
    }
    assert.deepEqual(ids, all.body.value.map((x: { Id: number }) => x.Id));
    assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]), 'ascending Id order');
  });

  it('$filter basics: eq, in, and/or, bounding box, RegionId', async () => {
    const atl = await get(s, '/Locations' + q({ $filter: "RegionId eq 'hub.atlantic'", $top: '10000' }));
    assert.ok(atl.body.value.length > 0);
    for (const l of atl.body.value) assert.ok(l.Longitude > -70 && l.Latitude < 52, 'atlantic provinces');
    const box = await get(s, '/Locations' + q({ $filter: "Longitude gt '-102.01' and Longitude lt '-88.99' and Latitude gt '49' and Latitude lt '60'", $top: '10000' }));
    for (const l of box.body.value) assert.ok(l.Longitude > -102.01 && l.Longitude < -88.99 && l.Latitude > 49 && l.Latitude < 60);
    assert.ok(box.body.value.length > 0);
    const one = atl.body.value[0];
    const byDoi = await get(s, '/Locations' + q({ $filter: `DOI in ('${one.DOI}', '10.25976/zzzz-zz99') and (Id eq ${one.Id} or Id eq '1')` }));
    assert.deepEqual(byDoi.body.value.map((l: { Id: number }) => l.Id), [one.Id]);
  });

  it('$count=true returns only the count, consistent with paging', async () => {
    const c = await get(s, '/Locations' + q({ $filter: "RegionId eq 'hub.pacific'", $count: 'true' }));
    const rows = await get(s, '/Locations' + q({ $filter: "RegionId eq 'hub.pacific'", $top: '10000' }));
    assert.equal(c.body.value, rows.body.value.length);
    assert.equal(c.body['@odata.nextLink'], undefined);
  });

  it('$top above 10000 and unknown fields are rejected with an errors body', async () => {
    const top = await get(s, '/Locations' + q({ $top: '10001' }));
    assert.equal(top.status, 400);
    assert.match(top.body.errors[0].detail, /maximum of 10000/);
    const sel = await get(s, '/Locations' + q({ $select: 'Colour' }));
    assert.equal(sel.status, 400);
    const fil = await get(s, '/Records' + q({ $filter: "Name eq 'x'" }));
    assert.equal(fil.status, 400);
  });

  it('Metadata carries licence, citation with a DOI link, and pages by UUID', async () => {
    const m = await get(s, '/Metadata' + q({ $top: '2' }));
    assert.equal(m.body.value.length, 2);
    for (const d of m.body.value) {
      assert.match(d.Id, /^[0-9a-f-]{36}$/);
      assert.ok(d.Citation.endsWith(`https://doi.org/${d.DOI}.`));
      assert.match(d.Licence, /^https:\/\//);
      assert.ok(Array.isArray(d.Keywords) && Array.isArray(d.TopicCategoryCode) && d.TemporalExtent.length === 2);
    }
    assert.match(m.body['@odata.nextLink'], /%24skiptoken=Id%3A[0-9a-f-]{36}&/);
  });

  it('is deterministic across instances', async () => {
    const other = await startWaterEmulator({ minIntervalMs: 0 });
    try {
      const a = await get(s, '/Observations' + q({ $top: '50' }));
      const b = await get(other, '/Observations' + q({ $top: '50' }));
      assert.deepEqual(a.body.value, b.body.value);
    } finally {
      await other.close();
    }
  });
});

describe('waterData emulator: rate limit', () => {
  it('answers 403 to a second request within 500 ms, and 429 when configured', async () => {
    for (const status of [403, 429] as const) {
      const s = await startWaterEmulator({ rateLimitStatus: status });
      try {
        assert.equal((await get(s, '/Locations' + q({ $top: '1' }))).status, 200);
        const fast = await get(s, '/Locations' + q({ $top: '1' }));
        assert.equal(fast.status, status);
        await new Promise((r) => setTimeout(r, 520));
        assert.equal((await get(s, '/Locations' + q({ $top: '1' }))).status, 200);
      } finally {
        await s.close();
      }
    }
  });

  it('answers 403 to parallel requests', async () => {
    const s = await startWaterEmulator({ minIntervalMs: 1 });
    try {
      const both = await Promise.all([get(s, '/Observations' + q({ $top: '3000' })), get(s, '/Observations' + q({ $top: '3000' }))]);
      assert.deepEqual(both.map((r) => r.status).sort(), [200, 403]);
    } finally {
      await s.close();
    }
  });
});
