// The UI tier's checks of the storage tree, the generation chat and the Request Log, done as a user does them:
// clicks in the tree views and their context menus, the command palette, prompts typed into the chat. The
// driver's half of each step (test/ui/driver.ts) only puts data in place.
import { cpus, loadavg } from 'node:os';
import { blankReport, consoleEntries, extensionLogLines, framesSeen, HANG_NEXT, HUNG } from './blankWebview.mjs';
import { inAnyFrame } from './frames.mjs';
import {
  collapse,
  contextMenu,
  newSidebarChat,
  palette,
  pane,
  pickRows,
  sendPrompt,
  showContainer,
  titleAction,
  treeRow,
} from './user.mjs';

/** The Storage view, shown, with the row at `path` (its folders expanded by clicks). */
async function storageRow(page, path) {
  await showContainer(page);
  return treeRow(await pane(page, 'Storage'), path);
}

const TRY_LIST = `.method[data-path='${JSON.stringify(['resources', 'shelves', 'methods', 'list'])}']`;

export const userChecks = {
  // The preview with a filled Try it form goes behind another editor of its group, then its tab is clicked:
  // the webview is made anew (no retained context) and the form comes back with the value typed.
  async discoveryTryItHidden(page) {
    const tab = page.locator('.tabs-container .tab', { hasText: 'Preview: Bookshelf' }).first();
    await tab.click();
    // A double click on the empty tab bar beside it opens a new untitled editor in the preview's group (the
    // palette's key does not always reach the workbench while the preview's webview has the focus).
    const tabBox = await tab.boundingBox();
    if (!tabBox) throw new Error('the preview tab has no box');
    await page.mouse.dblclick(tabBox.x + tabBox.width + 60, tabBox.y + tabBox.height / 2);
    await page
      .locator('.tabs-container .tab.active', { hasText: 'Untitled' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    const deadline = Date.now() + 15_000;
    while ((await inAnyFrame(page, `${TRY_LIST} .try-it`, { timeout: 0 }).catch(() => undefined)) !== undefined) {
      if (Date.now() > deadline) throw new Error('the preview still shows behind the new editor');
      await page.waitForTimeout(200);
    }
    if (await tab.evaluate((el) => el.classList.contains('active'))) throw new Error('the preview tab is still active');
    await tab.click();
    const { frame } = await inAnyFrame(page, `${TRY_LIST} .try-field[data-name="pageSize"] input`, {
      timeout: 30_000,
    });
    const value = await frame.locator(`${TRY_LIST} .try-field[data-name="pageSize"] input`).inputValue();
    if (value !== '7') throw new Error(`the value typed is lost when the preview was hidden: ${JSON.stringify(value)}`);
    await frame.locator(`${TRY_LIST} .try-it`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  },

  async storageComments(page) {
    // Opened from the tree with a click: the Comments panel names it by its folder path.
    await (await storageRow(page, ['My files', 'Projects', 'Roadmap'])).click();
    const widget = page.locator('.review-widget:visible').first();
    await widget.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await widget.innerText();
    if (!/Alex Partner/.test(text)) throw new Error(`comment thread lacks its author: ${text.slice(0, 200)}`);
  },

  async storageRevisionDiff(page) {
    // Revisions… from budget.csv's context menu, the revision before the save, Compare with current.
    const row = await storageRow(page, ['My files', 'Projects', 'budget.csv']);
    const rows = pickRows(page);
    await contextMenu(page, row, 'Revisions…', rows.first());
    const older = rows.filter({ hasNotText: '(current)' }).first();
    await older.waitFor({ state: 'visible', timeout: 30_000 });
    await older.click();
    await rows.filter({ hasText: 'Compare with current' }).first().click({ timeout: 15_000 });
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page
      .locator('.monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    // The current side is the file as the tree opens it: its breadcrumbs read its folders.
    const crumbs = page.locator('.editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item');
    await crumbs.first().waitFor({ state: 'visible', timeout: 30_000 });
    const read = (await crumbs.allInnerTexts()).map((t) => t.trim()).join(' › ');
    if (!read.startsWith('My files › Projects › budget.csv')) throw new Error(`the diff's breadcrumbs read ${read}`);
  },

  async storageMoveTo(page) {
    // Move to… from README.txt's context menu; the picker browses one level down, as a user would: Up, then the
    // folders of My files; README.txt is already in My files, so moving it there is not offered.
    const row = await storageRow(page, ['My files', 'README.txt']);
    const rows = pickRows(page);
    await contextMenu(page, row, 'Move to…', rows.first());
    await rows.filter({ hasText: 'My files' }).first().click({ timeout: 30_000 });
    await rows.filter({ hasText: 'Projects' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    if (await rows.filter({ hasText: 'Move to "My files"' }).count())
      throw new Error('offers to move README.txt where it already is');
  },

  // Opened from Starred with a click: the breadcrumbs read its folders from My files down, not its id.
  async storageBreadcrumbsStarred(page) {
    // My files folded first: its own budget.csv row must not be the one clicked.
    const mine = await storageRow(page, ['My files']);
    if ((await mine.getAttribute('aria-expanded')) === 'true') await mine.click();
    const row = await storageRow(page, ['Starred', 'budget.csv']);
    if ((await row.getAttribute('aria-level')) !== '2') throw new Error('budget.csv is not the row under Starred');
    await row.click();
    const items = page.locator('.editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item');
    await page
      .locator('.tabs-container .tab.active', { hasText: 'budget.csv' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await items.first().waitFor({ state: 'visible', timeout: 30_000 });
    const crumbs = (await items.allInnerTexts()).map((t) => t.trim());
    if (crumbs.slice(0, 3).join(' › ') !== 'My files › Projects › budget.csv')
      throw new Error(`breadcrumbs read ${crumbs.join(' › ')}`);
  },
  async storageBreadcrumbs(page) {
    // A nested file opened from the tree: the breadcrumbs read its folders from My files down.
    await page.keyboard.press('Escape');
    await (await storageRow(page, ['My files', 'Projects', 'notes.md'])).click();
    const items = page.locator('.editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item');
    await items.first().waitFor({ state: 'visible', timeout: 30_000 });
    const crumbs = (await items.allInnerTexts()).map((t) => t.trim());
    if (crumbs.slice(0, 3).join(' › ') !== 'My files › Projects › notes.md')
      throw new Error(`breadcrumbs read ${crumbs.join(' › ')}`);
  },

  async generation(page) {
    await newSidebarChat(page);
    // [[cite]] makes the sandbox model answer with code and citation metadata.
    const frame = await sendPrompt(page, 'Write a TypeScript function that adds two numbers. [[cite]]', {
      done: '[data-testid="regenerate"]',
    });
    // Give the panel the whole side bar, as a user reading a long reply would.
    for (const title of ['API Directory', 'Storage']) await collapse(page, title);
    const reply = frame.locator('[data-testid="reply"]').last();
    await reply.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    const text = await reply.innerText();
    if (text.trim().length < 20) throw new Error(`reply too short: ${JSON.stringify(text)}`);
  },

  // The chat as an editor tab, with a streamed answer holding a code block and citations.
  // A chat tab whose webview host frame never gets its service worker (the fault a CI run met after a reload,
  // injected by the runner) comes back by itself: the page watchdog sets the page again twice, which cannot help
  // (the same frame holds it), then replaces the panel; no Reload Webviews, no Reload Window.
  async generationBlankFrame(page, { reportFile }) {
    const since = Date.now();
    await page.evaluate((flag) => (window[flag] = true), HANG_NEXT);
    await palette(page, 'API Workbench: New Generation Chat in Editor');
    await inAnyFrame(page, '[data-testid="prompt"]', { within: '.part.editor', timeout: 45_000 }).catch(async (e) => {
      throw new Error(
        `the chat tab stayed blank: ${e.message}${blankReport(await framesSeen(page), { reportFile, since })}`,
        {
          cause: e,
        },
      );
    });
    if (!consoleEntries.some((c) => c.at >= since && c.text === HUNG))
      throw new Error('no webview host frame was hung: the check proved nothing');
    const { lines } = extensionLogLines(reportFile, since);
    if (!lines.some((l) => /Generation chat tab page .* replacing its panel with a new one \(3 of 3\)/.test(l)))
      throw new Error(`the log does not say the panel was replaced: ${JSON.stringify(lines)}`);
    const tabs = page.locator('.tabs-container .tab', { hasText: 'New chat' });
    if ((await tabs.count()) !== 1) throw new Error(`${await tabs.count()} chat tabs, not one`);
  },
  async generationEditor(page) {
    await palette(page, 'API Workbench: New Generation Chat in Editor');
    const frame = await sendPrompt(page, 'Write a TypeScript function that adds two numbers. [[cite]]', {
      within: '.part.editor',
      done: '[data-testid="citations"]',
    });
    const tab = page.locator('.tabs-container .tab.active', { hasText: 'Write a TypeScript function' });
    await tab.first().waitFor({ state: 'visible', timeout: 30_000 });
    const pre = frame.locator('[data-testid="reply"] pre').first();
    if (!(await pre.isVisible())) throw new Error('the reply shows no code block');
    // A code block is never cut off: what does not fit scrolls sideways inside the block.
    const fits = await pre.evaluate(
      (el) => el.scrollWidth <= el.clientWidth || getComputedStyle(el).overflowX === 'auto',
    );
    if (!fits) throw new Error('the code block is cut off');
    const excerpt = await frame.locator('.cited').first().innerText();
    if (/[`*]/.test(excerpt)) throw new Error(`a citation excerpt shows Markdown source: ${excerpt}`);
    // Show the focus ring a keyboard user sees on the Regenerate action.
    await frame.locator('[data-testid="regenerate"]').last().focus();
  },

  // The 2,000-chunk reply: frame pacing inside the panel is recorded while it streams and reported as a
  // measurement (speed is judged in figures, not by a timed assertion); the test asserts the panel kept
  // painting and showed the whole reply.
  async generationLongPrep(page) {
    const frame = await newSidebarChat(page);
    await frame.evaluate(() => {
      const w = window;
      w.__pacing = { gaps: [], longTasks: [] };
      let last = performance.now();
      const tick = (t) => {
        w.__pacing.gaps.push(t - last);
        last = t;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__pacing.longTasks.push(e.duration);
        }).observe({ type: 'longtask', buffered: false });
      } catch {
        /* longtask entries unsupported */
      }
    });
  },
  async generationLong(page) {
    // [[long:2000]] streams a 2,000-chunk reply; [[fast]] sends the chunks back to back.
    const frame = await sendPrompt(page, 'Stream test [[long:2000]] [[fast]]', {
      done: '[data-testid="regenerate"]',
      timeout: 120_000,
    });
    const m = await frame.evaluate(() => {
      const p = window.__pacing;
      const gaps = p.gaps.slice(1);
      const replies = document.querySelectorAll('[data-testid="reply"]');
      const text = replies[replies.length - 1]?.textContent ?? '';
      return {
        frames: gaps.length,
        maxGapMs: Math.max(0, ...gaps),
        longestTaskMs: Math.max(0, ...p.longTasks),
        longTasks: p.longTasks.length,
        replyChars: text.length,
      };
    });
    const load = loadavg()[0] / cpus().length;
    console.log(
      `  measurement: 2,000-chunk reply rendered with ${m.frames} frames painted, longest frame gap ${m.maxGapMs.toFixed(0)} ms, ${m.longTasks} long tasks (longest ${m.longestTaskMs.toFixed(0)} ms), ${m.replyChars} characters shown (load ${load.toFixed(1)} per core)`,
    );
    if (m.frames < 10) throw new Error(`the panel painted only ${m.frames} frames while streaming`);
    if (m.replyChars < 2000) throw new Error(`the reply shows only ${m.replyChars} characters`);
  },

  async generationBlocked(page) {
    await newSidebarChat(page);
    // [[block]] makes the sandbox model block the prompt for safety, as the real service reports it.
    const frame = await sendPrompt(page, 'Tell me something dangerous. [[block]]', { done: '[data-testid="notice"]' });
    const text = (await frame.locator('[data-testid="notice"]').allInnerTexts()).join('\n');
    if (!/block/i.test(text) || !/SAFETY/.test(text)) throw new Error(`no block reason shown: ${text.slice(0, 200)}`);
  },

  // A few calls of different features, as a user's first minutes make them (the water query is put in place by
  // the driver): the API Directory's and the Storage view's Refresh, then the Request Log and its output.
  async requestLog(page) {
    await showContainer(page);
    await titleAction(await pane(page, 'API Directory'), 'Refresh API Directory');
    await titleAction(await pane(page, 'Storage'), 'Refresh');
    const log = await pane(page, 'Request Log');
    const rows = log.locator('.monaco-list-row', { hasText: 'GET' });
    await rows.nth(2).waitFor({ state: 'visible', timeout: 30_000 });
    await titleAction(log, 'Show Request Log Output');
    // The output holds the whole session: its filter finds the water query among the later calls.
    // The Output view's own filter: other panel views (Problems, Comments) keep theirs in the page, hidden.
    // While the panel opens it can take the focus back from the box: typed again until the box holds the words.
    const filter = page.locator('.part.panel .viewpane-filter input:visible').first();
    for (let attempt = 0; (await filter.inputValue().catch(() => '')) !== 'Water data'; attempt++) {
      if (attempt === 5) throw new Error('the Output filter does not take the words typed');
      await filter.click({ timeout: 15_000 });
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Water data');
      await page.waitForTimeout(200);
    }
    // Every row's status shows whole, first, inside the side bar at its default width: not cut off.
    const cut = await rows.evaluateAll((els) =>
      els.flatMap((row) => {
        const name = row.querySelector('.label-name');
        const text = name?.textContent ?? '';
        const status = /^(\d{3}|failed) /.exec(text)?.[1];
        const first = name && document.createTreeWalker(name, NodeFilter.SHOW_TEXT).nextNode();
        if (!first || !status || !first.textContent.startsWith(status)) return [`no status first: ${text}`];
        const range = document.createRange();
        range.setStart(first, 0);
        range.setEnd(first, status.length);
        const shown = name.closest('.monaco-icon-label-container').getBoundingClientRect();
        return range.getBoundingClientRect().right <= shown.right ? [] : [`status cut off: ${text}`];
      }),
    );
    if (cut.length) throw new Error(cut.join('; '));
    const output = page.locator('.part.panel .monaco-editor .view-lines').first();
    await output.waitFor({ state: 'visible', timeout: 30_000 });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const lines = (await output.innerText()).replace(/\u00a0/g, ' ');
      if (/\[Water data\] GET/.test(lines)) break;
      if (Date.now() > deadline) throw new Error(`output channel lacks the water-data line: ${lines.slice(0, 300)}`);
      await page.waitForTimeout(250);
    }
  },

  // A click on the water-data row opens its details.
  async requestLogDetails(page) {
    // The other views folded, as a user reading the log does: the water query is then in view, not scrolled
    // out of a short pane (the list reuses its rows' elements as it scrolls).
    for (const title of ['API Directory', 'Generation', 'Storage']) await collapse(page, title);
    const log = await pane(page, 'Request Log');
    // In view (treeRow scrolled to it), so the click waits only for the row to stop moving as the views fold.
    await (await treeRow(log, ['/Locations'])).click({ timeout: 30_000 });
    const editor = page.locator('.part.editor .monaco-editor .view-lines').first();
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    // The editor renders spaces as no-break spaces.
    const text = (await editor.innerText()).replace(/\u00a0/g, ' ');
    if (!/x-api-key: REDACTED/.test(text))
      throw new Error(`details page lacks the redacted key: ${text.slice(0, 300)}`);
  },
};
