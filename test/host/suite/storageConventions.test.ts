// The storage view as VS Code users expect it (issue 13): trash without asking but with Undo, delete
// only after asking, rename selecting the name without its extension, Copy Link / Copy Id, search,
// commands on a multi-selection, files opened by their folder path (breadcrumbs) and Move to….
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestEvent } from '../../../src/shared/http/observe';
import type { TestNode } from '../../../src/storage/vscode/register';
import { browserStep } from '../browserStep';

const cmd = <T>(name: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`apiWorkbench.storage.${name}`, ...args);
const children = (labels: string[]) => cmd<TestNode[]>('_testChildren', labels);
const run = <T>(labels: string[], command: string, ...args: unknown[]) => cmd<T>('_testRun', labels, command, ...args);
const runMany = <T>(paths: string[][], command: string, ...args: unknown[]) =>
  cmd<T>('_testRunMany', paths, command, ...args);
const api = <T>(method: string, params: Record<string, unknown>, body?: unknown) =>
  cmd<T>('_testClient', method, params, body);
const labelsOf = async (labels: string[]) => (await children(labels)).map((n) => n.label);
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const parentsOf = async (fileId: string) =>
  ((await api<{ parents?: { id: string }[] }>('files.get', { fileId, fields: 'parents(id)' })).parents ?? []).map(
    (p) => p.id,
  );
const pick = (label: string) => browserStep(`quick-pick-item:${encodeURIComponent(label)}`);

