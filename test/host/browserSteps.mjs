// The browser half of host tests that need a user: the extension-host test writes `HOST-STEP <name>`
// to the report file and waits for `<report>.ack-<name>`; here Playwright does what a user would do in
// the workbench page and in the tabs it opens, then writes the verdict ('ok' or the failure).
import { mkdirSync, writeFileSync } from 'node:fs';

const DIALOG = '.monaco-dialog-box';

async function dialogButton(page, name) {
  const button = page.locator(DIALOG).getByRole('button', { name, exact: true });
  return (await button.count()) > 0 && (await button.first().isVisible()) ? button.first() : undefined;
}

/**
 * The tab the extension's openExternal opened. On the way VS Code may ask whether the extension may sign
 * in with the provider (Allow), and, when the browser blocked the tab or the link is not to a trusted
 * domain, whether to open it (Open): the user says yes to both.
 */
async function openedTab(page, before, timeout = 30_000) {
  const context = page.context();
  const deadline = Date.now() + timeout;
  for (;;) {
    const fresh = context.pages().find((p) => !before.has(p));
    if (fresh) return fresh;
    for (const name of ['Allow', 'Open']) {
      const button = await dialogButton(page, name);
      if (button) await button.click().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error('the sign-in page never opened in the browser');
    await page.waitForTimeout(200);
  }
}

/**
 * The user opens the Accounts menu, picks the sign-in VS Code offers there for our provider, and answers
 * the sandbox consent page with `choice`. (VS Code refuses modal dialogs while extension tests run, so
 * the Accounts menu is the sign-in entry a test can drive; the Sign In command adds only that modal.)
 */
async function consent(page, choice) {
  const before = new Set(page.context().pages());
  await page.locator('.activitybar [aria-label^="Accounts"]').first().click();
  const item = page.getByRole('menuitem', { name: /API Workbench Storage/ }).first();
  await item.waitFor({ state: 'visible', timeout: 30_000 });
  let tab;
  try {
    tab = await clickUntilTab(page, item, before);
  } finally {
    // A menu left open blocks every later click in the workbench (the next steps would fail for no reason).
    if (await item.isVisible().catch(() => false)) await page.keyboard.press('Escape');
  }
  try {
    await tab.waitForLoadState('domcontentloaded');
    const heading = (await tab.locator('h1').first().innerText({ timeout: 30_000 })).trim();
    if (heading !== 'API Workbench sandbox')
      throw new Error(`the opened tab is not the consent page: ${tab.url().replace(/\?.*/, '')} shows "${heading}"`);
    await tab.getByRole('button', { name: choice, exact: true }).click();
    // The redirect lands on the extension's loopback listener (through code-server's port proxy).
    const expected = choice === 'Allow' ? 'Signed in' : 'Sign-in failed';
    await tab.locator('h1', { hasText: expected }).waitFor({ state: 'visible', timeout: 30_000 });
  } finally {
    await tab.close().catch(() => undefined);
  }
}

/**
 * Clicks the Accounts menu item until the sign-in starts. A VS Code menu item listens for mouseup only from
 * 100 ms after it is rendered (so the release of the click that opened the menu picks nothing): a click
 * sooner is dropped, the menu stays open with the item highlighted and nothing runs. So the step waits
 * like a user reading the menu, and clicks again while the menu is still open; a click that ran closes
 * the menu, so the sign-in is never started twice.
 */
async function clickUntilTab(page, item, before) {
  for (let attempt = 1; ; attempt++) {
    await page.waitForTimeout(300);
    await item.click();
    try {
      return await openedTab(page, before, 10_000);
    } catch (err) {
      const stillOpen = await item.isVisible().catch(() => false);
      if (!stillOpen) return openedTab(page, before, 20_000);
      if (attempt === 3) throw err;
      console.log(`[host] the Accounts menu item dropped click ${attempt}; clicking again`);
    }
  }
}

/** The endpoints item is in the status bar (the entry creates it at activation, before any feature loads). */
async function statusBarEndpoints(page) {
  const item = page.locator('.statusbar-item').filter({ hasText: /API: (sandbox|real|\d+ real)/ });
  await item.first().waitFor({ state: 'visible', timeout: 30_000 });
}

/** Clicks Undo in the notification the last trash showed. */
async function notificationUndo(page) {
  const undo = page.locator('.notification-toast').getByRole('button', { name: 'Undo', exact: true });
  await undo.first().waitFor({ state: 'visible', timeout: 30_000 });
  await undo.first().click();
}

/** The text selected in the open input box (then closes it): what a user would type over. */
async function quickInputSelection(page) {
  const input = page.locator('.quick-input-widget .quick-input-box input').first();
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  const selected = await input.evaluate((el) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0));
  await page.keyboard.press('Escape');
  return selected;
}

