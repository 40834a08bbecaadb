// Screenshots of the results grid in Chromium (the real bundle, VS Code's Dark Modern colours): a finished run,
// long outputs, errors and safety, a live run half done, the failures filter, a comparison, empty states.
// Run: node --import tsx test/ui/evalGrid/run.ts   (writes test-results/evalGrid/*.png)
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gridRun } from './data';
import { startGridHarness } from './harness';

const OUT = resolve(__dirname, '../../../test-results/evalGrid');

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const h = await startGridHarness();
  const shot = (name: string) => h.page.screenshot({ path: join(OUT, `${name}.png`) });
  const frame = () => h.page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
  try {
    await h.paint(gridRun(40, ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro']));
    await shot('1-finished');
    await h.paint(gridRun(12, ['gemini-2.0-flash', 'gemini-2.5-flash'], { long: true }));
    await h.page.locator('.row[data-item="1"] .cell').first().click();
    await h.page.locator('.row[data-item="2"] .cell').nth(1).click();
    await frame();
    await shot('2-long-outputs-two-selected');
    await h.paint(gridRun(30, ['gemini-2.0-flash', 'gemini-2.5-flash'], { running: true }));
    await shot('3-running');
    await h.page.selectOption('[data-testid="grid-filter"]', 'failures');
    await frame();
    await shot('4-failures-only');
    const compared = gridRun(30, ['gemini-2.0-flash', 'gemini-2.5-flash']);
    compared.comparison = {
      label: '29/11/2026, 00:40:00',
      marks: [
        ['0\u0000gemini-2.0-flash', 'worse'],
        ['2\u0000gemini-2.5-flash', 'better'],
      ],
    };
    await h.paint(compared);
    await shot('5-compared');
    const none = gridRun(0, ['gemini-2.0-flash']);
    await h.paint(none);
    await shot('6-empty-run');
    await h.paint({ ...gridRun(5, ['gemini-2.0-flash'], { running: true }), cells: [] });
    await h.send({ type: 'progress', progress: { done: 0, total: 5, running: true } });
    await frame();
    await shot('7-waiting');
    await h.page.selectOption('[data-testid="grid-filter"]', 'failures');
    await frame();
    await shot('8-no-failures-yet');
    await h.page.setViewportSize({ width: 560, height: 700 });
    await h.paint(gridRun(8, ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro']));
    await shot('9-narrow');
    if (h.errors.length) throw new Error(h.errors.join('; '));
    console.log(`screenshots in ${OUT}`);
  } finally {
    await h.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
