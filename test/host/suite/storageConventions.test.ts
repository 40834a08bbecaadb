// The storage view as VS Code users expect it (issue 13): trash without asking but with Undo, delete
// only after asking, rename selecting the name without its extension, Copy Link / Copy Id, search,
// and commands on a multi-selection.
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
const run = <T>(labels: string[], command: string, ...args: unknown[]) => cmd<T>('_testRun', labels, command, ...args);
const runMany = <T>(paths: string[][], command: string, ...args: unknown[]) =>
  cmd<T>('_testRunMany', paths, command, ...args);
const api = <T>(method: string, params: Record<string, unknown>, body?: unknown) =>
  cmd<T>('_testClient', method, params, body);
const labelsOf = async (labels: string[]) => (await children(labels)).map((n) => n.label);

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
});
