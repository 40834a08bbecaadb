import * as assert from 'node:assert/strict';
import { startWaterEmulator, type TestServer } from './emulatorServer';
import {
  WATER_SELECT_FIELDS,
  type WaterAppError,
  type WaterCountBody,
  type WaterPage,
} from '../../../src/shared/wire/waterData';
import { parseAs } from '../../support/typedJson';
import type { LocationRow, MetadataRow, ObservationRow } from './wireRows';

/** `Body` names the answer the request asks for. */
async function get<Body = unknown>(s: TestServer, path: string) {
  const r = await fetch(s.baseUrl + path, { headers: { 'x-api-key': s.apiKey } });
  return { status: r.status, body: parseAs<Body>(await r.text()), link: r.headers.get('link') };
}
const enc = (s: string) => encodeURIComponent(s).replace(/'/g, '%27').replace(/\(/g, '%28').replace(/\)/g, '%29');
const filter = (f: string, extra = '') => `?%24filter=${enc(f)}${extra}`;

describe('waterData emulator: full query semantics', () => {
  let s: TestServer;
  before(async () => {
    s = await startWaterEmulator({ minIntervalMs: 0, latencyMs: 0 });
  });
  after(() => s.close());

  it('every comparison operator (and ge/le spellings) on ActivityStartYear agrees with the rows', async () => {
    const loc = (await get<WaterPage<LocationRow>>(s, '/Locations?%24top=1')).body.value[0].Id;
    const rows = (
      await get<WaterPage<ObservationRow>>(
        s,
        `/Observations${filter(`LocationId eq ${loc}`, '&%24top=10000&%24select=Id%2CActivityStartDate')}`,
      )
    ).body.value;
    const years = rows.map((r) => Number(r.ActivityStartDate.slice(0, 4)));
    const y = years[Math.floor(years.length / 2)];
    const cases: [string, (v: number) => boolean][] = [
      ['eq', (v) => v === y],
      ['ne', (v) => v !== y],
      ['lt', (v) => v < y],
      ['gt', (v) => v > y],
      ['lte', (v) => v <= y],
      ['gte', (v) => v >= y],
      ['le', (v) => v <= y],
      ['ge', (v) => v >= y],
    ];
    for (const [op, pred] of cases) {
      const got = (
        await get<WaterCountBody>(
          s,
          `/Observations${filter(`LocationId eq ${loc} and ActivityStartYear ${op} '${y}'`, '&%24count=true')}`,
        )
      ).body.value;
      assert.equal(got, years.filter(pred).length, op);
    }
  });

  it('in lists, or, parentheses, endswith on DOI', async () => {
    const md = (await get<WaterPage<MetadataRow>>(s, '/Metadata?%24top=3&%24select=DOI')).body.value.map((d) => d.DOI);
    const inList = (
      await get<WaterPage<MetadataRow>>(s, `/Metadata${filter(`DOI in ('${md[0]}', '${md[1]}')`, '&%24select=DOI')}`)
    ).body.value.map((d) => d.DOI);
    assert.deepEqual(inList.sort(), [md[0], md[1]].sort());
    const ends = (
      await get<WaterPage<MetadataRow>>(
        s,
        `/Metadata${filter(`endswith(DOI, '${md[2].slice(-4)}')`, '&%24select=DOI')}`,
      )
    ).body.value.map((d) => d.DOI);
    assert.ok(ends.includes(md[2]) && ends.every((d) => d.endsWith(md[2].slice(-4))));
    const a = (
      await get<WaterCountBody>(
        s,
        `/Locations${filter(`(DOI eq '${md[0]}' or DOI eq '${md[1]}') and MonitoringLocationType eq 'River/Stream'`, '&%24count=true')}`,
      )
    ).body.value;
    const b1 = (
      await get<WaterCountBody>(
        s,
        `/Locations${filter(`DOI eq '${md[0]}' and MonitoringLocationType eq 'River/Stream'`, '&%24count=true')}`,
      )
    ).body.value;
    const b2 = (
      await get<WaterCountBody>(
        s,
        `/Locations${filter(`DOI eq '${md[1]}' and MonitoringLocationType eq 'River/Stream'`, '&%24count=true')}`,
      )
    ).body.value;
    assert.equal(a, b1 + b2);
  });

  it('Metadata filters by location-level fields (datasets having such locations)', async () => {
    const hubs = (
      await get<WaterPage<MetadataRow>>(
        s,
        `/Metadata${filter("RegionId in ('hub.mackenzie', 'hub.lakewinnipeg')", '&%24select=DOI%2CDatasetName%2CLicence%2CCitation%2CVersion')}`,
      )
    ).body.value;
    assert.ok(hubs.length > 0);
    assert.ok(hubs.every((d) => /\((Alberta|Northwest Territories|Saskatchewan|Manitoba)\)$/.test(d.DatasetName)));
  });

  it('Records: 44 columns, flattened location, @data.context', async () => {
    const r = await get<WaterPage>(s, '/Records?%24top=2');
    assert.equal(r.body['@data.context'], 'odata/v4/Records/$links/Metadata(Id=@DatasetId)');
    assert.deepEqual(Object.keys(r.body.value[0]), [...WATER_SELECT_FIELDS.Records]);
    assert.equal(Object.keys(r.body.value[0]).length, 44);
    assert.ok(!('LocationId' in r.body.value[0]));
  });

  it('observations use the vocabularies and characteristic → unit lookups', async () => {
    const rows = (await get<WaterPage>(s, '/Observations?%24top=2000')).body.value;
    const units: Record<string, string | null> = {
      'Temperature, water': 'deg C',
      pH: null,
      'Dissolved oxygen (DO)': 'mg/L',
      'Specific conductance': 'uS/cm',
    };
    for (const r of rows) {
      if ((r.CharacteristicName as string) in units) assert.equal(r.ResultUnit, units[r.CharacteristicName as string]);
      assert.ok(['Surface Water', 'Groundwater'].includes(r.ActivityMediaName as string));
      assert.match(r.ActivityStartDate as string, /^\d{4}-\d{2}-\d{2}$/);
      assert.match(r.ActivityStartTime as string, /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    }
    const phRows = (
      await get<WaterPage<ObservationRow>>(
        s,
        `/Observations${filter("CharacteristicName eq 'pH'", '&%24top=2000&%24select=ResultValue%2CResultUnit')}`,
      )
    ).body.value;
    assert.ok(
      phRows.every((r) => r.ResultUnit === null),
      'pH has no unit',
    );
    const ph = phRows.filter((r) => r.ResultValue !== null).map((r) => r.ResultValue as number);
    assert.ok(ph.length && ph.every((v) => v >= 0 && v <= 14), 'pH within the quality-control range');
  });

  it('rejects $orderby/$skip (removed) and a malformed filter with 400', async () => {
    assert.equal((await get(s, '/Locations?%24orderby=Name')).status, 400);
    assert.equal((await get(s, '/Locations?%24skip=5')).status, 400);
    const bad = await get<WaterAppError>(s, `/Locations${filter("RegionId eq 'x' and")}`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0].detail, /Malformed \$filter/);
    assert.equal((await get(s, '/Nope')).status, 404);
  });
});

describe('waterData emulator: limits', () => {
  it('413 when a response would exceed the size cap', async () => {
    const s = await startWaterEmulator({ minIntervalMs: 0, maxResponseBytes: 50_000 });
    try {
      const big = await get<WaterAppError>(s, '/Observations?%24top=1000');
      assert.equal(big.status, 413);
      assert.match(big.body.errors[0].detail, /lower \$top or \$select fewer fields/);
      assert.equal((await get(s, '/Observations?%24top=1000&%24select=Id')).status, 200);
    } finally {
      await s.close();
    }
  });

  it('504 (or 408) when a query needs more work than the budget', async () => {
    for (const status of [504, 408] as const) {
      const s = await startWaterEmulator({ minIntervalMs: 0, maxScanRows: 5000, timeoutStatus: status });
      try {
        const slow = await get(s, `/Observations${filter("CharacteristicName eq 'pH'", '&%24count=true')}`);
        assert.equal(slow.status, status);
        assert.equal((await get(s, '/Locations?%24top=5')).status, 200);
      } finally {
        await s.close();
      }
    }
  });

  it('volume mode: millions of rows generated on demand, estimated counts, deep paging', async () => {
    const before = process.memoryUsage().heapUsed;
    const s = await startWaterEmulator({ minIntervalMs: 0, observations: 3_000_000 });
    try {
      const c = await get<WaterCountBody>(s, '/Observations?%24count=true');
      assert.ok(c.body.value > 2_500_000 && c.body.value < 3_500_000, String(c.body.value));
      assert.equal(c.body['@odata.count.estimate'], true);
      const loc = (await get<WaterPage<LocationRow>>(s, '/Locations?%24top=1&%24skiptoken=Id%3A3300000&%24select=Id'))
        .body.value[0].Id;
      const page = await get<WaterPage<ObservationRow>>(s, `/Records${filter(`LocationId eq ${loc}`, '&%24top=3')}`);
      assert.equal(page.body.value.length, 3);
      const deep = await get<WaterPage<ObservationRow>>(
        s,
        `/Observations?%24top=2&%24skiptoken=Id%3A${page.body.value[2].Id}`,
      );
      assert.equal(deep.body.value[0].Id, page.body.value[2].Id + 1);
      assert.ok(process.memoryUsage().heapUsed - before < 100 * 1024 * 1024, 'rows are not held in memory');
    } finally {
      await s.close();
    }
  });
});
