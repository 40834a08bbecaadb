// Files the tree lists outside their folders open by a readable path, like files opened from My files:
// from Starred, Recent and a search, the file's folder path (its name made unique among same-titled
// siblings); from Trash, `Trash/<name>`, read-only. Whatever the path reads, reads and saves reach the
// file that was opened (the path is pinned to its id).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestNode } from '../../../src/storage/vscode/register';
import { browserStep } from '../browserStep';

const cmd = <T>(name: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`apiWorkbench.storage.${name}`, ...args);
const children = (labels: string[]) => cmd<TestNode[]>('_testChildren', labels);
const run = <T>(labels: string[], command: string, ...args: unknown[]) => cmd<T>('_testRun', labels, command, ...args);
const api = <T>(method: string, params: Record<string, unknown>, body?: unknown) =>
  cmd<T>('_testClient', method, params, body);
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
/** The file's content read by its id, not by the path the editor shows. */
const byId = async (id: string, title: string) =>
  text(await vscode.workspace.fs.readFile(vscode.Uri.from({ scheme: 'store', path: `/${id}/${title}` })));

async function editorOf(uri: string): Promise<vscode.TextEditor> {
  for (let i = 0; i < 100; i++) {
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.uri.toString() === uri) return editor;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${uri} never became the active editor`);
}

describe('storage: files opened from Starred, Recent, a search and Trash', () => {
  const stamp = Date.now();
  const title = `found-${stamp}.txt`;
  const needle = `needle${stamp}`;
  let top: { id: string; title: string };
  let twin: { id: string };
  let target: { id: string };
  /** The target's folder path; its name carries an id hint, since its twin has the same title. */
  let expected: RegExp;

  const insert = (body: Record<string, unknown>) => api<{ id: string; title: string }>('files.insert', {}, body);
  const upload = (id: string, content: string) =>
    vscode.workspace.fs.writeFile(vscode.Uri.from({ scheme: 'store', path: `/${id}/${title}` }), Buffer.from(content));

  before(async function () {
    this.timeout(120_000);
    await vscode.extensions.getExtension('api-workbench.api-workbench')?.activate();
    const folder = 'application/vnd.google-apps.folder';
    top = await insert({ title: `Open paths ${stamp}`, mimeType: folder, parents: [{ id: 'root' }] });
    const inner = await insert({ title: 'inner', mimeType: folder, parents: [{ id: top.id }] });
    twin = await insert({ title, mimeType: 'text/plain', parents: [{ id: inner.id }] });
    await upload(twin.id, 'the twin\n');
    target = await insert({ title, mimeType: 'text/plain', parents: [{ id: inner.id }], labels: { starred: true } });
    // Written last: Recent lists it before its twin. Only it holds the needle a contents search finds.
    await upload(target.id, `the target ${needle}\n`);
    const hint = (id: string) => `found-${stamp}~${id.slice(0, 6)}[A-Za-z0-9_-]*\\.txt`;
    expected = new RegExp(`^/My files/Open paths ${stamp}/inner/${hint(target.id)}$`);
    await cmd('refresh');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await cmd('clearSearch');
    await api('files.delete', { fileId: top.id }).then(undefined, () => undefined);
  });

  /** Opens the node at `labels` as a user does, and checks the editor holds the target. */
  const open = async (labels: string[]) => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await editorOf(await run<string>(labels, 'open'));
    assert.match(editor.document.getText(), new RegExp(`^the target ${needle}`), labels.join(' / '));
    return editor;
  };
  /** Types a line and saves: the line lands in the target, read back by its id. */
  const saveInto = async (editor: vscode.TextEditor, line: string, twinThere = true) => {
    await editor.edit((e) => e.insert(new vscode.Position(editor.document.lineCount - 1, 0), `${line}\n`));
    assert.equal(await editor.document.save(), true);
    assert.match(await byId(target.id, title), new RegExp(`${line}\\n$`));
    if (twinThere) assert.equal(await byId(twin.id, title), 'the twin\n', 'the twin is untouched');
  };

  it('from Starred: the folder path, in the breadcrumbs too, and saves reach the starred file', async function () {
    this.timeout(120_000);
    const editor = await open(['Starred', title]);
    assert.match(editor.document.uri.path, expected);
    const crumbs = await browserStep('editor-breadcrumbs');
    assert.match(crumbs ?? '', new RegExp(`^My files › Open paths ${stamp} › inner › found-${stamp}~`));
    await saveInto(editor, 'from starred');
    // Its twin goes: the name the path holds is no longer the file's unique name, yet the pin holds.
    await api('files.trash', { fileId: twin.id });
    await saveInto(editor, 'after the twin went', false).catch(async (e: unknown) => {
      await api('files.untrash', { fileId: twin.id });
      throw e;
    });
    await api('files.untrash', { fileId: twin.id });
  });

  it('from Recent and from a search: the same folder path, the same file', async function () {
    this.timeout(120_000);
    const recent = await open(['Recent', title]);
    assert.match(recent.document.uri.path, expected);
    await saveInto(recent, 'from recent');

    await cmd('searchContents', undefined, needle);
    const [results] = (await children([])).map((n) => n.label);
    const found = await open([results, title]);
    assert.match(found.document.uri.path, expected);
    assert.equal(found.document.uri.toString(), recent.document.uri.toString(), 'one editor per file');
    await saveInto(found, 'from a search');
    await cmd('clearSearch');
  });

  it('from Trash: Trash/<name>, the trashed file read-only, and a save is refused', async function () {
    this.timeout(120_000);
    const gone = await insert({ title: `trashed-${stamp}.txt`, mimeType: 'text/plain', parents: [{ id: top.id }] });
    await vscode.workspace.fs.writeFile(
      vscode.Uri.from({ scheme: 'store', path: `/${gone.id}/${gone.title}` }),
      Buffer.from('in the bin\n'),
    );
    await api('files.trash', { fileId: gone.id });
    await cmd('refresh');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const uri = vscode.Uri.parse(await run<string>(['Trash', gone.title], 'open'));
    assert.equal(uri.path, `/Trash/${gone.title}`);
    const editor = await editorOf(uri.toString());
    assert.equal(editor.document.getText(), 'in the bin\n');
    assert.equal(((await vscode.workspace.fs.stat(uri)).permissions ?? 0) & vscode.FilePermission.Readonly, 1);
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(uri, Buffer.from('changed\n'))),
      /in the trash: restore it/,
    );
    const server = await api<{ labels: { trashed: boolean } }>('files.get', { fileId: gone.id, fields: 'labels' });
    assert.equal(server.labels.trashed, true, 'still in the trash, unchanged');
  });
});
