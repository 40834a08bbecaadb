// What a user does in the first minutes (the storage tree, a file opened from it, the chat in the side bar
// and in an editor) sends each GET once: the Request Log records every request that leaves the extension for
// the sandbox, and none of them may be the same GET twice.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RequestEvent } from '../../../src/shared/http';
import type { TestNode } from '../../../src/storage/vscode/register';

const storage = <T>(name: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`apiWorkbench.storage.${name}`, ...args);
const log = async () =>
  (await vscode.commands.executeCommand<{ entries: RequestEvent[] }>('apiWorkbench._testRequestLog')).entries;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the log has been quiet for a second (the last answers read), then returns its GETs. */
async function settledGets(): Promise<RequestEvent[]> {
  let last = -1;
  for (let i = 0; i < 60; i++) {
    const entries = await log();
    const open = entries.some((e) => e.phase === 'headers');
    if (!open && entries.length === last) break;
    last = entries.length;
    await sleep(1000);
  }
  return (await log()).filter((e) => e.method === 'GET');
}

function duplicates(gets: RequestEvent[]): string[] {
  const seen = new Map<string, number>();
  for (const e of gets) seen.set(e.url, (seen.get(e.url) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([url, n]) => `${n}× GET ${url}`);
}

describe('requests: no duplicate GETs during the same user actions', function () {
  this.timeout(180_000);

  before(async () => {
    await vscode.extensions.getExtension('api-workbench.api-workbench')?.activate();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the storage tree and a file opened from it send each GET once', async () => {
    await vscode.commands.executeCommand('apiWorkbench.requestLog.clear');
    // The view is shown and refreshed, My files is expanded, a file is opened by a click, as a user would.
    await vscode.commands.executeCommand('apiWorkbench.storage.focus');
    await storage('refresh');
    const files = await storage<TestNode[]>('_testChildren', ['My files']);
    const file = files.find((n) => n.type === 'file' && /\.(txt|json|md|csv)$/.test(n.label));
    assert.ok(file, `a text file in My files: ${files.map((n) => n.label).join(', ')}`);
    await storage('_testRun', ['My files', file.label], 'open');
    assert.ok(vscode.window.activeTextEditor?.document.getText() !== undefined, 'the file is open');
    const gets = await settledGets();
    assert.ok(
      gets.some((e) => e.url.includes(`/files/${file.id}`)),
      `the file was read: ${gets.map((e) => e.url).join('\n')}`,
    );
    assert.deepEqual(duplicates(gets), [], gets.map((e) => e.url).join('\n'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the chat in the side bar and in an editor load the model list once', async () => {
    await vscode.commands.executeCommand('apiWorkbench.requestLog.clear');
    await vscode.commands.executeCommand('apiWorkbench.generation.open');
    await vscode.commands.executeCommand('apiWorkbench.generation._testNewChat');
    // Two chats in the editor area: each surface asks for the model list when it opens.
    await vscode.commands.executeCommand('apiWorkbench.generation.newChatInEditor');
    await sleep(1500);
    await vscode.commands.executeCommand('apiWorkbench.generation.newChatInEditor');
    await sleep(1500);
    const gets = await settledGets();
    const models = gets.filter((e) => /\/v1beta\/models\?/.test(e.url));
    assert.ok(models.length <= 1, `the model list was loaded ${models.length} times`);
    assert.deepEqual(duplicates(gets), [], gets.map((e) => e.url).join('\n'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
