// DataStream's official clients' paging, re-enacted against a fresh sandbox: the JS client follows only the
// `Link` header, the Python/R/shell clients `@odata.nextLink`; all wait 0.5 s between sequential requests,
// and large Observations queries are partitioned by listing `/Locations?$select=Id&$filter=<filter>` first,
// then asking per location with `LocationId eq <Id> and (<filter>)`. The sandbox must never refuse them.
import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

const SPACING_MS = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Page {
  value: Record<string, unknown>[];
  '@odata.nextLink'?: string;
}

/** One official-client session: sequential requests, `spacing` after each response, every status recorded. */
class OfficialClient {
  readonly statuses: number[] = [];
  readonly starts: number[] = [];

  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly follow: 'link-header' | 'next-link',
  ) {}

  url(set: string, params: Record<string, string>): string {
    const u = new URL(`${this.base}/${set}`);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  }

  private async get(url: string): Promise<{ body: Page; next?: string }> {
    if (this.starts.length) await sleep(SPACING_MS);
    this.starts.push(Date.now());
    const r = await fetch(url, { headers: { 'x-api-key': this.key, accept: 'application/vnd.api+json' } });
    this.statuses.push(r.status);
    const body = (await r.json()) as Page;
    assert.equal(r.status, 200, `${url} → ${r.status} ${JSON.stringify(body)}`);
    const link = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get('link') ?? '')?.[1];
    return { body, next: this.follow === 'link-header' ? link : body['@odata.nextLink'] };
  }

  async all(set: string, params: Record<string, string>): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    let url: string | undefined = this.url(set, params);
    while (url) {
      const page = await this.get(url);
      rows.push(...page.body.value);
      url = page.next;
    }
    return rows;
  }

  async count(set: string, filter: string): Promise<number> {
    const page = await this.get(this.url(set, { $filter: filter, $count: 'true' }));
    return Number((page.body as unknown as { value: unknown }).value);
  }
}

describe('peer: DataStream official-client paging against the sandbox', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(async () => sandbox.close());
  // Each test is a new script run with the same key: like a user starting it a moment later, it begins once
  // the key's bucket has refilled (a script started right after another one may be refused, as by the service).
  beforeEach(async () => sleep(1000));

  it('JS client: Link header only, 0.5 s apart — every page, no refusal', async () => {
    const c = new OfficialClient(sandbox.waterData, sandbox.apiKey, 'link-header');
    const rows = await c.all('Locations', { $select: 'Id,DOI', $top: '100' });
    const total = await c.count('Locations', 'Id gt 0');
    assert.equal(rows.length, total);
    assert.equal(new Set(rows.map((r) => r.Id)).size, rows.length);
    assert.ok(c.statuses.length >= 5 && c.statuses.every((s) => s === 200));
  });

  it('Python/R clients: @odata.nextLink until absent, 0.5 s apart', async () => {
    const c = new OfficialClient(sandbox.waterData, sandbox.apiKey, 'next-link');
    const rows = await c.all('Metadata', { $select: 'DOI,DatasetName,Licence,Citation,Version', $top: '5' });
    assert.equal(rows.length, 24);
    assert.ok(c.statuses.every((s) => s === 200));
  });

  it('partitions Observations by location like the clients, and the parts add up to the whole', async () => {
    const c = new OfficialClient(sandbox.waterData, sandbox.apiKey, 'next-link');
    const [dataset] = await c.all('Metadata', { $select: 'DOI', $top: '1' }).then((r) => r.slice(0, 1));
    const filter = `DOI eq '${String(dataset.DOI)}' and CharacteristicName eq 'Temperature, water'`;
    const locations = await c.all('Locations', { $select: 'Id', $filter: filter, $top: '10000' });
    assert.ok(locations.length >= 2, `${locations.length} locations`);
    const ids = new Set<unknown>();
    for (const l of locations) {
      const part = await c.all('Observations', {
        $select: 'Id,LocationId',
        $filter: `LocationId eq ${String(l.Id)} and (${filter})`,
        $top: '10000',
      });
      for (const o of part) {
        assert.equal(o.LocationId, l.Id);
        ids.add(o.Id);
      }
    }
    assert.equal(ids.size, await c.count('Observations', filter));
    assert.ok(c.statuses.every((s) => s === 200));
  });
});
