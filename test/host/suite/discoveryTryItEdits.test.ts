// Try it panels and edits of their document, in a real extension host: the preview re-renders after an edit
// (which replaces the page's content), and every open panel must come back (its form sent again for the method
// found by id) or be told its method is gone, never silently closed. Also the body editor's completion reply.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import sample from '../../../samples/discovery/bookshelf.v1.json';
import type { PreviewHostToWebview, PreviewWebviewToHost } from '../../../src/discovery/protocol';

/** The parts of the sample the edits touch. */
interface Doc {
  title?: string;
  resources: Record<string, { methods: Record<string, unknown> }>;
}

const EXTENSION_ID = 'api-workbench.api-workbench';
const CREATE = ['resources', 'shelves', 'methods', 'create'];

const send = (m: PreviewWebviewToHost) =>
  vscode.commands.executeCommand<PreviewHostToWebview[]>('apiWorkbench._testDiscoveryPreviewMessage', m);
const posted = () => vscode.commands.executeCommand<PreviewHostToWebview[]>('apiWorkbench._testDiscoveryPreviewPosted');

/** Collects what the host posts to the page until `done` holds for it (the render waits for a pause in typing). */
async function postedUntil(
  done: (all: PreviewHostToWebview[]) => boolean,
  ms = 15_000,
): Promise<PreviewHostToWebview[]> {
  const all: PreviewHostToWebview[] = [];
  for (const end = Date.now() + ms; Date.now() < end;) {
    all.push(...(await posted()));
    if (done(all)) return all;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`not posted in time; got ${all.map((m) => m.type).join(', ')}`);
}

async function replaceAll(doc: vscode.TextDocument, change: (root: Doc) => void): Promise<void> {
  const root = JSON.parse(doc.getText()) as Doc;
  change(root);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    doc.uri,
    new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
    JSON.stringify(root, null, 2),
  );
  assert.ok(await vscode.workspace.applyEdit(edit));
}

suite('discovery: Try it panels survive edits of their document', function () {
  this.timeout(90_000);
  let dir: string;
  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    dir = mkdtempSync(join(tmpdir(), 'tryit-edits-'));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the form follows a renamed resource by method id, a removed method is reported, a closed panel is let go', async () => {
    const file = join(dir, 'bookshelf.json');
    writeFileSync(file, JSON.stringify(sample, null, 2));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    for (let i = 0; i < 100 && doc.languageId !== 'discovery-json'; i++) await new Promise((r) => setTimeout(r, 50));
    // Recording starts before the preview opens: a panel an earlier suite left open and loaded is rendered
    // into at once, inside the command, and the seam keeps only what is posted after its first call.
    await posted();
    assert.equal(await vscode.commands.executeCommand<boolean>('apiWorkbench.discovery.showPreview'), true);
    // The page has loaded once the host has rendered into it (a new webview loads in seconds under load).
    await postedUntil((all) => all.some((m) => m.type === 'render'), 30_000);

    const form = (await send({ type: 'tryIt', path: CREATE })).find((m) => m.type === 'tryItForm');
    assert.ok(form?.type === 'tryItForm');
    assert.equal(form.form.methodId, 'bookshelf.shelves.create');

    // The body editor's completion: the Shelf schema's properties.
    const done = await send({ type: 'tryItCompleteBody', path: CREATE, body: '{"', offset: 2, seq: 7 });
    const reply = done.find((m) => m.type === 'tryItBodyCompletions');
    assert.ok(reply?.type === 'tryItBodyCompletions', done.map((m) => m.type).join(', '));
    assert.equal(reply.seq, 7);
    assert.ok(reply.completions.items.length > 0 && reply.completions.items.every((i) => i.kind === 'property'));

    await posted(); // What the messages above answered: only what the edits bring counts below.
    await replaceAll(doc, (root) => {
      root.resources.racks = root.resources.shelves;
      delete root.resources.shelves;
    });
    const afterRename = await postedUntil((all) => all.some((m) => m.type === 'tryItForm'));
    const render = afterRename.findIndex((m) => m.type === 'render');
    const again = afterRename.findIndex((m) => m.type === 'tryItForm');
    assert.ok(render >= 0 && again > render, 'the form comes after the render that replaced the page');
    const moved = afterRename[again];
    assert.ok(moved.type === 'tryItForm');
    assert.deepEqual(moved.path, ['resources', 'racks', 'methods', 'create']);
    assert.equal(moved.form.methodId, 'bookshelf.shelves.create');

    await replaceAll(doc, (root) => delete root.resources.racks.methods.create);
    const afterRemove = await postedUntil((all) => all.some((m) => m.type === 'tryItGone'));
    assert.ok(afterRemove.some((m) => m.type === 'tryItGone' && m.methodId === 'bookshelf.shelves.create'));
    assert.ok(!afterRemove.some((m) => m.type === 'tryItForm'));
    const previewOpen = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .some((t) => t.input instanceof vscode.TabInputWebview && /Preview/.test(t.label));
    assert.ok(previewOpen, 'the preview stays open');

    // Back again (undo): the panel follows the method again.
    await vscode.commands.executeCommand('undo');
    const afterUndo = await postedUntil((all) => all.some((m) => m.type === 'tryItForm' || m.type === 'tryItGone'));
    assert.ok(afterUndo.some((m) => m.type === 'tryItForm' && m.form.methodId === 'bookshelf.shelves.create'));

    // Closed by the user: later edits leave it closed.
    await send({
      type: 'tryItClose',
      path: ['resources', 'racks', 'methods', 'create'],
      methodId: 'bookshelf.shelves.create',
    });
    await replaceAll(doc, (root) => (root.title = 'Bookshelf, edited'));
    const afterClose = await postedUntil((all) => all.some((m) => m.type === 'render'));
    await new Promise((r) => setTimeout(r, 300));
    afterClose.push(...(await posted()));
    assert.ok(!afterClose.some((m) => m.type === 'tryItForm' || m.type === 'tryItGone'));
  });
});
