// The UI tier's checks of folder sync (issue 25), done as a user does them: the Explorer's context menu on a
// folder, the store folder picker and the mode, the plan view (a checkbox unticked, Apply), then the Sync
// view with the conflict and the status bar. The driver's half (test/ui/driver.ts) only puts the files there.
import { join } from 'node:path';
import { contextMenu, palette, pane, pickRows, showContainer, titleAction, treeRow } from './user.mjs';

const LINK = 'sync-demo ⇄ Sync demo';

async function statusItem(page, text) {
  const item = page.locator('.part.statusbar .statusbar-item', { hasText: text }).first();
  await item.waitFor({ state: 'visible', timeout: 30_000 });
  return item;
}

export const storageSyncChecks = {
  // Right-click the folder in the Explorer → Sync Folder with Storage… → My files › Sync demo → Two-way: the plan.
  async storageSyncPlan(page) {
    await palette(page, 'View: Show Explorer');
    const explorer = page.locator('.part.sidebar .explorer-folders-view').first();
    const folder = await treeRow(explorer, ['sync-demo']);
    const rows = pickRows(page);
    await contextMenu(page, folder, 'Sync Folder with Storage…', rows.first());
    await rows
      .filter({ hasText: /^My files/ })
      .first()
      .click({ timeout: 30_000 });
    await rows
      .filter({ hasText: /^Sync demo/ })
      .first()
      .click({ timeout: 30_000 });
    await rows.filter({ hasText: 'Sync with "Sync demo"' }).first().click({ timeout: 30_000 });
    // The mode: Two-way is offered first, as the default; Enter takes it.
    await rows.filter({ hasText: 'Two-way' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const first = await rows.first().innerText();
    if (!/^Two-way/.test(first)) throw new Error(`the first mode offered is ${first}`);
    await page.keyboard.press('Enter');
    const plan = await pane(page, 'Sync Plan');
    await treeRow(plan, ['Conflicts: changed on both sides (1)', 'draft.txt']);
    const labels = (await plan.locator('.monaco-list-row .label-name').allInnerTexts()).map((t) => t.trim());
    for (const want of ['Upload to the store (3)', 'Download to this folder (1)', 'notes.md', 'from the store.txt'])
      if (!labels.includes(want)) throw new Error(`the plan lacks "${want}": ${labels.join(' | ')}`);
    const message = await plan.locator('.message').first().innerText();
    if (!/First sync of sync-demo/.test(message)) throw new Error(`the plan view says "${message}"`);
    await statusItem(page, 'Sync plan to review');
  },

  // Untick the "drafts" folder (its file follows), Apply; the Sync view shows the link and its conflict.
  async storageSyncApplied(page, { shots }) {
    await showContainer(page);
    const plan = await pane(page, 'Sync Plan');
    const drafts = await treeRow(plan, ['Upload to the store (3)', 'drafts']);
    await drafts.locator('.custom-view-tree-node-item-checkbox').first().click();
    const below = await treeRow(plan, ['drafts/old.txt']);
    if ((await below.locator('.custom-view-tree-node-item-checkbox[aria-checked="true"]').count()) > 0)
      throw new Error('unticking a folder left its file ticked');
    await titleAction(plan, 'Apply Sync Plan');
    const sync = await pane(page, 'Sync');
    await treeRow(sync, [LINK, 'Conflicts (1)', 'draft.txt']);
    const item = await statusItem(page, '1 sync conflict');
    await page.mouse.move(700, 500);
    await item.screenshot({ path: join(shots, 'storageSyncStatusBar.png') });
    const link = await treeRow(sync, [LINK]);
    const description = await link.locator('.label-description').first().innerText();
    if (!/^two-way · in sync/.test(description)) throw new Error(`the link reads "${description}"`);
  },

  // A click on the conflict compares the file with its copy; the status bar item opens the Sync view.
  async storageSyncCompare(page) {
    const sync = await pane(page, 'Sync');
    await (await treeRow(sync, [LINK, 'Conflicts (1)', 'draft.txt'])).click();
    await page
      .locator('.tabs-container .tab.active', { hasText: 'draft (conflict' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.part.editor .monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    await (await statusItem(page, '1 sync conflict')).click();
    await pane(page, 'Sync');
  },
};
