import * as assert from 'node:assert/strict';
import { AttributionCache } from '../../../src/waterData/core/attribution';
import { WaterClient } from '../../../src/waterData/core/client';
import { RateLimiter } from '../../../src/waterData/core/rateLimiter';
import { continueResult, loadMoreRows, runQuery } from '../../../src/waterData/core/run';
import { summarizeResult } from '../../../src/waterData/core/summary';
import { analyzeQuery } from '../../../src/waterData/core/validate';
import { startWaterEmulator, type TestServer } from './emulatorServer';

describe('waterData runQuery against the emulator', () => {
  let s: TestServer;
  let client: WaterClient;
  const limiter = new RateLimiter({ minIntervalMs: 0 });
  before(async () => {
    s = await startWaterEmulator({ minIntervalMs: 0 });
    client = new WaterClient({ baseUrl: s.baseUrl, apiKey: s.apiKey, limiter });
  });
  after(() => s.close());

  const run = (text: string, rowLimit = 10000) =>
    runQuery(analyzeQuery(text), { client, attributions: new AttributionCache(), rowLimit });

  it('/Locations?$top=5 → 5 rows, more available, every dataset cited', async () => {
    const r = await run('/Locations?$top=5');
    assert.equal(r.rows.length, 5);
    assert.equal(r.pages, 1);
    assert.ok(r.nextLink);
    const dois = new Set(r.rows.map((x) => x.DOI));
    assert.deepEqual(new Set(r.attributions.map((a) => a.doi)), dois);
    for (const a of r.attributions) {
      assert.ok(a.citation?.includes(`https://doi.org/${a.doi}`));
      assert.ok(a.licence);
    }
    assert.match(
      summarizeResult(r),
      /Locations: 5 rows in 1 page \(more available\)[\s\S]*Data sources:[\s\S]*https:\/\/doi\.org\/10\./,
    );
  });

  it('a pasted nextLink keeps its $top on "Load more" (Metadata stays 7, not the default 100)', async () => {
    const first = await run('/Metadata?$select=DOI&$top=7');
    assert.equal(first.rows.length, 7);
    assert.match(first.nextLink!, /%24top=7(&|$)/);
    const pasted = await run(`/Metadata?${first.nextLink!.split('?')[1]}`);
    assert.equal(pasted.rows.length, 7);
    assert.equal(pasted.pageTop, 7);
    const more = await continueResult(pasted, 3, { client, attributions: new AttributionCache(), rowLimit: 10000 });
    assert.equal(more.rows.length, 14, "a whole page of the user's size, none dropped");
    assert.match(more.nextLink!, /%24top=7(&|$)/, "the next link still asks for the user's $top");
    const rest = await continueResult(more, 100, { client, attributions: new AttributionCache(), rowLimit: 10000 });
    const dois = rest.rows.map((x) => x.DOI);
    assert.equal(dois.length, 24 - 7, 'everything after the pasted position, each once');
    assert.equal(new Set(dois).size, dois.length);
  });

  it('without $top pages up to the row limit, and "load more" continues after the last row', async () => {
    const r = await run("/Observations?$select=Id,CharacteristicName&$filter=CharacteristicName eq 'pH'", 1200);
    assert.equal(r.rows.length, 1200);
    assert.deepEqual(r.columns, ['Id', 'CharacteristicName'], 'DOI is fetched for attribution but not shown');
    assert.ok(r.rows.every((x) => x.CharacteristicName === 'pH'));
    assert.ok(r.truncated);
    const more = await continueResult(r, 500, { client, attributions: new AttributionCache(), rowLimit: 1200 });
    assert.equal(more.rows.length, 1700);
    const ids = more.rows.map((x) => x.Id as number);
    assert.equal(new Set(ids).size, ids.length, 'no row twice');
    assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]));
  });

  it('"Load more" after /Locations?$top=5 adds one page of 5, not everything', async () => {
    const r = await run('/Locations?$top=5');
    const ctx = { client, attributions: new AttributionCache(), rowLimit: 10000 };
    const more = await continueResult(r, loadMoreRows(r, ctx.rowLimit), ctx);
    assert.equal(more.rows.length, 10);
    assert.equal(more.pageTop, 5, 'the page size stays');
    assert.match(more.nextLink!, /%24top=5(&|$)/);
    const again = await continueResult(more, loadMoreRows(more, ctx.rowLimit), ctx);
    assert.equal(again.rows.length, 15);
    assert.equal(new Set(again.rows.map((x) => x.Id)).size, 15, 'no row twice');
    // Without $top a page is the row limit.
    assert.equal(loadMoreRows({}, 1200), 1200);
  });

  it('$count=true gives the number only', async () => {
    const r = await run("/Locations?$filter=RegionId eq 'hub.atlantic'&$count=true");
    assert.ok(r.count && r.count.value > 0 && !r.count.estimate);
    assert.equal(r.rows.length, 0);
  });
});

describe('waterData attribution text', () => {
  it('names the licences by id or URL and never repeats the DOI link', async () => {
    const { licenceName, citationWithLink } = await import('../../../src/waterData/core/summary');
    assert.equal(licenceName('odc-by'), 'Attribution Licence (ODC-By) v1.0');
    assert.equal(
      licenceName('https://opendatacommons.org/licenses/pddl/1-0/'),
      'Public Domain Dedication and Licence (ODC-PDDL) v1.0',
    );
    assert.equal(licenceName('ogl'), 'Open Government Licence (OGL)');
    assert.equal(
      licenceName('https://open.canada.ca/en/open-government-licence-canada'),
      'Open Government Licence (OGL)',
    );
    assert.equal(licenceName('https://example.org/other'), 'https://example.org/other');
    assert.equal(
      citationWithLink({
        doi: '10.25976/abcd-ef12',
        citation: 'Org. 2024. "X" (dataset). DataStream. https://doi.org/10.25976/abcd-ef12.',
      }),
      'Org. 2024. "X" (dataset). DataStream. https://doi.org/10.25976/abcd-ef12.',
    );
    assert.equal(
      citationWithLink({ doi: '10.25976/abcd-ef12', datasetName: 'X' }),
      'X https://doi.org/10.25976/abcd-ef12',
    );
  });
});

describe('waterData result URL', () => {
  it('requestUrl is the first request actually sent, with the key nowhere in it', async () => {
    const s = await startWaterEmulator({ minIntervalMs: 0 });
    try {
      const client = new WaterClient({
        baseUrl: s.baseUrl,
        apiKey: s.apiKey,
        limiter: new RateLimiter({ minIntervalMs: 0 }),
      });
      const r = await runQuery(analyzeQuery("/Locations?$filter=RegionId eq 'hub.atlantic'&$top=3"), {
        client,
        attributions: new AttributionCache(),
        rowLimit: 100,
      });
      assert.equal(r.requestUrl, `${s.baseUrl}/Locations?%24filter=RegionId%20eq%20%27hub.atlantic%27&%24top=3`);
      assert.ok(!JSON.stringify(r).includes(s.apiKey));
    } finally {
      await s.close();
    }
  });
});
