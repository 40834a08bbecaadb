// The results grid in Chromium (the real bundle, VS Code's Dark Modern colours), checked as a user sees it, with a
// screenshot of each state: a finished run, long outputs with two cells picked (mouse and keyboard), a live run
// filling in, the failures filter, a comparison's marks, empty states, a narrow window, 10,000 cells scrolled, and
// a hostile reply kept inert.
// Run: node --import tsx test/ui/evalGrid/run.ts   (screenshots in test-results/evalGrid)
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CellResult } from '../../../src/generation/core/eval/runner';
import { gridRun } from './data';
import { startGridHarness, type GridHarness } from './harness';

const OUT = resolve(__dirname, '../../../test-results/evalGrid');
const MODELS = ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro'];

const frame = (h: GridHarness) =>
  h.page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
const text = (h: GridHarness, sel: string) => h.page.locator(sel).first().innerText();

const checks: [string, (h: GridHarness) => Promise<void>][] = [
  [
    'a finished run: columns, a summary per model, only the visible rows in the page',
    async (h) => {
      await h.paint(gridRun(40, MODELS));
      assert.deepEqual(await h.page.locator('.row.head .variant').allInnerTexts(), MODELS);
      const stats = await h.page.locator('[data-testid="grid-summary"] .stats').allInnerTexts();
      assert.equal(stats.length, 3);
      for (const s of stats)
        assert.match(s, /\d+\/40 passed \([\d.]+%\)\nmean \d+ ms · p95 \d+ ms\ntokens \d+ in · \d+ out/);
      assert.equal(await text(h, '[data-testid="grid-progress"]'), '120 / 120 cells');
      assert.ok((await h.page.locator('.grid-body .row').count()) <= 10);
      // A failed request shows its error; a failed assertion its reason.
      assert.match(await text(h, '.cell[data-status="error"]'), /503 UNAVAILABLE: The model is overloaded/);
      assert.match(await text(h, '.cell[data-status="fail"] .reason'), /contains: does not contain "pH"/);
    },
  ],
  [
    'long outputs scroll inside their cell; a click and Space pick two cells for a diff',
    async (h) => {
      await h.paint(gridRun(12, MODELS.slice(0, 2), { long: true }));
      const out = h.page.locator('.row[data-item="1"] .cell .output').first();
      assert.ok(await out.evaluate((e) => e.scrollHeight > e.clientHeight), 'the long reply overflows its cell');
      await h.page.locator('.row[data-item="1"] .cell').first().click();
      assert.equal(await text(h, '.selection'), '1 selected');
      assert.equal(await h.page.locator('[data-testid="grid-open-chat"]').isEnabled(), true);
      await h.page.keyboard.press('ArrowRight');
      await h.page.keyboard.press('ArrowDown');
      await h.page.keyboard.press('Space');
      await frame(h);
      assert.equal(await text(h, '.selection'), '2 selected');
      assert.equal(await h.page.locator('.row[data-item="2"] .cell').nth(1).getAttribute('aria-selected'), 'true');
      assert.equal(await h.page.locator('[data-testid="grid-diff"]').isEnabled(), true);
      assert.equal(await h.page.locator('[data-testid="grid-open-chat"]').isEnabled(), false);
      await h.page.locator('[data-testid="grid-diff"]').click();
      const posted = await h.page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted.at(-1));
      assert.deepEqual(posted, {
        type: 'diff',
        a: { item: 1, variant: MODELS[0] },
        b: { item: 2, variant: MODELS[1] },
      });
      await h.page.screenshot({ path: join(OUT, '2-long-outputs-two-selected.png') });
    },
  ],
  [
    'a live run: waiting cells fill in as cells arrive, the counts follow',
    async (h) => {
      const all = gridRun(30, MODELS.slice(0, 2));
      const next = all.cells.find((c) => c.item === 2 && c.variant === MODELS[0])!;
      const cells = all.cells.filter((c) => c.item < 10 && c !== next);
      await h.paint({ ...all, cells, progress: { done: cells.length, total: 60, running: true } });
      assert.equal(await text(h, '[data-testid="grid-progress"]'), '19 / 60 cells · running');
      assert.equal(await h.page.locator('[data-testid="grid-stop"]').isVisible(), true);
      assert.equal(await text(h, '.row[data-item="2"] .cell'), 'Waiting…');
      await h.send({ type: 'cells', cells: [next] });
      await h.send({ type: 'progress', progress: { done: 20, total: 60, running: true } });
      await frame(h);
      assert.match(await text(h, '.row[data-item="2"] .cell'), /^(PASS|FAIL|ERROR)/);
      assert.equal(await text(h, '[data-testid="grid-progress"]'), '20 / 60 cells · running');
      await h.page.screenshot({ path: join(OUT, '3-running.png') });
    },
  ],
  [
    'the failures filter keeps the rows with a failed or errored cell',
    async (h) => {
      await h.paint(gridRun(30, MODELS.slice(0, 2)));
      await h.page.selectOption('[data-testid="grid-filter"]', 'failures');
      await frame(h);
      const rows = h.page.locator('.grid-body .row');
      assert.ok((await rows.count()) > 0);
      for (const row of await rows.all())
        assert.ok((await row.locator('.cell[data-status="fail"], .cell[data-status="error"]').count()) > 0);
      await h.page.screenshot({ path: join(OUT, '4-failures-only.png') });
      await h.page.selectOption('[data-testid="grid-filter"]', 'all');
    },
  ],
  [
    'a comparison marks what got worse and better, and says how many',
    async (h) => {
      const run = gridRun(30, MODELS.slice(0, 2));
      run.comparison = {
        label: '29/11/2026, 00:40:00',
        marks: [
          [`0\u0000${MODELS[0]}`, 'worse'],
          [`2\u0000${MODELS[1]}`, 'better'],
        ],
      };
      await h.paint(run);
      assert.equal(
        await text(h, '[data-testid="grid-compared"]'),
        'Compared with 29/11/2026, 00:40:00: 1 worse, 1 better',
      );
      assert.equal(await text(h, '.cell[data-mark="worse"] .mark'), '▼ worse');
      assert.equal(await text(h, '.cell[data-mark="better"] .mark'), '▲ better');
      await h.page.selectOption('[data-testid="grid-filter"]', 'changed');
      await frame(h);
      assert.deepEqual(
        await h.page.locator('.grid-body .row').evaluateAll((r) => r.map((x) => x.getAttribute('data-item'))),
        ['0', '2'],
      );
      await h.page.screenshot({ path: join(OUT, '5-compared.png') });
      await h.page.selectOption('[data-testid="grid-filter"]', 'all');
    },
  ],
  [
    'empty states: a run without items, cells not in yet, no failures so far',
    async (h) => {
      await h.paint(gridRun(0, MODELS.slice(0, 1)));
      assert.equal(await text(h, '[data-testid="grid-empty"]'), 'This run has no items.');
      await h.page.screenshot({ path: join(OUT, '6-empty-run.png') });
      await h.paint({ ...gridRun(5, MODELS.slice(0, 1), { running: true }), cells: [] });
      await h.send({ type: 'progress', progress: { done: 0, total: 5, running: true } });
      await frame(h);
      assert.equal(await text(h, '[data-testid="grid-summary"] .stats'), 'No cells yet.');
      assert.equal(await text(h, '.grid-body .cell'), 'Waiting…');
      await h.page.screenshot({ path: join(OUT, '7-waiting.png') });
      await h.page.selectOption('[data-testid="grid-filter"]', 'failures');
      await frame(h);
      assert.equal(await text(h, '[data-testid="grid-empty"]'), 'No failures so far.');
      await h.page.screenshot({ path: join(OUT, '8-no-failures-yet.png') });
      await h.page.selectOption('[data-testid="grid-filter"]', 'all');
    },
  ],
  [
    'a narrow window scrolls the columns sideways instead of crushing them',
    async (h) => {
      await h.page.setViewportSize({ width: 560, height: 700 });
      await h.paint(gridRun(8, MODELS));
      const s = h.page.locator('.grid-scroll');
      assert.ok(await s.evaluate((e) => e.scrollWidth > e.clientWidth));
      const w = await h.page
        .locator('.row.head .variant')
        .first()
        .evaluate((e) => e.getBoundingClientRect().width);
      assert.ok(w >= 299, `a column is ${w}px wide`);
      await h.page.screenshot({ path: join(OUT, '9-narrow.png') });
      await h.page.setViewportSize({ width: 1280, height: 860 });
    },
  ],
  [
    '10,000 cells: scrolled to the middle, the page holds only the rows on screen, and the right ones',
    async (h) => {
      await h.paint(gridRun(2500, ['a', 'b', 'c', 'd']));
      await h.page.locator('.grid-scroll').evaluate((e) => (e.scrollTop = 184 * 1250));
      await frame(h);
      const items = await h.page
        .locator('.grid-body .row')
        .evaluateAll((r) => r.map((x) => Number(x.getAttribute('data-item'))));
      assert.ok(items.length <= 10, `${items.length} rows in the page`);
      assert.ok(items.includes(1250) && items.every((i) => i >= 1246 && i <= 1258), JSON.stringify(items));
      await h.page.screenshot({ path: join(OUT, '10-ten-thousand-cells.png') });
    },
  ],
  [
    'a hostile reply is shown, never run: no script, no event handler, no javascript: link',
    async (h) => {
      const run = gridRun(1, ['a']);
      const evil: CellResult = {
        ...run.cells[0],
        output:
          'Hi <script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2"> [link](javascript:window.__pwned=3)',
      };
      await h.paint({ ...run, cells: [evil] });
      await h.page.waitForTimeout(200);
      const out = h.page.locator('.grid-body .cell .output');
      assert.match(await out.innerText(), /Hi <script>window\.__pwned = 1<\/script>/, 'shown as text');
      assert.equal(await out.locator('script, img, [onerror]').count(), 0);
      assert.equal(await out.locator('a[href^="javascript"]').count(), 0);
      await out.click();
      assert.equal(await h.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    },
  ],
];

async function main(): Promise<number> {
  mkdirSync(OUT, { recursive: true });
  const h = await startGridHarness();
  let passed = 0;
  let failed = 0;
  try {
    for (const [name, check] of checks) {
      try {
        await check(h);
        if (h.errors.length) throw new Error(`page errors: ${h.errors.splice(0).join('; ')}`);
        if (name.startsWith('a finished run')) await h.page.screenshot({ path: join(OUT, '1-finished.png') });
        passed++;
        console.log(`  ✔ grid ui: ${name}`);
      } catch (e) {
        failed++;
        console.log(`  ✖ grid ui: ${name}\n    ${(e as Error).stack ?? String(e)}`);
        await h.page.screenshot({ path: join(OUT, `failed-${passed + failed}.png`) }).catch(() => undefined);
      }
    }
  } finally {
    await h.close();
  }
  console.log(`grid ui: ${passed} passed, ${failed} failed; screenshots in ${OUT}`);
  return failed;
}

main().then(
  (failed) => (process.exitCode = failed ? 1 : 0),
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
