// The webview page watchdog in a real extension host: a chat tab whose page stays silent (the test seam makes
// its first loads' `ready` go unheard, as when VS Code leaves the frame blank) is set again by the watchdog and
// becomes usable, each reload is written to the extension's log, and a page that stays silent through every
// reload is given up on once, with nothing more after its tab is closed.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RenderedAck } from '../../../src/generation/protocol';
import type { WorkbenchServices } from '../../../src/platform/services';

const EXTENSION_ID = 'api-workbench.api-workbench';
const LOG_NAME = 'API Workbench.log';
const RELOADED =
  /webview: the Generation chat tab page did not report ready within [\d.]+ s of being shown; setting it again \((\d) of 3\)/g;
const GAVE_UP = /webview: the Generation chat tab page stayed blank after 3 more loads/g;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The extension's log file (its LogOutputChannel writes under the extension's log folder). */
function logFile(services: WorkbenchServices): string {
  const dir = services.context.logUri.fsPath;
  const candidates = [join(dir, LOG_NAME), join(dir, '..', LOG_NAME)];
  if (existsSync(dir))
    for (const e of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
      if (e.endsWith(LOG_NAME)) candidates.push(join(dir, e));
  const found = candidates.find((f) => existsSync(f));
  if (!found) throw new Error(`no ${LOG_NAME} under ${dir}`);
  return found;
}

function logText(services: WorkbenchServices): string {
  return readFileSync(logFile(services), 'utf8');
}

/** Waits until the log, from `from` on, matches `pattern` `count` times; returns those matches. */
async function logged(services: WorkbenchServices, from: number, pattern: RegExp, count = 1): Promise<string[]> {
  let found: string[] = [];
  for (let i = 0; i < 100; i++) {
    found = [...logText(services).slice(from).matchAll(pattern)].map((m) => m[0]);
    if (found.length >= count) return found;
    await sleep(100);
  }
  throw new Error(`the log holds ${found.length} of ${count} lines like ${pattern}:\n${logText(services).slice(from)}`);
}

const editorChat = <T>(op: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>('apiWorkbench.generation._testEditorChat', op, ...args);

suite('webview page watchdog', function () {
  this.timeout(90_000);
  let services: WorkbenchServices;

  suiteSetup(async () => {
    const s = (await vscode.extensions.getExtension(EXTENSION_ID)?.activate()) as WorkbenchServices | undefined;
    if (!s) throw new Error('the extension under test handed out no services');
    services = s;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a chat tab whose page stays silent is set again, becomes usable, and the reload is logged', async () => {
    await vscode.commands.executeCommand('apiWorkbench.generation._testSilentPage', 1, 1500);
    // The seam may load the feature: the log's length is read after it.
    const from = logText(services).length;
    // Opening waits for the page's ready: without the watchdog the one silent load never becomes ready.
    const opened = vscode.commands.executeCommand('apiWorkbench.generation.newChatInEditor');
    const outcome = await Promise.race([
      Promise.resolve(opened).then(() => 'ready'),
      sleep(30_000).then(() => 'still blank after 30 s'),
    ]);
    assert.equal(outcome, 'ready', 'the silent chat tab was loaded again and reported ready');
    const ack = await editorChat<RenderedAck>('send', 'Watchdog check: name a river. [[fast]]');
    assert.equal(ack.state, 'done');
    assert.match(ack.visibleText, /Watchdog check: name a river\./);
    const lines = await logged(services, from, RELOADED);
    assert.equal(lines.length, 1, `one reload, not more: ${lines.join(' | ')}`);
    assert.match(lines[0], /\(1 of 3\)/);
  });

  test('a page silent through every reload is given up on once; nothing fires after its tab closes', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('apiWorkbench.generation._testSilentPage', 99, 400);
    const from = logText(services).length;
    // It never becomes ready: the command's own wait fails later, which is not what this test looks at.
    void Promise.resolve(vscode.commands.executeCommand('apiWorkbench.generation.newChatInEditor')).catch(() => {});
    const reloads = await logged(services, from, RELOADED, 3);
    assert.deepEqual(
      reloads.map((l) => /\((\d) of 3\)/.exec(l)?.[1]),
      ['1', '2', '3'],
    );
    await logged(services, from, GAVE_UP);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const closedAt = logText(services).length;
    await sleep(2000);
    const after = logText(services).slice(closedAt);
    assert.doesNotMatch(after, RELOADED, 'no reload after the tab closed');
    assert.doesNotMatch(after, GAVE_UP, 'no second warning');
  });
});
