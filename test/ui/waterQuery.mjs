// The water-query language as a user types it in the sample notebook: mouse and keyboard only (Quick Open, a
// click on a line, typing, Ctrl+Space, Enter), no test commands.
import { join } from 'node:path';

/** The text of a notebook cell's editor as shown (Monaco renders spaces as no-break spaces). */
async function cellText(cell) {
  return (await cell.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}

/** Opens a workspace file with Quick Open (F1, then the file's name in place of the `>`). */
async function quickOpen(page, name) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(name);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: name })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Enter');
}

export const waterQueryChecks = {
  async waterQueryCompletion(page, { shots }) {
    await quickOpen(page, 'water-quality.wqnb');
    // The pH cell (the fourth) of the sample ends with `$top = 500`. It is reached by keyboard as a user moves
    // through a notebook: Escape leaves any cell editor for the cell list, Ctrl+Home focuses the first cell, the
    // arrows move down cell by cell (the notebook scrolls each into view, whatever outputs lie above), Enter edits the
    // cell and Ctrl+End goes to its last line. (A click on the line was flaky: outputs of an earlier run above it
    // keep their own wheel scrolling, so the line could stay below the fold.)
    const line = page.locator('.notebookOverlay .cell-editor-container .view-line', { hasText: /\$top\s=\s500$/ });
    await page.locator('.notebookOverlay .monaco-list-row').first().waitFor({ state: 'attached', timeout: 60_000 });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+End');
    await line.first().waitFor({ state: 'visible', timeout: 15_000 });
    const active = page.locator('.notebookOverlay .cell-editor-container .monaco-editor.focused');
    const activeText = await cellText(active.first());
    if (!/^# pH in Alberta/.test(activeText) || !/\$top = 500$/.test(activeText))
      throw new Error(`the keyboard reached the cell ${JSON.stringify(activeText)}, not the pH cell`);
    await page.keyboard.press('Enter');
    await page.keyboard.type('$se');
    // Whatever typing opened is closed first (the cursor moved away and back; Escape would leave the cell): the
    // list under test is the one Ctrl+Space asks for.
    await page.waitForTimeout(500);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
    await page.keyboard.press('Control+Space');
    const widget = page.locator('.suggest-widget.visible');
    const focused = widget.locator('.monaco-list-row.focused');
    await focused.first().waitFor({ state: 'visible', timeout: 15_000 });
    const rows = (await widget.locator('.monaco-list-row').allInnerTexts()).map((t) => t.split('\n')[0].trim());
    await page.screenshot({ path: join(shots, 'waterQueryCompletion-list.png') });
    const first = (await focused.first().innerText()).split('\n')[0].trim();
    if (first !== '$select') throw new Error(`Ctrl+Space after "$se" offers ${JSON.stringify(rows)}, focused ${first}`);
    if (rows.some((r) => /^\d+$/.test(r))) throw new Error(`$top's values are offered: ${JSON.stringify(rows)}`);
    await page.keyboard.press('Enter');
    // The line now reads `$select = ` (the multi-line form of the cell) and the fields are listed next.
    const cell = page
      .locator('.notebookOverlay .cell-editor-container')
      .filter({ has: page.locator('.view-line', { hasText: /\$top\s=\s500$/ }) });
    const fields = widget.locator('.monaco-list-row', { hasText: /^LocationId/ });
    await fields.first().waitFor({ state: 'visible', timeout: 15_000 });
    const text = await cellText(cell.first());
    const lines = text.split('\n');
    const at = lines.findIndex((l) => /^\$top = 500$/.test(l));
    if (at < 0 || lines[at + 1] !== '$select = ')
      throw new Error(`the cell reads ${JSON.stringify(text)}, not "$top = 500" then "$select = "`);
    await page.screenshot({ path: join(shots, 'waterQueryCompletion-fields.png') });
    await page.keyboard.press('Escape');
  },
};