/** Clicks the quick-pick row whose label (icons aside) is `label`, once the list shows it. */
async function quickPickItem(page, label) {
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const deadline = Date.now() + 30_000;
  for (;;) {
    for (const row of await rows.all()) {
      const text = (
        await row
          .locator('.label-name')
          .first()
          .innerText()
          .catch(() => '')
      ).trim();
      if (text === label) return row.click();
    }
    if (Date.now() > deadline) {
      const seen = await rows.locator('.label-name').allInnerTexts();
      throw new Error(`no quick-pick item "${label}" (shown: ${seen.map((t) => t.trim()).join(' | ')})`);
    }
    await page.waitForTimeout(200);
  }
}

/** Closes the open quick pick as a user's Escape would. */
async function quickPickEscape(page) {
  await page.locator('.quick-input-widget').first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Escape');
}

/** The breadcrumbs above the active editor, as the user reads them (`a › b › c`). */
async function editorBreadcrumbs(page) {
  const items = page.locator('.editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item');
  await items.first().waitFor({ state: 'visible', timeout: 30_000 });
  return (await items.allInnerTexts()).map((t) => t.trim()).join(' › ');
}

export const browserSteps = {
  'notification-undo': notificationUndo,
  'quick-input-selection': quickInputSelection,
  'status-bar-endpoints': statusBarEndpoints,
  'quick-pick-escape': quickPickEscape,
  'editor-breadcrumbs': editorBreadcrumbs,
  // With an argument: `quick-pick-item:<label, URI-encoded>`.
  'quick-pick-item': quickPickItem,
  'accounts-sign-in-allow': (page) => consent(page, 'Allow'),
  'accounts-sign-in-deny': (page) => consent(page, 'Deny'),
};

/** What the workbench shows (dialogs, notifications) and a screenshot, for a failed step's message. */
async function describeScreen(page) {
  if (!page) return '';
  try {
    mkdirSync('test-results/host', { recursive: true });
    await page.screenshot({ path: 'test-results/host/failed-step.png' });
    const texts = await page.locator(`${DIALOG}, .notification-toast`).allInnerTexts();
    const tabs = page
      .context()
      .pages()
      .map((p) => p.url().replace(/\?.*/, ''))
      .join(', ');
    return ` (tabs: ${tabs}; screen: ${texts.map((t) => t.replace(/\s+/g, ' ').trim()).join(' | ') || 'no dialog or notification'}; screenshot test-results/host/failed-step.png)`;
  } catch {
    return '';
  }
}

/** For runHostTests' onLine: runs a requested step and acknowledges it. */
export function handleStepLine(line, reportFile, page) {
  const step = /^HOST-STEP (\S+)/.exec(line)?.[1];
  if (!step) return undefined;
  return (async () => {
    let verdict = 'ok';
    try {
      if (!page()) throw new Error('the workbench page is not ready');
      const [name, arg] = step.split(/:(.*)/s);
      const run = browserSteps[name];
      if (!run) throw new Error(`unknown browser step ${step}`);
      // A step that reads something answers `ok:<what it read>`.
      const value = await run(page(), arg === undefined ? undefined : decodeURIComponent(arg));
      if (typeof value === 'string') verdict = `ok:${value}`;
    } catch (err) {
      verdict = String(err?.message ?? err).split('\n')[0] || 'failed';
      verdict += await describeScreen(page());
    }
    writeFileSync(`${reportFile}.ack-${step}`, verdict);
  })();
}