async function activeEditorOf(uri: string): Promise<vscode.TextEditor> {
  for (let i = 0; i < 100; i++) {
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.uri.toString() === uri) return editor;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${uri} never became the active editor`);
}

describe('storage: VS Code conventions', () => {
  const stamp = Date.now();
  const made: string[] = [];
  const makeFile = async (title: string) => {
    const f = await api<{ id: string; title: string }>('files.insert', {}, { title, mimeType: 'text/plain' });
    made.push(f.id);
    await cmd('refresh');
    return f;
  };

  before(async () => {
    await vscode.extensions.getExtension('api-workbench.api-workbench')?.activate();
  });
  after(async () => {
    await cmd('clearSearch');
    for (const id of made) await api('files.delete', { fileId: id }).then(undefined, () => undefined);
  });

  it('Move to Trash asks nothing, and Undo in its notification restores', async function () {
    this.timeout(120_000);
    const f = await makeFile(`undo-me-${stamp}.txt`);
    assert.equal(await run<number>(['My files', f.title], 'trash'), 1);
    assert.ok(!(await labelsOf(['My files'])).includes(f.title), 'trashed at once');
    await browserStep('notification-undo');
    for (let i = 0; i < 50 && !(await labelsOf(['My files'])).includes(f.title); i++)
      await new Promise((r) => setTimeout(r, 200));
    assert.ok((await labelsOf(['My files'])).includes(f.title), 'Undo brought it back');
  });

  it('Delete Permanently asks first (a modal): unanswered, nothing is deleted', async () => {
    const f = await makeFile(`keep-me-${stamp}.txt`);
    // VS Code refuses modal dialogs under test: the question goes unanswered, like Cancel.
    await run(['My files', f.title], 'deletePermanently');
    assert.ok((await labelsOf(['My files'])).includes(f.title), 'still there');
    assert.equal(await run<number>(['My files', f.title], 'deletePermanently', undefined, true), 1);
    assert.ok(!(await labelsOf(['My files'])).includes(f.title));
  });

  it('Rename selects the name without its extension', async function () {
    this.timeout(120_000);
    const f = await makeFile(`report.final-${stamp}.txt`);
    const renaming = run(['My files', f.title], 'rename');
    const selected = await browserStep('quick-input-selection');
    await renaming;
    assert.equal(selected, `report.final-${stamp}`);
  });

  it('Copy Link and Copy Id put the link and the id on the clipboard', async () => {
    const f = await makeFile(`copy-me-${stamp}.txt`);
    const full = await api<{ alternateLink: string }>('files.get', { fileId: f.id });
    assert.equal(await run<string>(['My files', f.title], 'copyLink'), full.alternateLink);
    assert.equal(await vscode.env.clipboard.readText(), full.alternateLink);
    assert.equal(await run<string>(['My files', f.title], 'copyId'), f.id);
    assert.equal(await vscode.env.clipboard.readText(), f.id);
  });

  it('searches titles and contents, shows the results as a root, and clears', async () => {
    const f = await makeFile(`needle ${stamp} it's.txt`);
    assert.equal(await cmd('search', undefined, `needle ${stamp} it's`), `needle ${stamp} it's`);
    const roots = await labelsOf([]);
    assert.equal(roots[0], `Search: "needle ${stamp} it's"`);
    assert.deepEqual(await labelsOf([roots[0]]), [f.title]);

    await cmd('searchContents', undefined, `nothing-has-this-${stamp}`);
    const [empty] = await children([`Search: "nothing-has-this-${stamp}" in contents`]);
    assert.equal(empty.type, 'message');
    assert.match(empty.label, /clear the search/);

    await cmd('clearSearch');
    assert.equal((await labelsOf([]))[0], 'My files');
  });

  it('trashes and downloads a multi-selection', async function () {
    this.timeout(120_000);
    const a = await makeFile(`many-a-${stamp}.txt`);
    const b = await makeFile(`many-b-${stamp}.txt`);
    const paths = [
      ['My files', a.title],
      ['My files', b.title],
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-many-'));
    try {
      const written = await runMany<string[]>(paths, 'download', dir);
      assert.equal(written.length, 2);
      assert.deepEqual(fs.readdirSync(dir).sort(), [a.title, b.title]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(await runMany<number>(paths, 'trash'), 2);
    const mine = await labelsOf(['My files']);
    assert.ok(!mine.includes(a.title) && !mine.includes(b.title), 'both trashed');
  });

  it('opens a nested file by its folder path (the breadcrumbs read the folders) and saves into that file', async function () {
    this.timeout(180_000);
    const folder = (title: string, parent = 'root') =>
      api<{ id: string; title: string }>(
        'files.insert',
        {},
        { title, mimeType: 'application/vnd.google-apps.folder', parents: [{ id: parent }] },
      );
    const top = await folder(`Reports ${stamp}`);
    made.push(top.id);
    const year = await folder('2024', top.id);
    const q1 = await api<{ id: string }>(
      'files.insert',
      {},
      { title: 'q1.csv', mimeType: 'text/csv', parents: [{ id: year.id }] },
    );
    await cmd('refresh');
    const idUri = vscode.Uri.parse(await cmd<string>('_testUri', ['My files', top.title, '2024', 'q1.csv']));
    await vscode.workspace.fs.writeFile(idUri, Buffer.from('quarter,total\n'));
    // The user browses down to the file (the tree lists each level), then opens it.
    await cmd('refresh');
    await children(['My files', top.title, '2024']);
    // Requests for files while `open` runs: by id (`/<id>/q1.csv`, as before) and by the tree's path.
    const filesCalls = async (open: () => Promise<string>) => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await new Promise((r) => setTimeout(r, 1500)); // cached metadata expires: both start cold
      await vscode.commands.executeCommand('apiWorkbench.requestLog.clear');
      const uri = await open();
      const editor = await activeEditorOf(uri);
      await new Promise((r) => setTimeout(r, 500)); // comments load after the editor shows
      const log = await vscode.commands.executeCommand<{ entries: RequestEvent[] }>('apiWorkbench._testRequestLog');
      const calls = log.entries
        .filter((e) => e.feature === 'storage' && e.phase !== 'headers' && /\/files\b/.test(e.url))
        .map((e) => `${e.method} ${e.url.replace(/^.*\/v2\//, '').replace(/\?.*/, '')}`);
      return { editor, calls };
    };
    const byId = await filesCalls(async () => {
      await vscode.window.showTextDocument(idUri);
      return idUri.toString();
    });
    const { editor, calls } = await filesCalls(async () =>
      run<string>(['My files', top.title, '2024', 'q1.csv'], 'open'),
    );
    assert.equal(editor.document.uri.path, `/My files/${top.title}/2024/q1.csv`);
    assert.equal(editor.document.getText(), 'quarter,total\n');
    const crumbs = await browserStep('editor-breadcrumbs');
    assert.equal(crumbs, `My files › ${top.title} › 2024 › q1.csv`);
    // Opening costs what opening by id does: no folder listing beyond the tree's.
    assert.ok(!calls.some((c) => /^GET files$/.test(c)), `no listing while opening: ${calls.join(', ')}`);
    assert.ok(calls.includes(`GET files/${q1.id}`), `the log recorded the open: ${calls.join(', ')}`);
    assert.ok(calls.length <= byId.calls.length, `by path: ${calls.join(', ')}; by id: ${byId.calls.join(', ')}`);

    await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'q1,100\n'));
    assert.equal(await editor.document.save(), true);
    assert.equal(text(await vscode.workspace.fs.readFile(idUri)), 'quarter,total\nq1,100\n');
    // A folder above it is renamed elsewhere: the open editor still saves into the file it opened.
    await api('files.patch', { fileId: top.id }, { title: `${top.title} (old)` });
    await editor.edit((e) => e.insert(new vscode.Position(2, 0), 'q2,50\n'));
    assert.equal(await editor.document.save(), true);
    assert.equal(
      text(await vscode.workspace.fs.readFile(vscode.Uri.from({ scheme: 'store', path: `/${q1.id}/q1.csv` }))),
      'quarter,total\nq1,100\nq2,50\n',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Move to… moves a multi-selection into the folder picked level by level; cancelling changes nothing', async function () {
    this.timeout(180_000);
    const a = await makeFile(`move-a-${stamp}.txt`);
    const b = await makeFile(`move-b-${stamp}.txt`);
    const target = await api<{ id: string; title: string }>(
      'files.insert',
      {},
      { title: `move-target-${stamp}`, mimeType: 'application/vnd.google-apps.folder', parents: [{ id: 'root' }] },
    );
    made.push(target.id);
    await cmd('refresh');
    const paths = [
      ['My files', a.title],
      ['My files', b.title],
    ];
    const before = await parentsOf(a.id);

    const cancelled = runMany(paths, 'moveTo');
    await pick('My files');
    await browserStep('quick-pick-escape');
    assert.equal(await cancelled, null);
    assert.deepEqual(await parentsOf(a.id), before, 'nothing moved');

    const moving = runMany<{ status: string }[]>(paths, 'moveTo');
    await pick('My files');
    await pick(target.title);
    await pick(`Move to "${target.title}"`);
    const outcomes = await moving;
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['moved', 'moved'],
    );
    assert.deepEqual(await parentsOf(a.id), [target.id]);
    assert.deepEqual(await parentsOf(b.id), [target.id]);
    assert.deepEqual((await labelsOf(['My files', target.title])).sort(), [a.title, b.title].sort(), 'tree refreshed');
  });
});
