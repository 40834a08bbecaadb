import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../../src/platform/services';
import type { TestNode } from '../../../src/storage/vscode/register';

const storage = <T>(name: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`apiWorkbench.storage.${name}`, ...args);
const children = (labels: string[]) => storage<TestNode[]>('_testChildren', labels);
const api = <T>(method: string, params: Record<string, unknown>, body?: unknown) =>
  storage<T>('_testClient', method, params, body);
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

async function services(): Promise<WorkbenchServices> {
  const ext = vscode.extensions.all.find(
    (e) => (e.packageJSON as { name?: string } | undefined)?.name === 'api-workbench',
  );
  assert.ok(ext, 'the extension is loaded');
  return (await ext.activate()) as WorkbenchServices;
}

/** Waits until the storage view's listing shows (or stops showing) what `ok` looks for. */
async function until(labels: string[], ok: (nodes: TestNode[]) => boolean): Promise<TestNode[]> {
  for (let i = 0; ; i++) {
    // Right after a restart a listing may fail once (a pooled connection to the old server): try again.
    const nodes = await children(labels).then(
      (n) => n,
      (e: unknown) => {
        if (i >= 50) throw e;
        return undefined;
      },
    );
    if (nodes && (ok(nodes) || i >= 50)) return nodes;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sandbox state survives a restart (reload)', () => {
  let made: string | undefined;
  // Suites after this one expect the seeded tree: take the folder away even when the test failed.
  after(async () => {
    if (made) await api('files.delete', { fileId: made }).then(undefined, () => undefined);
  });

  it('keeps a rename, an edit and an upload made in storage, at the same URL, under global storage', async function () {
    this.timeout(60_000);
    const s = await services();
    const before = await s.endpoints.resolve('storage');
    assert.equal(before.sandbox, true);
    const folder = await api<{ id: string }>(
      'files.insert',
      {},
      {
        title: 'Kept across reload',
        mimeType: 'application/vnd.google-apps.folder',
      },
    );
    made = folder.id;
    const dir = vscode.Uri.from({ scheme: 'store', path: `/${folder.id}` });
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'draft.txt'), Buffer.from('first'));
    await vscode.workspace.fs.rename(vscode.Uri.joinPath(dir, 'draft.txt'), vscode.Uri.joinPath(dir, 'final.txt'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'final.txt'), Buffer.from('edited'));
    const local = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-host-reload-'));
    fs.writeFileSync(path.join(local, 'uploaded.bin'), Buffer.alloc(70_000, 3));
    await storage('refresh');
    await storage('_testRun', ['My files', 'Kept across reload'], 'upload', [path.join(local, 'uploaded.bin')]);
    // The upload runs under a progress notification; what must survive is a finished one.
    const uploaded = await until(['My files', 'Kept across reload'], (n) => n.some((x) => x.label === 'uploaded.bin'));
    assert.ok(
      uploaded.some((x) => x.label === 'uploaded.bin'),
      'the upload finished before the restart',
    );
    fs.rmSync(local, { recursive: true, force: true });

    const restarted = await vscode.commands.executeCommand<{ url: string; dataDir: string; owned: boolean }>(
      'apiWorkbench._testRestartSandbox',
    );
    assert.equal(restarted.owned, true);
    assert.ok(
      restarted.dataDir.startsWith(s.context.globalStorageUri.fsPath),
      `the data lives under the extension's global storage: ${restarted.dataDir}`,
    );
    assert.ok(fs.existsSync(path.join(restarted.dataDir, 'storage', 'snapshot.jsonl')));
    const after = await s.endpoints.resolve('storage');
    assert.equal(after.baseUrl, before.baseUrl, 'same port after a restart');
    assert.equal(after.credential, before.credential, 'same token after a restart');

    const listed = await until(['My files', 'Kept across reload'], (n) => n.length >= 2);
    assert.deepEqual(listed.map((n) => n.label).sort(), ['final.txt', 'uploaded.bin']);
    assert.equal(text(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, 'final.txt'))), 'edited');
    assert.equal((await vscode.workspace.fs.stat(vscode.Uri.joinPath(dir, 'uploaded.bin'))).size, 70_000);
    await api('files.delete', { fileId: folder.id });
    made = undefined;
  });
});

describe('storage: an endpoint that refuses connections', () => {
  const config = () => vscode.workspace.getConfiguration('apiWorkbench');
  after(async () => {
    await config().update('storage.baseUrl', undefined, vscode.ConfigurationTarget.Global);
  });

  it('fails fast (no long backoff) and shows the welcome view with the reason', async function () {
    this.timeout(30_000);
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    await config().update('storage.baseUrl', `http://127.0.0.1:${port}`, vscode.ConfigurationTarget.Global);

    // The view drops its client when the setting changes; then Retry (refresh) loads again, as a user would.
    assert.deepEqual(await until([], (n) => n.length === 0), [], 'no roots: the welcome content shows instead');
    await storage('refresh');
    // How fast is structural (two 150 ms retries, no backoff: test/unit/storage/unreachable.test.ts);
    // the bench, not this test, times it.
    const roots = await children([]);
    assert.deepEqual(roots, []);
    const why = await storage<{ message: string; kind: string }>('_testConnectError');
    assert.equal(why.kind, 'refused', 'the context key selects the "connection refused" welcome line');
    assert.equal(
      why.message,
      `Could not reach the storage service at 127.0.0.1:${port}: connection refused (nothing is listening there)`,
    );
    // The welcome line says "connection refused"; the title names the address, short enough to read in full.
    assert.equal(await storage<string>('_testViewDescription'), `127.0.0.1:${port}`);

    await config().update('storage.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    const back = await until([], (n) => n.length > 0);
    assert.equal(back[0]?.label, 'My files');
    assert.equal((await storage<{ message?: string }>('_testConnectError')).message, undefined);
  });
});
