import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestNode } from '../../../src/storage/vscode/register';
import { browserStep } from '../browserStep';

const cmd = <T>(name: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`apiWorkbench.storage.${name}`, ...args);
const children = (labels: string[]) => cmd<TestNode[]>('_testChildren', labels);
const loadMore = (labels: string[]) => cmd<TestNode[]>('_testLoadMore', labels);
const run = <T>(labels: string[], command: string, ...args: unknown[]) => cmd<T>('_testRun', labels, command, ...args);
const api = <T>(method: string, params: Record<string, unknown>, body?: unknown) =>
  cmd<T>('_testClient', method, params, body);
const uriOf = async (labels: string[]) => vscode.Uri.parse(await cmd<string>('_testUri', labels));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('storage: tree view on the sandbox', () => {
  before(async () => {
    const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
    assert.ok(ext, 'the extension is loaded');
    await ext.activate();
    // Revealing the view is cosmetic here; the provider is driven through the test commands.
    await Promise.resolve(vscode.commands.executeCommand('apiWorkbench.storage.focus')).catch(() => undefined);
  });

  it('shows the roots and lists the root folder, folders first, without trashed items', async () => {
    const roots = await children([]);
    assert.deepEqual(
      roots.map((r) => r.label),
      ['My files', 'Shared drives', 'Shared with me', 'Starred', 'Recent', 'Trash'],
    );
    const mine = await children(['My files']);
    const labels = mine.map((n) => n.label);
    assert.deepEqual(
      labels.slice(0, 4),
      ['Archive', 'Photos', 'Projects', 'Reports'],
      'folders first, natural title order',
    );
    assert.ok(labels.includes('README.txt'));
    assert.ok(!labels.includes('old-draft.txt'), 'trashed files are not listed');
    const readme = mine.find((n) => n.label === 'README.txt')!;
    assert.equal(readme.icon, 'file-text');
    assert.match(readme.description ?? '', /\d+ B · 20\d\d-\d\d-\d\d \d\d:\d\d/);
    assert.match(readme.tooltip ?? '', /Type: text\/plain/);
  });

  it('expands a folder lazily and pages a large one with "Load more…"', async () => {
    const projects = await children(['My files', 'Projects']);
    assert.equal(projects[0].label, 'Design', 'sub-folder first');
    assert.ok(projects.some((n) => n.label === 'Roadmap' && n.mimeType === 'application/vnd.google-apps.document'));
    const design = await children(['My files', 'Projects', 'Design']);
    assert.deepEqual(
      design.map((n) => n.label),
      ['logo.png', 'mockup.svg'],
    );

    const photos = await children(['My files', 'Photos']);
    assert.equal(photos.filter((n) => n.type === 'file').length, 100, 'first page only');
    assert.equal(photos.at(-1)!.type, 'loadMore');
    const more = await loadMore(['My files', 'Photos']);
    assert.equal(more.filter((n) => n.type === 'file').length, 200);
    assert.equal(more[0].label, 'IMG_0001.jpg');
    assert.equal(more[199].label, 'IMG_0200.jpg');
  });

  it('shows the account and quota in the view', async () => {
    await cmd('refresh');
    let description: string | undefined;
    for (let i = 0; i < 50 && !description; i++) {
      description = await cmd<string | undefined>('_testViewDescription');
      if (!description) await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(description ?? '', /Sandbox User <sandbox\.user@example\.com> · .* of 15 GB used/);
  });
});

describe('storage: store: file system', () => {
  it('opens, edits and saves a file through workspace.fs and a text editor', async () => {
    const uri = await uriOf(['My files', 'Projects', 'notes.md']);
    assert.equal(uri.scheme, 'store');
    const before = text(await vscode.workspace.fs.readFile(uri));
    assert.match(before, /^# Notes/);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(before + '- saved from the host test\n'));
    const stat = await vscode.workspace.fs.stat(uri);
    assert.equal(stat.type, vscode.FileType.File);
    assert.equal(stat.size, Buffer.byteLength(before + '- saved from the host test\n'));

    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(new vscode.Position(doc.lineCount - 1, 0), '- typed in the editor\n'));
    assert.equal(await doc.save(), true);
    assert.match(text(await vscode.workspace.fs.readFile(uri)), /typed in the editor/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('does not overwrite a newer server version: cancel keeps it, overwrite replaces it only when chosen', async () => {
    const uri = await uriOf(['My files', 'Projects', 'budget.csv']);
    const id = uri.path.split('/')[1];
    const original = text(await vscode.workspace.fs.readFile(uri));
    // Someone else changes the file after we read it.
    await api('files.patch', { fileId: id }, { description: 'changed elsewhere' });
    const serverBefore = await api<{ md5Checksum: string; version: string }>('files.get', {
      fileId: id,
      fields: 'md5Checksum,version',
    });
    await cmd('_testConflictChoice', 'cancel');
    const prompts = await cmd<number>('_testConflictPrompts');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, Buffer.from('mine\n'))));
    assert.equal(await cmd<number>('_testConflictPrompts'), prompts + 1, 'the user was asked');
    const serverAfter = await api<{ md5Checksum: string; version: string }>('files.get', {
      fileId: id,
      fields: 'md5Checksum,version',
    });
    assert.equal(serverAfter.md5Checksum, serverBefore.md5Checksum, 'nothing was overwritten');
    await cmd('_testConflictChoice', 'overwrite');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('mine\n'));
    assert.equal(text(await vscode.workspace.fs.readFile(uri)), 'mine\n');
    assert.notEqual(original, 'mine\n');
  });

  it('lists a folder opened by id and creates, renames and deletes items in it', async () => {
    const projects = (await children(['My files'])).find((n) => n.label === 'Projects')!;
    const folder = vscode.Uri.from({ scheme: 'store', path: `/${projects.id}` });
    const entries = await vscode.workspace.fs.readDirectory(folder);
    assert.ok(entries.some(([n, t]) => n === 'Design' && t === vscode.FileType.Directory));
    const created = vscode.Uri.joinPath(folder, 'from-host.txt');
    await vscode.workspace.fs.writeFile(created, Buffer.from('hello'));
    const renamed = vscode.Uri.joinPath(folder, 'from-host-2.txt');
    await vscode.workspace.fs.rename(created, renamed);
    assert.equal(text(await vscode.workspace.fs.readFile(renamed)), 'hello');
    await vscode.workspace.fs.delete(renamed);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(renamed)));
  });
});

