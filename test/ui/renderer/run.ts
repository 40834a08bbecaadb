// Browser tests of the notebook renderer: renders table, map, chart, count and metadata results in
// headless Chromium, asserts what is visible, and writes screenshots to test-results/renderer/.
// Run alone: npx tsx test/ui/renderer/run.ts
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './harness';
import { fixtureRows, locationRows, observationRows, waterResult } from './data';

const OUT = resolve(__dirname, '../../../test-results/renderer');

type Check = (h: Harness) => Promise<void>;

async function shot(h: Harness, name: string): Promise<void> {
  await h.page.locator('#outputs').screenshot({ path: join(OUT, `${name}.png`) });
}

const checks: [string, Check][] = [
  [
    'table: 10,000 rows, virtualised, sticky header, sort, filter, hostile text',
    async (h) => {
      const rows = observationRows(10_000);
      await h.render(
        waterResult('Observations', rows, {
          nextLink: 'http://127.0.0.1:4010/v1/odata/v4/Observations?$skiptoken=Id:510000&$top=10000',
          truncated: true,
          pages: 1,
        }),
      );
      const p = h.page;
      const drawn = await p.locator('.wq-data-row').count();
      assert.ok(drawn > 10 && drawn < 80, `DOM rows: ${drawn}`);
      await p.locator('.wq-th', { hasText: 'CharacteristicName' }).isVisible();
      assert.equal(await p.locator('.wq-table-status').textContent(), '10,000 rows');
      assert.ok(await p.locator('.wq-load-more').isVisible());
      assert.ok(await p.locator('.wq-fetch-all').isVisible());
      assert.equal(await p.locator('img').count(), 0, 'hostile value stayed text');
      assert.ok(await p.getByText('<img src=x onerror=alert(1)>').first().isVisible());
      assert.ok(await p.locator('footer.wq-footer a[href="https://doi.org/10.25976/xxxx-xx00"]').isVisible());
      await shot(h, 'table');
      // Scroll to the end: the header stays in view and the last row is drawn.
      await p.locator('.wq-scroll').evaluate((s) => (s.scrollTop = s.scrollHeight));
      await p.waitForSelector('.wq-data-row[data-index="9999"]');
      const head = await p.locator('.wq-head-row').boundingBox();
      const scroller = await p.locator('.wq-scroll').boundingBox();
      assert.ok(head && scroller && Math.abs(head.y - scroller.y) < 3, 'header is sticky');
      assert.ok(await p.locator('.wq-data-row[data-index="9999"]').isVisible());
      const sortValue = p.locator('.wq-sort[title="Sort by ResultValue"]');
      await sortValue.click();
      await sortValue.click();
      assert.equal(await p.locator('.wq-th', { has: sortValue }).getAttribute('aria-sort'), 'descending');
      await p.locator('.wq-scroll').evaluate((s) => (s.scrollTop = 0));
      await p.locator('input[aria-label="Filter CharacteristicName"]').fill('temp');
      await p.waitForFunction(() =>
        /of 10,000 rows match/.test(document.querySelector('.wq-table-status')!.textContent),
      );
      // Rows are recycled, so DOM order is not display order: address rows by aria-rowindex.
      const first = p.locator('.wq-data-row[aria-rowindex="2"]');
      const firstCells = await first.locator('[role="gridcell"]').allTextContents();
      assert.ok(firstCells.includes('Temperature, water'), firstCells.join('|'));
      const values = await p.evaluate(() =>
        [2, 3, 4].map((i) =>
          Number(document.querySelector(`.wq-data-row[aria-rowindex="${i}"] .wq-num[data-col="17"]`)?.textContent),
        ),
      );
      assert.ok(values[0] >= values[1] && values[1] >= values[2], `descending ResultValue: ${values.join(',')}`);
      await p.locator('.wq-data-row[aria-rowindex="3"] [data-col="14"]').click();
      // Widen CharacteristicName by dragging its header edge: header and rows follow together.
      const grip = p
        .locator('.wq-th', { has: p.locator('.wq-sort[title="Sort by CharacteristicName"]') })
        .locator('.wq-resizer');
      const before = (await p.locator('.wq-data-row[aria-rowindex="2"] [data-col="14"]').boundingBox())!.width;
      const gb = (await grip.boundingBox())!;
      await p.mouse.move(gb.x + gb.width / 2, gb.y + gb.height / 2);
      await p.mouse.down();
      await p.mouse.move(gb.x + 80, gb.y + gb.height / 2, { steps: 4 });
      await p.mouse.up();
      const after = (await p.locator('.wq-data-row[aria-rowindex="2"] [data-col="14"]').boundingBox())!.width;
      assert.ok(Math.abs(after - before - 80) < 6, `column grew from ${before} to ${after}`);
      await shot(h, 'table-sorted-filtered');
      // Keyboard: End selects the last matching row and scrolls it into view.
      await p.locator('.wq-scroll').press('End');
      await p.waitForSelector('.wq-data-row.wq-selected[aria-rowindex="2501"]');
      assert.ok(await p.locator('.wq-data-row.wq-selected').isVisible());
      await p.locator('.wq-load-more').click();
      const posted = await p.evaluate(() =>
        (window as unknown as { __messages: { type: string }[] }).__messages.map((m) => m.type),
      );
      assert.deepEqual(posted, ['rendered', 'loadMore']);
    },
  ],
  [
    'table: light theme',
    async (h) => {
      await h.theme('light');
      await h.render(waterResult('Observations', observationRows(200)));
      await h.page.locator('.wq-data-row[aria-rowindex="4"]').click();
      await shot(h, 'table-light');
      await h.theme('dark');
    },
  ],
  [
    'table: appended rows land under the shown ones without moving the scroll position',
    async (h) => {
      const rows = observationRows(2_000);
      await h.render(
        waterResult('Observations', rows, {
          resultId: 'ui-append',
          nextLink: 'http://127.0.0.1:4010/v1/odata/v4/Observations?$skiptoken=Id:2000&$top=2000',
          pages: 1,
        }),
      );
      const p = h.page;
      const scroll = p.locator('.wq-scroll').last();
      await scroll.evaluate((s) => (s.scrollTop = 20_000));
      await p.waitForFunction(() =>
        [...document.querySelectorAll('.wq-data-row')].some((r) => Number(r.getAttribute('data-index')) > 500),
      );
      const before = await scroll.evaluate((s) => s.scrollTop);
      const result = p.locator('.wq-result').last();
      const more = observationRows(3_000).slice(2_000);
      await p.evaluate((m) => (window as unknown as { __send(m: unknown): void }).__send(m), {
        type: 'appendRows',
        resultId: 'ui-append',
        requestUrl: 'http://127.0.0.1:4010/v1/odata/v4/Observations?%24top=10000',
        rows: more,
        pages: 2,
        truncated: false,
      });
      await p.waitForFunction(() =>
        /3,000 rows/.test(
          document.querySelectorAll('.wq-table-status')[document.querySelectorAll('.wq-table-status').length - 1]
            ?.textContent ?? '',
        ),
      );
      assert.equal(await scroll.evaluate((s) => s.scrollTop), before, 'scroll position kept');
      assert.match((await result.locator('.wq-summary').textContent()) ?? '', /3,000 rows · 2 pages/);
      assert.equal(await result.locator('.wq-load-more').isVisible(), false, 'no more pages');
      await scroll.evaluate((s) => (s.scrollTop = s.scrollHeight));
      await p.waitForSelector('.wq-data-row[data-index="2999"]');
    },
  ],
  [
    'map: Locations over a Canada outline, tooltip, click selects the row',
    async (h) => {
      const rows = locationRows();
      await h.render(waterResult('Locations', rows));
      const p = h.page;
      await p.locator('.wq-tab[data-tab="map"]').click();
      assert.equal(await p.locator('circle.wq-pt').count(), rows.length);
      assert.ok(await p.locator('path.wq-canada').isVisible());
      assert.ok((await p.locator('.wq-grat-label').allTextContents()).some((t) => /°N$/.test(t)));
      // Neighbouring points may overlap; use one that is on top at its own centre.
      const index = await p.evaluate(() => {
        for (const c of document.querySelectorAll<SVGCircleElement>('circle.wq-pt')) {
          const r = c.getBoundingClientRect();
          if (document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === c) return Number(c.dataset.index);
        }
        return -1;
      });
      assert.ok(index >= 0, 'a point is reachable by the pointer');
      const row = rows[index];
      const dot = p.locator(`circle.wq-pt[data-index="${index}"]`);
      await dot.hover();
      await p.waitForSelector('.wq-tooltip:not([hidden])');
      assert.equal(
        await p.locator('.wq-tooltip').textContent(),
        `${String(row.Name)}\n${String(row.ID)} · ${(row.Latitude as number).toFixed(4)}, ${(row.Longitude as number).toFixed(4)}`,
      );
      await shot(h, 'map-tooltip');
      await dot.click();
      assert.equal(
        await p.locator('.wq-map-info').textContent(),
        `Selected: ${String(row.Name)} · ${String(row.ID)} · ${(row.Latitude as number).toFixed(4)}, ${(row.Longitude as number).toFixed(4)}`,
      );
      await shot(h, 'map');
      await h.theme('light');
      await shot(h, 'map-light');
      await h.theme('dark');
      await p.locator('.wq-show-in-table').click();
      assert.equal(await p.locator('.wq-data-row.wq-selected').getAttribute('data-index'), String(index));
      assert.ok(await p.locator('.wq-data-row.wq-selected').isVisible());
    },
  ],
  [
    'map: the API sample location (Pacific coast) and the datastreamr mock (Normalized fields)',
    async (h) => {
      await h.render(
        waterResult(
          'Locations',
          fixtureRows('apidocs-sample-locations.json').concat(fixtureRows('datastreamr-mock-locations.json')),
        ),
      );
      await h.page.locator('.wq-tab[data-tab="map"]').click();
      assert.equal(await h.page.locator('circle.wq-pt').count(), 2);
      await shot(h, 'map-fixtures');
    },
  ],
  [
    'chart: Observations per characteristic with units',
    async (h) => {
      await h.render(waterResult('Observations', observationRows(4000)));
      const p = h.page;
      await p.locator('.wq-tab[data-tab="chart"]').click();
      await p.waitForSelector('.wq-chart canvas');
      // Equal counts: the first characteristic by name is shown first.
      assert.equal(await p.locator('.wq-chart').getAttribute('data-axis-label'), 'Dissolved oxygen (DO) (mg/L)');
      // uPlot draws axes on the canvas, so the label is checked through the attribute the renderer sets from the same string.
      assert.ok(await p.locator('.wq-chart canvas').isVisible());
      await p.locator('.wq-chart-select').selectOption('Temperature, water');
      await p.waitForSelector('.wq-chart canvas');
      assert.equal(await p.locator('.wq-chart').getAttribute('data-axis-label'), 'Temperature, water (deg C)');
      assert.match((await p.locator('.wq-chart-caption').textContent())!, /unit: deg C/);
      assert.equal(await p.locator('.wq-chart .u-legend .u-series').count(), 7, 'time + 6 locations');
      await shot(h, 'chart');
    },
  ],
  [
    'count: $count result, estimate badge',
    async (h) => {
      await h.render(waterResult('Observations', [], { columns: [], count: { value: 1_234_567, estimate: true } }));
      assert.equal(await h.page.locator('.wq-count-value').textContent(), '1,234,567');
      assert.ok(await h.page.locator('.wq-estimate').isVisible());
      await shot(h, 'count');
    },
  ],
  [
    'metadata: dataset cards',
    async (h) => {
      const rows = fixtureRows('apidocs-sample-metadata.json').concat(fixtureRows('datastreamr-mock-metadata.json'));
      await h.render(
        waterResult('Metadata', rows, {
          attributions: [
            {
              doi: '10.25976/xxxx-xx00',
              datasetName: 'Sample Dataset A',
              citation: String(rows[0].Citation),
              licence: String(rows[0].Licence),
            },
            {
              doi: '10.25976/m2s9-oz38',
              datasetName: 'Anonymized Dataset',
              citation: String(rows[1].Citation),
              licence: String(rows[1].Licence),
            },
          ],
        }),
      );
      assert.equal(await h.page.locator('.wq-card').count(), 2);
      assert.ok(await h.page.locator('.wq-card h3', { hasText: 'Sample Dataset A' }).isVisible());
      assert.ok(await h.page.locator('.wq-card a[href="https://doi.org/10.25976/xxxx-xx00"]').isVisible());
      // Each dataset's citation appears once: on its card, not again under "Source datasets".
      for (const r of rows.slice(0, 2)) {
        const citation = String(r.Citation);
        const shown = await h.page
          .locator('.wq-citation')
          .evaluateAll((els, c) => els.filter((e) => e.textContent === c).length, citation);
        assert.equal(shown, 1, `citation shown ${shown} times: ${citation}`);
      }
      assert.match(
        (await h.page.locator('footer.wq-footer').textContent()) ?? '',
        /Each dataset card above shows its citation and licence/,
      );
      await shot(h, 'metadata');
    },
  ],
  [
    'metadata: 40 datasets in a bounded output that the mouse wheel scrolls',
    async (h) => {
      const base = fixtureRows('apidocs-sample-metadata.json')[0];
      const rows = Array.from({ length: 40 }, (_, i): Record<string, unknown> => ({
        ...base,
        DOI: `10.25976/test-${String(i).padStart(4, '0')}`,
        DatasetName: `Dataset ${i + 1}`,
      }));
      await h.render(
        waterResult('Metadata', rows, {
          attributions: rows.map((r) => ({
            doi: String(r.DOI),
            datasetName: String(r.DatasetName),
            citation: String(r.Citation),
            licence: String(r.Licence),
          })),
        }),
      );
      const p = h.page;
      const output = (await p.locator('.wq-result').boundingBox())!;
      assert.ok(output.height < 900, `the output is ${Math.round(output.height)} px tall`);
      const panel = p.locator('.wq-panel-cards');
      const { scrollHeight, clientHeight } = await panel.evaluate((e) => ({
        scrollHeight: e.scrollHeight,
        clientHeight: e.clientHeight,
      }));
      assert.ok(scrollHeight > clientHeight * 2, `cards scroll inside the output: ${scrollHeight} > ${clientHeight}`);
      const box = (await panel.boundingBox())!;
      await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await p.mouse.wheel(0, 400);
      await p.waitForFunction(() => document.querySelector('.wq-panel-cards')!.scrollTop > 0);
      await shot(h, 'metadata-many');
    },
  ],
];

export async function runRendererUiTests(): Promise<{ passed: number; failed: number }> {
  mkdirSync(OUT, { recursive: true });
  const h = await startHarness();
  let passed = 0,
    failed = 0;
  try {
    for (const [name, check] of checks) {
      try {
        await check(h);
        passed++;
        console.log(`  ✔ renderer ui: ${name}`);
      } catch (e) {
        failed++;
        console.log(`  ✖ renderer ui: ${name}\n    ${(e as Error).stack ?? String(e)}`);
        await h.page.screenshot({ path: join(OUT, `failed-${passed + failed}.png`) }).catch(() => undefined);
      }
    }
  } finally {
    await h.close();
  }
  console.log(`renderer ui: ${passed} passed, ${failed} failed; screenshots in ${OUT}`);
  return { passed, failed };
}

if (require.main === module) {
  runRendererUiTests().then(
    (r) => (process.exitCode = r.failed ? 1 : 0),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
