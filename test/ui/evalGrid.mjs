// Run Evaluation as a user runs it on the sample prompt: a click on the CodeLens, the dataset typed into the
// file dialog, a second model ticked in the picker, then the results grid: its rows and summary, a cell picked
// with the mouse and another with the keyboard, and the two compared in a diff. No test commands.
import { join } from 'node:path';
import { inAnyFrame } from './frames.mjs';

export const evalGridChecks = {
  async evalGrid(page, { shots }) {
    const lens = page.locator('.codelens-decoration a', { hasText: 'Run Evaluation' });
    await lens.first().click({ timeout: 30_000 });
    // The file dialog (VS Code's own in code-server) opens in the prompt's folder: the dataset's name completes it.
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    // The dialog fills its input with the folder once it has listed it; typing before that is lost.
    for (let i = 0; i < 60 && !/generation\/$/.test(await input.inputValue()); i++) await page.waitForTimeout(250);
    await page.keyboard.press('End');
    await page.keyboard.type('stations.jsonl');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'stations.jsonl' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Enter');
    // The models: the prompt's own is ticked; a second is ticked with the mouse, then OK.
    const title = page.locator('.quick-input-widget .quick-input-title', { hasText: 'Models to evaluate' });
    await title.waitFor({ state: 'visible', timeout: 30_000 });
    const second = page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^gemini-2\.5-flash$/ }) });
    await second.first().click({ timeout: 15_000 });
    await page.screenshot({ path: join(shots, 'evalGrid-models.png') });
    await page.keyboard.press('Enter');

    const { frame } = await inAnyFrame(page, '.grid-body .row', { minCount: 3, timeout: 60_000 });
    const progress = frame.locator('[data-testid="grid-progress"]');
    for (let i = 0; i < 240 && !/^6 \/ 6 cells$/.test(await progress.innerText()); i++) await page.waitForTimeout(250);
    const shown = await progress.innerText();
    if (!/^6 \/ 6 cells$/.test(shown)) throw new Error(`the grid shows "${shown}", not 6 of 6 cells done`);
    const heads = await frame.locator('.row.head .variant').allInnerTexts();
    if (heads.join(',') !== 'gemini-2.0-flash,gemini-2.5-flash') throw new Error(`columns: ${heads.join(', ')}`);
    const stats = await frame.locator('[data-testid="grid-summary"] .stats').allInnerTexts();
    if (stats.length !== 2 || !stats.every((s) => /passed/.test(s) && /p95/.test(s)))
      throw new Error(`summary row: ${JSON.stringify(stats)}`);
    const badges = await frame.locator('.grid-body .cell .badge').allInnerTexts();
    if (badges.length !== 6) throw new Error(`${badges.length} cells show a status, not 6`);

    // One cell with the mouse, the one below it with the keyboard (arrow, space): two picked make a diff.
    await frame.locator('.row[data-item="0"] .cell').first().click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    const picked = await frame.locator('.selection').innerText();
    if (picked !== '2 selected') throw new Error(`after a click and Space: "${picked}"`);
    await page.screenshot({ path: join(shots, 'evalGrid-grid.png') });
    await frame.locator('[data-testid="grid-diff"]').click();
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    const tab = await page.locator('.tabs-container .tab.active').innerText();
    if (!/#0 gemini-2\.0-flash ↔ #1 gemini-2\.0-flash/.test(tab)) throw new Error(`the diff tab reads "${tab}"`);
  },
};