describe('storage: commands', () => {
  it('uploads a large file with a connection cut mid-way, and it resumes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-host-'));
    const file = path.join(dir, 'resumed.bin');
    const data = Buffer.alloc(6 * 1024 * 1024 + 77, 7);
    fs.writeFileSync(file, data);
    await cmd('_testFaults', { queued: [{ kind: 'resetUpload', afterBytes: 1_000_000 }] });
    const made = await run<{ id: string; fileSize: string; title: string }[]>(['My files'], 'upload', [file]);
    assert.equal(made.length, 1);
    assert.equal(made[0].fileSize, String(data.length));
    const faults = await cmd<{ queued: unknown[] }>('_testFaults', {});
    assert.deepEqual(faults.queued, [], 'the injected cut happened');
    assert.ok((await children(['My files'])).some((n) => n.label === 'resumed.bin'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('trashes without asking (it can be undone) and restores, with the trash listing what was trashed', async () => {
    // No confirmation: under test VS Code refuses modal dialogs, so a trash that asked would trash nothing.
    assert.equal(await run<number>(['My files', 'README.txt'], 'trash'), 1);
    assert.ok(!(await children(['My files'])).some((n) => n.label === 'README.txt'));
    const trash = await children(['Trash']);
    assert.ok(trash.some((n) => n.label === 'README.txt' && n.contextValue.includes('trashed')));
    assert.equal(await run<number>(['Trash', 'README.txt'], 'untrash'), 1);
    assert.ok((await children(['My files'])).some((n) => n.label === 'README.txt'));
  });

  it('shares a file and removes the permission again', async () => {
    const p = await run<{ id: string; role: string }>(
      ['My files', 'Projects', 'notes.md'],
      'share',
      'host.test@example.com',
      'writer',
    );
    assert.equal(p.role, 'writer');
    const id = (await children(['My files', 'Projects'])).find((n) => n.label === 'notes.md')!.id!;
    const list = await api<{ items: { id: string; emailAddress?: string }[] }>('permissions.list', { fileId: id });
    assert.ok(list.items.some((x) => x.emailAddress === 'host.test@example.com'));
    assert.equal(await run<boolean>(['My files', 'Projects', 'notes.md'], 'unshare', p.id), true);
    const after = await api<{ items: { id: string }[] }>('permissions.list', { fileId: id });
    assert.ok(!after.items.some((x) => x.id === p.id));
  });

  it('shows comments of an opened document, adds a comment and a reply, resolves the thread', async () => {
    const uri = await uriOf(['My files', 'Projects', 'Roadmap']);
    const before = await cmd<{ state: string; comments: { body: string; author: string }[] }[]>('_testComments', uri);
    assert.ok(
      before.some(
        (t) => t.comments[0].body.includes('resumable uploads earlier') && t.comments[0].author === 'Alex Partner',
      ),
    );
    await cmd('_testAddComment', uri, 'Added from the host test', 1);
    let threads = await cmd<{ state: string; comments: { body: string }[] }[]>('_testComments', uri);
    const index = threads.findIndex((t) => t.comments[0].body === 'Added from the host test');
    assert.ok(index >= 0);
    await cmd('_testAddComment', uri, 'A reply', 0, index);
    await cmd('_testResolve', uri, index);
    threads = await cmd('_testComments', uri);
    const mine = threads.find((t) => t.comments[0].body === 'Added from the host test')!;
    assert.equal(mine.state, 'resolved');
    assert.ok(mine.comments.some((c) => c.body === 'A reply'));
  });

  it('opens a diff of an older revision against the current version', async () => {
    const node = (await children(['My files', 'Projects'])).find((n) => n.label === 'budget.csv')!;
    const revs = await api<{ items: { id: string }[] }>('revisions.list', { fileId: node.id! });
    assert.ok(revs.items.length >= 2, 'saves made revisions');
    await run(['My files', 'Projects', 'budget.csv'], 'compareRevision', revs.items[0].id);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.equal(input.original.scheme, 'store-revision');
    assert.equal(input.modified.scheme, 'store');
    const left = await vscode.workspace.openTextDocument(input.original);
    assert.match(left.getText(), /^item,amount/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});

describe('storage: change feed', () => {
  it('refreshes the affected folder when the server reports a change (pushed to a loopback receiver)', async () => {
    const before = await children(['My files', 'Archive']);
    assert.ok(!before.some((n) => n.label === 'pushed-change.txt'));
    const archive = (await children(['My files'])).find((n) => n.label === 'Archive')!;
    await api('files.insert', {}, { title: 'pushed-change.txt', parents: [{ id: archive.id }] });
    let seen = false;
    for (let i = 0; i < 50 && !seen; i++) {
      seen = (await children(['My files', 'Archive'])).some((n) => n.label === 'pushed-change.txt');
      if (!seen) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(seen, 'the folder was refreshed without a manual refresh');
    assert.ok((await cmd<number>('_testWatchNotifications')) > 1, 'notifications arrived');
  });
});

describe('storage: sign-in', () => {
  const PROVIDER = 'api-workbench-storage';
  const session = () => vscode.authentication.getSession(PROVIDER, [], { silent: true });
  before(async () => {
    await vscode.extensions.getExtension('api-workbench.api-workbench')?.activate();
  });

  const SCOPES = ['https://api-workbench.dev/auth/store'];
  const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 150; i++) {
      const v = await probe();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it('signs in from the Accounts menu through the consent page in the browser, as a user would, and signs out', async function () {
    this.timeout(240_000);
    assert.equal(await session(), undefined, 'not signed in at first');
    assert.equal(await cmd<boolean>('_testSignedInContext'), false, 'the view offers Sign In, not Sign Out');
    // The extension asks for a storage session: VS Code offers the sign-in in the Accounts menu.
    assert.equal(await vscode.authentication.getSession(PROVIDER, SCOPES, {}), undefined);

    // The user starts it there and denies on the sandbox's consent page: no session.
    await browserStep('accounts-sign-in-deny');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await session(), undefined, 'a denied consent does not sign in');

    // Again, and this time allows: the redirect reaches the extension's listener through the browser.
    await browserStep('accounts-sign-in-allow');
    const signedIn = await until('the session', async () => session());
    assert.equal(signedIn.account.label, 'Sandbox User <sandbox.user@example.com>');
    assert.match(signedIn.accessToken, /^sba-/, 'a token the sandbox authorization server issued');
    assert.deepEqual(signedIn.scopes, SCOPES);
    assert.equal(
      await until('the signed-in context', async () => (await cmd<boolean>('_testSignedInContext')) || undefined),
      true,
      'the view offers Sign Out, not Sign In',
    );
    assert.ok(
      (await children(['My files'])).some((n) => n.label === 'Projects'),
      'the tree loads with the session',
    );

    assert.equal(await cmd<boolean>('signOut'), true);
    assert.equal(await session(), undefined, 'signed out');
    assert.equal(await cmd<boolean>('_testSignedInContext'), false, 'Sign In again, and no Sign Out');
    assert.ok(
      (await children(['My files'])).some((n) => n.label === 'Projects'),
      'back on the sandbox token',
    );
  });
});
