// The Request Log records a real call of each feature on the sandbox, with no credential in any form
// the user can see (the entry, the details page, "Copy as curl").
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RequestEvent } from '../../../src/shared/http';
import type { WorkbenchServices } from '../../../src/platform/services';

interface LogSnapshot {
  entries: RequestEvent[];
  curl: string[];
  details: string[];
  rows: { label: string; description: string }[];
}

const snapshot = () => vscode.commands.executeCommand<LogSnapshot>('apiWorkbench._testRequestLog');

/** Waits until the log holds a finished call that `match` accepts. */
async function logged(what: string, match: (e: RequestEvent) => boolean): Promise<RequestEvent> {
  for (let i = 0; i < 300; i++) {
    const found = (await snapshot()).entries.find((e) => e.phase !== 'headers' && match(e));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seen = (await snapshot()).entries.map((e) => `${e.feature} ${e.method} ${e.url} ${e.phase}`);
  throw new Error(`no ${what} in the request log; it holds:\n${seen.join('\n')}`);
}

describe('Request Log: every feature, no secret', () => {
  let services: WorkbenchServices;

  before(async () => {
    const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
    assert.ok(ext, 'the extension is loaded');
    services = (await ext.activate()) as WorkbenchServices;
    await vscode.commands.executeCommand('apiWorkbench.requestLog.clear');
  });

  it('records a call of each feature on the sandbox, with method, redacted URL, status, size and time', async function () {
    this.timeout(180_000);
    const testStarted = Date.now();
    // Discovery: the API Directory view lists the sandbox directory.
    await vscode.commands.executeCommand('apiWorkbench.directory.refresh');
    const directory = await logged('directory list', (e) => e.feature === 'discovery');
    assert.equal(directory.method, 'GET');
    assert.equal(directory.status, 200);

    // Storage: the tree lists My files. Earlier suites (and the view itself, when visible) may have loaded
    // it already, and the tree keeps a loaded listing: Refresh forgets it, as a user's Refresh would.
    await vscode.commands.executeCommand('apiWorkbench.storage.refresh');
    await vscode.commands.executeCommand('apiWorkbench.storage._testChildren', ['My files']);
    const storage = await logged('storage files.list', (e) => e.feature === 'storage' && /\/files\b/.test(e.url));
    assert.equal(storage.status, 200);
    assert.equal(storage.requestHeaders.authorization, 'REDACTED');

    // Generation: a prompt in the chat.
    await vscode.commands.executeCommand('apiWorkbench.generation.open');
    await vscode.commands.executeCommand('apiWorkbench.generation._testNewChat');
    await vscode.commands.executeCommand('apiWorkbench.generation._testSend', 'Hello from the request log test');
    const generation = await logged('generation call', (e) => e.feature === 'generation' && e.method === 'POST');
    assert.equal(generation.status, 200);
    assert.equal(generation.requestHeaders['x-goog-api-key'], 'REDACTED');

    // Water data: a query cell runs (through the rate limiter).
    const doc = await vscode.workspace.openNotebookDocument(
      'apiWorkbench.waterNotebook',
      new vscode.NotebookData([
        new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '/Locations?$top=2', 'water-query'),
      ]),
    );
    await vscode.window.showNotebookDocument(doc);
    await vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: 0, end: 1 }],
      document: doc.uri,
    });
    const water = await logged('water query', (e) => e.feature === 'waterData' && e.url.includes('/Locations'));
    assert.equal(water.status, 200);
    assert.equal(water.requestHeaders['x-api-key'], 'REDACTED');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    for (const e of [directory, storage, generation, water]) {
      assert.ok(e.responseBytes !== undefined && e.responseBytes > 0, `${e.feature}: size ${e.responseBytes}`);
      // The call is timed within this test's own span: it started after the test did and has ended.
      assert.ok(e.startedAt >= testStarted, `${e.feature}: started ${e.startedAt} before the test (${testStarted})`);
      assert.ok(e.startedAt + e.durationMs <= Date.now(), `${e.feature}: ends in the future (${e.durationMs} ms)`);
      assert.match(e.url, /^http:\/\/127\.0\.0\.1:\d+\//);
    }

    // No credential anywhere: not in an entry, a details page or a curl command.
    const secrets: string[] = [];
    for (const service of ['storage', 'generation', 'waterData'] as const) {
      const credential = (await services.endpoints.resolve(service)).credential;
      assert.ok(credential, `the sandbox hands ${service} a credential`);
      secrets.push(credential);
    }
    const log = await snapshot();
    const everything = JSON.stringify(log);
    for (const s of secrets) assert.ok(!everything.includes(s), 'a sandbox credential leaked into the request log');
    const curl = log.curl[log.entries.indexOf(log.entries.find((e) => e.id === water.id)!)];
    assert.match(curl, /-H 'x-api-key: '"\$API_KEY"/);
    const storageCurl = log.curl[log.entries.findIndex((e) => e.id === storage.id)];
    assert.match(storageCurl, /-H 'authorization: Bearer '"\$ACCESS_TOKEN"/);

    // Each row leads with its status and method: a narrow side bar cuts the path, not the status.
    const row = (e: RequestEvent) => log.rows[log.entries.findIndex((x) => x.id === e.id)];
    assert.match(row(storage).label, /^200 GET \/store\/v2\/files\b/);
    assert.match(row(water).label, /^200 GET \/v1\/odata\/v4\/Locations\?…$/);
    assert.match(row(generation).label, /^200 POST \/v1beta\/models\//);
    assert.match(row(water).description, /^\d+(\.\d)? (B|KB) · \d+ ms/, 'size and time, the status not twice');
  });

  it('opens a read-only details page and copies a call as curl with the key as a placeholder', async () => {
    const water = (await snapshot()).entries.find((e) => e.feature === 'waterData' && e.url.includes('/Locations'));
    assert.ok(water, 'a water-data call from the test before');
    await vscode.commands.executeCommand('apiWorkbench.requestLog.openDetails', water);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'the details page is open');
    assert.equal(editor.document.uri.scheme, 'api-workbench-request');
    // The tab is named after the request (method and path), not the host and port.
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'GET v1\u2215odata\u2215v4\u2215Locations?…');
    assert.equal(editor.document.languageId, 'plaintext');
    assert.match(editor.document.getText(), /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/odata\/v4\/Locations/);
    assert.match(editor.document.getText(), /x-api-key: REDACTED/);
    assert.match(editor.document.getText(), /--- Response: 200/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await vscode.commands.executeCommand('apiWorkbench.requestLog.copyAsCurl', water);
    const copied = await vscode.env.clipboard.readText();
    assert.match(copied, /^# Set \$API_KEY first/);
    assert.match(copied, /^curl \\$/m);
    const key = (await services.endpoints.resolve('waterData')).credential!;
    assert.ok(!copied.includes(key));
  });

  it('clears', async () => {
    await vscode.commands.executeCommand('apiWorkbench.requestLog.clear');
    assert.equal((await snapshot()).entries.length, 0);
  });
});
