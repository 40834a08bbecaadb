// `npm run test:ui`: the UI smoke tier. code-server + Debian Chromium; the extension-host driver
// (test/ui/driver.ts) brings each surface up, this side asserts what a user sees and saves a screenshot
// to test-results/ui/<surface>.png.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { ensureCodeServer } from '../support/codeServer.mjs';
import { runHostTests } from '../support/hostRunner.mjs';
import { HANG_NEXT, HUNG, hangNextWebviewFrame, recordConsole, webviewId } from './blankWebview.mjs';
import { inAnyFrame } from './frames.mjs';
import { editorAction, pane, showContainer } from './user.mjs';
import { userChecks } from './userChecks.mjs';
import { walkChecks } from './walk.mjs';
import { storageSyncChecks } from './storageSync.mjs';
import { waterQueryChecks } from './waterQuery.mjs';
import { evalGridChecks } from './evalGrid.mjs';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);
const shots = join(root, 'test-results', 'ui');
mkdirSync(shots, { recursive: true });
// The workbench's and the webviews' console (a blank webview says why here, e.g. a service worker it waits
// for: code-server serves every webview from one origin), with each step marked.
const consoleLog = join(shots, 'console.log');
writeFileSync(consoleLog, '');

ensureCodeServer();
execFileSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
await esbuild.build({
  entryPoints: ['test/ui/driver.ts'],
  outfile: 'out/ui/driver.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  logLevel: 'warning',
});

/** The discovery editor's title button that opens its reference preview. */
const PREVIEW = 'Open API Preview to the Side';

