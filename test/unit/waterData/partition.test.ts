import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { WaterClient } from '../../../src/waterData/core/client';
import { andFilter, countOf, planPartitions } from '../../../src/waterData/core/partition';
import { RateLimiter } from '../../../src/waterData/core/rateLimiter';
import { streamCsv, streamRows, writableSink } from '../../../src/waterData/core/stream';
import { startWaterEmulator, type TestServer } from './emulatorServer';

describe('waterData partitioning and streaming', () => {
  let s: TestServer;
  let client: WaterClient;
  before(async () => {
    s = await startWaterEmulator({ minIntervalMs: 0 });
    client = new WaterClient({ baseUrl: s.baseUrl, apiKey: s.apiKey, limiter: new RateLimiter({ minIntervalMs: 0 }) });
  });
  after(() => s.close());

  it("wraps the user's filter in parentheses (the official clients' `or` bug)", () => {
    assert.equal(
      andFilter('LocationId eq 5', "DOI eq 'a' or DOI eq 'b'"),
      "LocationId eq 5 and (DOI eq 'a' or DOI eq 'b')",
    );
    assert.equal(andFilter('LocationId eq 5', undefined), 'LocationId eq 5');
  });

  it('does not partition a query under the threshold', async () => {
    const parts = await planPartitions(client, 'Records', "RegionId eq 'hub.atlantic'", { threshold: 1_000_000 });
    assert.equal(parts.length, 1);
    assert.equal(parts[0].filter, "RegionId eq 'hub.atlantic'");
  });

  it('splits by location into partitions under the threshold that together hold every row once', async () => {
    const filter = "RegionId eq 'hub.atlantic' or CharacteristicName eq 'pH'";
    const total = (await countOf(client, 'Records', filter)).value;
    assert.ok(total > 8000, `enough rows to split (${total})`);
    const parts = await planPartitions(client, 'Records', filter, { threshold: 4000 });
    assert.ok(parts.length >= Math.ceil(total / 4000));
    for (const p of parts) {
      assert.ok(p.count! <= 4000);
      assert.match(
        p.filter!,
        /^LocationId (eq \d+|in \([\d, ]+\)) and \(RegionId eq 'hub\.atlantic' or CharacteristicName eq 'pH'\)$/,
      );
    }
    assert.equal(
      parts.reduce((n, p) => n + p.count!, 0),
      total,
    );

    const seen = new Set<number>();
    const summary = await streamRows(
      client,
      { entitySet: 'Records', filter, select: ['Id', 'DOI'] },
      (rows) => {
        for (const r of rows) {
          assert.ok(!seen.has(r.Id as number), `row ${String(r.Id)} once`);
          seen.add(r.Id as number);
        }
      },
      { partitionThreshold: 4000, pageSize: 2000 },
    );
    assert.equal(seen.size, total);
    assert.equal(summary.partitions, parts.length);
    assert.ok(summary.dois.length > 0);
  });

  it('splits one location by ActivityStartYear when it alone is over the threshold', async () => {
    const loc = await client.get(`${s.baseUrl}/Locations?%24top=1&%24select=Id`);
    const id = (loc.body as { value: { Id: number }[] }).value[0].Id;
    const filter = `LocationId eq ${id}`;
    const total = (await countOf(client, 'Observations', filter)).value;
    const threshold = Math.max(10, Math.floor(total / 5));
    const parts = await planPartitions(client, 'Observations', filter, { threshold });
    assert.ok(parts.length > 1);
    for (const p of parts) assert.match(p.filter!, /ActivityStartYear (gte|lt) '\d{4}'.* and \(LocationId eq \d+\)$/);
    assert.equal(
      parts.reduce((n, p) => n + p.count!, 0),
      total,
    );
  });

  it('streams CSV with a header, quoting and one line per row', async () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _e, cb) {
        out += String(chunk);
        cb();
      },
    });
    const summary = await streamCsv(
      client,
      { entitySet: 'Records', select: ['Id', 'MonitoringLocationName', 'CharacteristicName', 'ResultValue'] },
      writableSink(sink),
      { maxRows: 2500, partition: false, pageSize: 1000 },
    );
    const lines = out.trimEnd().split('\r\n');
    assert.equal(lines[0], 'Id,MonitoringLocationName,CharacteristicName,ResultValue');
    assert.equal(lines.length, 2501);
    assert.equal(summary.pages, 3);
    assert.ok(
      lines.some((l) => /"Temperature, water"/.test(l)),
      'values with commas are quoted',
    );
  });
});

describe('waterData CSV fields', () => {
  it('quotes, escapes, keeps numbers and neutralises formulas', async () => {
    const { csvLine } = await import('../../../src/waterData/core/csv');
    assert.equal(
      csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 3.5, -2, '-0.25', '=SUM(A1)', ['x', 'y']]),
      'a,"b,c","say ""hi""","two\nlines",,3.5,-2,-0.25,\'=SUM(A1),x; y\r\n',
    );
  });
});
