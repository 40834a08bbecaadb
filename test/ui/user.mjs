// What a user does with the mouse and the keyboard, for the UI tier's checks: the command palette, the side
// bar's views and their title actions, tree rows and their context menus, quick picks and the chat webviews.
import { inAnyFrame } from './frames.mjs';

/** Runs a command from the palette by its title, as a user types it. */
export async function palette(page, title) {
  const input = page.locator('.quick-input-widget input').first();
  await page.keyboard.press('F1');
  // A key pressed while a webview has the focus does not always reach the workbench in code-server: a click
  // on the window's title (which does nothing else) takes the focus back, and F1 again opens the palette.
  if (
    !(await input.waitFor({ state: 'visible', timeout: 3_000 }).then(
      () => true,
      () => false,
    ))
  ) {
    const bar = await page.locator('.part.titlebar').first().boundingBox();
    if (bar) await page.mouse.click(bar.x + bar.width / 2, bar.y + bar.height / 2);
    await page.keyboard.press('F1');
  }
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.type(title);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 15_000 });
  // The best match may come second (a recently used or longer title ranked first): arrow down to it.
  const focused = rows.and(page.locator('.focused')).first();
  const isIt = (label) => label.startsWith(title.replace(/^[^:]*:\s*/, '')) || label.startsWith(title);
  for (let i = 0; !isIt((await focused.getAttribute('aria-label')) ?? ''); i++) {
    if (i === 5) throw new Error(`the palette does not offer "${title}" among its first rows`);
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
}

/** Opens the API Workbench side bar by its activity bar icon (a click on the open one would close it). */
export async function showContainer(page) {
  const icon = page.locator('.part.activitybar .action-item', {
    has: page.locator('[aria-label^="API Workbench"]'),
  });
  await icon.first().waitFor({ state: 'visible', timeout: 30_000 });
  if (!/\bchecked\b/.test((await icon.first().getAttribute('class')) ?? '')) {
    await icon.first().click();
    // Off the icon, so its hover does not cover the side bar in the screenshot.
    await page.mouse.move(700, 500);
  }
}

/** One view of the side bar, expanded (a click on its header, as a user opens it). */
export async function pane(page, title) {
  const p = page.locator('.part.sidebar .pane').filter({
    has: page.locator('.pane-header .title', { hasText: new RegExp(`^${title}$`, 'i') }),
  });
  const header = p.locator('.pane-header').first();
  await header.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return p.first();
}

/** Collapses a view of the side bar, as a user makes room for another. */
export async function collapse(page, title) {
  const header = page
    .locator('.part.sidebar .pane-header[aria-expanded="true"]')
    .filter({ has: page.locator('.title', { hasText: new RegExp(`^${title}$`, 'i') }) });
  if (await header.count()) await header.first().click();
}

/** Clicks one of the active editor's title actions (the buttons right of its tabs). */
export async function editorAction(page, label) {
  const action = page
    .locator(`.part.editor .editor-group-container.active .editor-actions .action-label[aria-label^="${label}"]`)
    .first();
  await action.waitFor({ state: 'visible', timeout: 30_000 });
  await action.click();
  // Off the button, so its tooltip does not cover the editor in the screenshot.
  await page.mouse.move(700, 500);
}

/** Clicks one of a view's title actions (shown while the pointer is over its header). */
export async function titleAction(view, label) {
  await view.locator('.pane-header').first().hover();
  const action = view.locator(`.pane-header .actions .action-label[aria-label="${label}"]`).first();
  await action.waitFor({ state: 'visible', timeout: 15_000 });
  await action.click();
}

/**
 * A tree row by its label; its parents are expanded first by clicking them, and the tree scrolled with the
 * mouse wheel (down, then back up) while the row is out of view (a list renders only the rows in view).
 */
export async function treeRow(view, path, timeout = 30_000) {
  const page = view.page();
  let row;
  for (const label of path) {
    if (row && (await row.getAttribute('aria-expanded')) === 'false') await row.click();
    row = view.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: label }) }).first();
    const deadline = Date.now() + timeout;
    for (let turn = 0; ; turn++) {
      const shown = await row.isVisible();
      const away = shown ? await offView(row) : 0;
      if (shown && away === 0) break;
      if (Date.now() > deadline) throw new Error(`no tree row "${label}" in view (path ${path.join(' › ')})`);
      const list = view.locator('.monaco-list').first();
      // Rendered but under the sticky rows of its parents (or cut off by the pane's bottom): scrolled into the
      // clear. Not rendered: a tree still loading gets a moment, then the wheel looks down and back up.
      if ((shown || turn >= 4) && (await list.isVisible())) {
        await list.hover();
        await page.mouse.wheel(0, shown ? 60 * away : (turn - 4) % 24 < 12 ? 100 : -100);
      }
      await page.waitForTimeout(shown ? 150 : 250);
    }
  }
  return row;
}

/**
 * 0 when a click at a tree row's centre reaches it; else which way to scroll its list: -1 (up) when something
 * lies over it in the list's upper half (sticky rows), 1 (down) in the lower half (the pane's bottom).
 */
function offView(row) {
  return row
    .evaluate(
      (el) => {
        const r = el.getBoundingClientRect();
        if (el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2))) return 0;
        const list = el.closest('.monaco-list')?.getBoundingClientRect();
        return list && r.y + r.height / 2 > list.y + list.height / 2 ? 1 : -1;
      },
      undefined,
      { timeout: 1000 },
    )
    .catch(() => 1);
}

/** Right-clicks a row and picks `item` from its context menu; resolves once `then` (a locator) shows. */
export async function contextMenu(page, row, item, then) {
  await row.click({ button: 'right' });
  const action = page.locator('.context-view .action-label', { hasText: item }).first();
  await action.hover();
  await action.click();
  // A loaded machine may drop a click that lands while the menu is still settling: then Enter picks it.
  if (
    !(await then.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    ))
  ) {
    if (await action.isVisible()) await page.keyboard.press('Enter');
    await then.waitFor({ state: 'visible', timeout: 10_000 });
  }
}

/** The quick pick's rows (picker, palette). */
export function pickRows(page) {
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
}

/**
 * Types a prompt into a chat webview (the side bar's, or the editor's with `within: '.part.editor'`) and sends
 * it with Enter; resolves with the chat's frame once `done` (a selector in it) shows.
 */
export async function sendPrompt(page, text, { within = '.part.sidebar', done, timeout = 60_000 } = {}) {
  const chat = await inAnyFrame(page, '[data-testid="prompt"]', { within, timeout: 60_000 });
  await chat.loc.first().click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  if (done) await chat.frame.locator(done).first().waitFor({ state: 'visible', timeout });
  return chat.frame;
}

/** A new chat in the Generation view, from its title action: waits until the old conversation is gone. */
export async function newSidebarChat(page) {
  await showContainer(page);
  const view = await pane(page, 'Generation');
  await titleAction(view, 'New Generation Chat');
  const chat = await inAnyFrame(page, '[data-testid="prompt"]', { within: '.part.sidebar', timeout: 60_000 });
  const deadline = Date.now() + 15_000;
  while ((await chat.frame.locator('[data-testid="reply"]').count()) > 0) {
    if (Date.now() > deadline) throw new Error('New Generation Chat left the old conversation on screen');
    await page.waitForTimeout(200);
  }
  return chat.frame;
}