const checks = {
  async discovery(page) {
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'visible', timeout: 30_000 });
    const row = page.locator('.markers-panel .monaco-list-row').first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await page.locator('.markers-panel').innerText();
    if (!/\$ref|schema/i.test(text)) throw new Error(`Problems panel does not mention the $ref: ${text.slice(0, 200)}`);
  },
  async discoveryHover(page) {
    const hover = page.locator('.monaco-hover:visible').first();
    await hover.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await hover.innerText();
    if (!/Shelf/.test(text) || !/object/i.test(text))
      throw new Error(`hover does not show the Shelf schema: ${text.slice(0, 200)}`);
  },
  async discoveryPreview(page) {
    await page.keyboard.press('Escape');
    await editorAction(page, PREVIEW);
    const { frame } = await inAnyFrame(page, '.method .verb', { timeout: 30_000 });
    const text = await frame.locator('body').innerText();
    if (!/Bookshelf API/.test(text) || !/https:\/\/bookshelf\.example\.com\//.test(text))
      throw new Error('preview lacks the title or method URLs');
  },
  async discoveryDiff(page) {
    const view = page.locator('.part.sidebar');
    await view
      .locator('.monaco-list-row', { hasText: 'Breaking' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    const text = await view.innerText();
    for (const want of ['Breaking', 'parameter-made-required', 'property-removed', 'Info'])
      if (!text.includes(want)) throw new Error(`the Revision Diff view lacks ${want}: ${text.slice(0, 300)}`);
  },
  async discoveryExport(page) {
    const tab = page.locator('.tabs-container .tab', { hasText: 'store.openapi.json' });
    await tab.first().waitFor({ state: 'visible', timeout: 30_000 });
    const groups = page.locator('.part.editor .editor-group-container');
    if ((await groups.count()) < 2) throw new Error('the export is not beside its source');
    const text = (await page.locator('.part.editor').innerText()).replace(/\u00a0/g, ' ');
    if (!/"openapi": "3\.1\.0"/.test(text)) throw new Error(`no OpenAPI document shows: ${text.slice(0, 300)}`);
  },
  async discoveryTryIt(page) {
    await editorAction(page, PREVIEW);
    const list = `.method[data-path='${JSON.stringify(['resources', 'files', 'methods', 'list'])}']`;
    const { frame } = await inAnyFrame(page, `${list} .try-it-open`, { timeout: 60_000 });
    await frame.locator(`${list} .try-it-open`).click();
    const row = frame.locator(`${list} .try-field[data-name="maxResults"] input`);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    // Optional booleans start unset (their default named, nothing sent) until the user picks a value.
    for (const name of ['includeItemsFromAllDrives', 'supportsAllDrives']) {
      const select = frame.locator(`${list} .try-field[data-name="${name}"] select`);
      const value = await select.inputValue();
      const shown = await select.evaluate((s) => s.options[s.selectedIndex]?.textContent ?? '');
      if (value !== '' || !/not sent; default false/.test(shown))
        throw new Error(`${name} starts as ${JSON.stringify(value)} (${shown}), not unset`);
    }
    await row.fill('3');
    await frame.locator(`${list} .try-send`).click();
    const status = frame.locator(`${list} .try-status.ok`);
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    if (!/^200 /.test(await status.innerText())) throw new Error(`status: ${await status.innerText()}`);
    // The user reads the response: the panel's head, the status and the start of the body in view.
    await frame.locator(`${list} .try-it`).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
  },
  async discoveryTryItBody(page) {
    const insert = `.method[data-path='${JSON.stringify(['resources', 'files', 'methods', 'insert'])}']`;
    const { frame } = await inAnyFrame(page, `${insert} .try-it-open`, { timeout: 60_000 });
    await frame.locator(`${insert} .try-it-open`).click();
    const area = frame.locator(`${insert} textarea.try-body`);
    await area.waitFor({ state: 'visible', timeout: 30_000 });
    await area.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    // Into the seed (`{}`: File has 71 properties, none required), and start a property name.
    await area.click();
    await area.evaluate((el) => {
      const at = el.value.indexOf('{') + 1;
      el.setSelectionRange(at, at);
    });
    await page.keyboard.press('Enter');
    await page.keyboard.type('  "ti');
    // The list opened at the quote narrows as the name is typed: the selected item comes to be title.
    const option = frame.locator(`${insert} [role="option"][aria-selected="true"]`);
    await option
      .filter({ hasText: /^title/ })
      .waitFor({ state: 'visible', timeout: 10_000 })
      .catch(async () => {
        throw new Error(`first suggestion: ${await option.innerText()}`);
      });
    const active = await area.getAttribute('aria-activedescendant');
    if (!active || active !== (await option.getAttribute('id')))
      throw new Error('aria-activedescendant does not name the selected option');
    // Enter accepts: the name, a colon and an empty string, the caret inside it.
    await page.keyboard.press('Enter');
    await page.keyboard.type('Notes');
    const value = await area.inputValue();
    if (!/"title": "Notes"/.test(value)) throw new Error(`accepting did not insert the property: ${value}`);
    // The next member: Ctrl+Space lists what is left (title no more), arrows move through it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type(',');
    await page.keyboard.press('Enter');
    await page.keyboard.type('  ');
    await page.keyboard.press('Control+Space');
    const options = frame.locator(`${insert} [role="listbox"] [role="option"]`);
    await options.nth(3).waitFor({ state: 'visible', timeout: 10_000 });
    if ((await options.allInnerTexts()).some((t) => /^title/.test(t))) throw new Error('title is offered twice');
    // Narrowed by typing, the selected item's description shown under the list.
    await page.keyboard.type('"pa');
    await frame
      .locator(`${insert} [role="option"][aria-selected="true"]`, { hasText: 'parents' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    const docs = frame.locator(`${insert} .try-suggest-docs`);
    if (!/Folders/.test(await docs.innerText())) throw new Error(`no description: ${await docs.innerText()}`);
    await frame.locator(`${insert} .try-label`).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
  },
  async discoveryTryItKept(page) {
    await editorAction(page, PREVIEW);
    const list = `.method[data-path='${JSON.stringify(['resources', 'shelves', 'methods', 'list'])}']`;
    const { frame } = await inAnyFrame(page, `${list} .try-it-open`, { timeout: 60_000 });
    await frame.locator(`${list} .try-it-open`).click();
    const input = frame.locator(`${list} .try-field[data-name="pageSize"] input`);
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill('7');
  },
  async discoveryTryItGone(page) {
    // After the edit the form is still there, saying its method is gone, with the value typed.
    const { frame } = await inAnyFrame(page, '.try-gone .try-gone-note', { timeout: 30_000 });
    const note = await frame.locator('.try-gone .try-gone-note').innerText();
    if (!/bookshelf\.shelves\.list is no longer in the document/.test(note)) throw new Error(`note: ${note}`);
    const value = await frame.locator('.try-gone .try-field[data-name="pageSize"] input').inputValue();
    if (value !== '7') throw new Error(`the value typed is lost: ${JSON.stringify(value)}`);
    if (!(await frame.locator('.try-gone .try-send').isDisabled()))
      throw new Error('Send is enabled for a gone method');
  },
  async storage(page) {
    await showContainer(page);
    const rows = (await pane(page, 'Storage')).locator('.monaco-list-row');
    await rows.nth(1).waitFor({ state: 'visible', timeout: 30_000 });
    const labels = await rows.allInnerTexts();
    if (labels.filter((l) => l.trim()).length < 2)
      throw new Error(`storage tree shows too little: ${JSON.stringify(labels)}`);
  },
  async waterData(page) {
    // The notebook's Run All (its toolbar lies over the editor area, outside the editor part).
    const runAll = page
      .locator('.notebookOverlay .notebook-toolbar-container .action-item', { hasText: /^Run All$/ })
      .first();
    await runAll.click({ timeout: 30_000 });
    await page.mouse.move(900, 250);
    const { frame } = await inAnyFrame(page, '[data-testid="water-table"] [role="row"]', {
      minCount: 5,
      timeout: 60_000,
    });
    const text = await frame.locator('body').innerText();
    if (!/doi\.org/i.test(text)) throw new Error('result shows no DOI link');
    // Every cell has run when Run All is offered again (Stop Execution stands in its place meanwhile).
    await runAll.waitFor({ state: 'visible', timeout: 60_000 });
  },
};

Object.assign(checks, walkChecks, userChecks, waterQueryChecks, storageSyncChecks, evalGridChecks);

const workspace = mkdtempSync(join(tmpdir(), 'apiwb-ui-ws-'));
cpSync(join(root, 'samples'), workspace, { recursive: true });
let page;
let passed = 0;
let failed = 0;
const failures = [];
const pending = [];
let done;
const finished = new Promise((r) => (done = r));

const code = await runHostTests({
  extensionPath: root,
  testsModule: join(root, 'out', 'ui', 'driver.js'),
  folder: workspace,
  quiet: true,
  timeoutMs: 10 * 60_000,
  env: process.env.API_WORKBENCH_UI_STEPS ? { API_WORKBENCH_UI_STEPS: process.env.API_WORKBENCH_UI_STEPS } : {},
  settings: { 'workbench.colorTheme': 'Default Dark Modern', 'window.commandCenter': false },
  onPage: async (p) => {
    page = p;
    p.on('console', (m) => {
      recordConsole(m);
      // A webview's lines name it (the id in its frames' URLs), so a blank one's lines can be told apart.
      const id = webviewId(m.location()?.url ?? '');
      appendFileSync(consoleLog, `${m.type()}${id ? ` [webview ${id}]` : ''} ${m.text()}\n`);
    });
    p.on('pageerror', (e) => appendFileSync(consoleLog, `pageerror ${e.message}\n`));
    await p.setViewportSize({ width: 1400, height: 900 });
    // The generationBlankFrame step's fault (test/ui/blankWebview.mjs); nothing happens until a step sets the flag.
    await p.context().addInitScript(hangNextWebviewFrame, [HANG_NEXT, HUNG]);
  },
  onLine: (line, reportFile) => {
    const step = /^UI-STEP (\w+)/.exec(line)?.[1];
    if (step) {
      appendFileSync(consoleLog, `--- step ${step}\n`);
      pending.push(
        (async () => {
          let verdict = 'ok';
          try {
            await checks[step](page, { reportFile, shots, workspace });
          } catch (err) {
            verdict = err.message.split('\n')[0];
          }
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(shots, `${step}.png`) });
          writeFileSync(`${reportFile}.ack-${step}`, verdict);
        })(),
      );
    } else if (line.startsWith('UI-PASS')) {
      passed++;
      console.log(`  ✔ ${line.slice(8)} (screenshot test-results/ui/${line.slice(8)}.png)`);
    } else if (line.startsWith('UI-FAIL')) {
      failed++;
      failures.push(line.slice(8));
      console.log(`  ✘ ${line.slice(8)}`);
    } else if (line === 'UI-DONE') {
      done();
    }
  },
});
await Promise.race([finished, new Promise((r) => setTimeout(r, 1000))]);
await Promise.allSettled(pending);
rmSync(workspace, { recursive: true, force: true });
console.log(`ui: ${passed} passed, ${failed} failed`);
process.exit(code !== 0 || failed > 0 || passed === 0 ? 1 : 0);
