// Extension-host half of the UI smoke tier: drives the workbench through the real vscode API to each
// surface, then hands over to the Playwright half (test/ui/run-ui.mjs), which asserts what is visible and
// takes the screenshot. The two halves meet through the report file: the driver writes `UI-STEP <name>`
// and waits for the runner's `<report>.ack-<name>` file.
//
// The `reload` step reloads the window (Developer: Reload Window, as a user runs it): the extension host
// that handed the step over is shut down with the old page, and the new page's extension host loads this
// module again and calls run() again. The runner writes `<report>.reloading` before it reloads; the new
// run() sees it, waits for the reload step's verdict in place of the old host and goes on after it.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as vscode from 'vscode';
import { fetchDirectory } from '../../src/discovery/core/directory';
import type { WorkbenchServices } from '../../src/platform/services';

const report = process.env.API_WORKBENCH_TEST_REPORT ?? '';
const reloading = `${report}.reloading`;
/** This extension host started after the runner reloaded the window. */
const resumed = fs.existsSync(reloading);

function say(line: string): void {
  fs.appendFileSync(report, line + '\n');
}

async function handOver(step: string): Promise<void> {
  say(`UI-STEP ${step}`);
  await verdictOf(step);
}

async function verdictOf(step: string): Promise<void> {
  const ack = `${report}.ack-${step}`;
  const deadline = Date.now() + 120_000;
  while (!fs.existsSync(ack)) {
    // The window is reloading: the host after the reload reports this step; this one must not go on.
    if (!resumed && fs.existsSync(reloading)) await new Promise(() => undefined);
    if (Date.now() > deadline) throw new Error(`runner never acknowledged step ${step}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const verdict = fs.readFileSync(ack, 'utf8').trim();
  if (verdict !== 'ok') throw new Error(`UI step ${step}: ${verdict}`);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Opens (and expands) views a check folded. */
async function focusViews(...ids: string[]): Promise<void> {
  for (const id of ids) await vscode.commands.executeCommand(`${id}.focus`);
}

/** The workspace folder's sync links go (the files stay), so later steps see no sync status. */
async function dropSyncLinks(): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0];
  if (root)
    await vscode.workspace
      .getConfiguration('apiWorkbench.storage', root.uri)
      .update('syncLinks', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
}

async function findSample(glob: string): Promise<vscode.Uri> {
  const [uri] = await vscode.workspace.findFiles(glob, undefined, 1);
  if (!uri) throw new Error(`no sample matches ${glob}`);
  return uri;
}

/** A port nothing listens on (taken from the OS, then let go). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const storageSetting = () => vscode.workspace.getConfiguration('apiWorkbench.storage');

// The walk* steps are the hand walk of a new user: the runner does all of them with the mouse and the
// keyboard; this side only prepares what a user cannot (a storage URL where nothing listens).

/** The sandbox's store:v2 document, opened from the API Directory as a user would. */
async function openStoreDocument(): Promise<vscode.TextDocument> {
  const services = (await vscode.extensions.getExtension('api-workbench.api-workbench')?.activate()) as
    WorkbenchServices | undefined;
  if (!services) throw new Error('extension API');
  const endpoint = await services.endpoints.resolve('directory');
  const item = (await fetchDirectory(endpoint.baseUrl)).find((i) => i.id === 'store:v2');
  if (!item) throw new Error('store:v2 not in the sandbox directory');
  const doc = await vscode.commands.executeCommand<vscode.TextDocument>('apiWorkbench.directory.open', {
    kind: 'item',
    item,
  });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
  return doc;
}

const steps: Record<string, () => Promise<void>> = {
  async walkFirstWindow() {},
  async walkWalkthrough() {},
  async walkStorageRefused() {
    const port = await closedPort();
    await storageSetting().update('baseUrl', `http://127.0.0.1:${port}`, vscode.ConfigurationTarget.Global);
  },
  async walkSideBar() {
    // The storage URL is the sandbox's again (walkStorageRefused's undo): the tree lists it.
    await vscode.commands.executeCommand('apiWorkbench.storage.refresh');
  },
  async walkWalkthroughTicks() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async walkWayIn() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async discovery() {
    const uri = await findSample('discovery/*.json');
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    const [first] = await until('discovery diagnostics', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length ? d : undefined;
    });
    // Show the defect the way a user would land on it: cursor on the squiggle, line centred.
    editor.selection = new vscode.Selection(first.range.start, first.range.start);
    editor.revealRange(first.range, vscode.TextEditorRevealType.InCenter);
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  },
  async discoveryHover() {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error('no editor');
    const at = editor.document.getText().indexOf('"$ref": "Shelf"');
    if (at < 0) throw new Error('sample has no $ref to Shelf');
    const pos = editor.document.positionAt(at + '"$ref": "'.length + 2);
    editor.selection = new vscode.Selection(pos, pos);
    editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenter);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('editor.action.showHover');
  },
  discoveryPreview() {
    // Moving the cursor dismisses the hover left by the previous step.
    const editor = vscode.window.activeTextEditor;
    if (editor)
      editor.selection = new vscode.Selection(
        editor.selection.active.translate(1, 0),
        editor.selection.active.translate(1, 0),
      );
    // The runner opens the preview with the editor's title button.
    return Promise.resolve();
  },
  async discoveryDiff() {
    // A draft revision of the sample beside it, with one change of each severity, compared with the sample.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const published = await findSample('discovery/bookshelf.v1.json');
    const doc = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(published))) as {
      revision?: string;
      resources: { shelves: { methods: Record<string, { parameters?: Record<string, { required?: boolean }> }> } };
      schemas: Record<string, { properties: Record<string, unknown> }>;
    };
    const methods = doc.resources.shelves.methods;
    const pageSize = methods.list.parameters?.pageSize;
    if (!pageSize) throw new Error('sample lacks shelves.list pageSize');
    pageSize.required = true;
    delete doc.schemas.Book.properties.notes;
    doc.schemas.Shelf.properties.location = { type: 'string', description: 'Where the shelf stands.' };
    doc.revision = '20260301';
    const draft = vscode.Uri.joinPath(published, '..', 'bookshelf.v1.draft.json');
    await vscode.workspace.fs.writeFile(draft, new TextEncoder().encode(JSON.stringify(doc, null, 2) + '\n'));
    const report = await vscode.commands.executeCommand<{ changes: unknown[] }>(
      'apiWorkbench.discovery.compareWith',
      draft,
      published,
    );
    if (!report?.changes.length) throw new Error('Compare With… reported nothing');
    await vscode.commands.executeCommand('apiWorkbench.diffReport.reveal', report.changes[0]);
    await vscode.commands.executeCommand('apiWorkbench.diffReport.focus');
  },
  async discoveryExport() {
    // Export as OpenAPI…: the export opens beside its source.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const source = await openStoreDocument();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) throw new Error('no workspace folder');
    const target = vscode.Uri.joinPath(folder, 'store.openapi.json');
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>(
      'apiWorkbench.discovery.exportOpenApi',
      source.uri,
      target,
      '3.1',
    );
    if (!written) throw new Error('Export as OpenAPI wrote nothing');
  },
  async discoveryTryIt() {
    // store:v2 (setup); the runner opens its preview, then Try it on files.list, fills maxResults and sends.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await openStoreDocument();
  },
  async discoveryTryItBody() {
    // Same preview: the runner opens Try it on files.insert and asks for suggestions in the body editor.
  },
  async discoveryTryItKept() {
    // A copy of the sample (setup); the runner opens its preview, then Try it on shelves.list and fills pageSize.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await openSampleCopy('bookshelf.tryit.json');
  },
  async discoveryTryItHidden() {
    // The runner hides the preview behind a new editor of its group and clicks its tab again.
  },
  async discoveryTryItGone() {
    // The method of the open form is deleted from the document (and saved, so no later step asks about it).
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.path.endsWith('/bookshelf.tryit.json'));
    if (!doc) throw new Error('the copy is not open');
    const root = JSON.parse(doc.getText()) as { resources: { shelves: { methods: Record<string, unknown> } } };
    delete root.resources.shelves.methods.list;
    const edit = new vscode.WorkspaceEdit();
    const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    edit.replace(doc.uri, all, JSON.stringify(root, null, 2) + '\n');
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the edit was refused');
    await doc.save();
  },
  // The storage and generation steps below clear the stage (editors, panel) and put data in place; what a user
  // does in them (clicks in the tree, its context menus, prompts typed) is the runner's (test/ui/userChecks.mjs).
  async storage() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  },
  async storageComments() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async storageRevisionDiff() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Setup through a test seam (the file's store: URI): a write makes a second revision to compare with.
    const uri = vscode.Uri.parse(
      await vscode.commands.executeCommand<string>('apiWorkbench.storage._testUri', [
        'My files',
        'Projects',
        'budget.csv',
      ]),
    );
    const old = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(old.replace('servers,1200', 'servers,1450') + 'training,250\n'),
    );
  },
  // The picker stays open for the screenshot; the next step's runner half closes it (Escape).
  async storageMoveTo() {},
  async storageBreadcrumbs() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async storageBreadcrumbsStarred() {
    // Setup: budget.csv starred (through the API), no editor open.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await starBudget(true);
    await vscode.commands.executeCommand('apiWorkbench.storage.refresh');
    await vscode.commands.executeCommand('apiWorkbench.storage.focus');
    // The runner opens it from Starred with a click.
  },
  // Folder sync: a workspace folder and a store folder that differ (one file changed on both); what the user
  // does (Explorer menu, pickers, plan view, Apply) is the runner's (test/ui/storageSync.mjs).
  async storageSyncPlan() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) throw new Error('no workspace folder');
    const put = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const dir = vscode.Uri.joinPath(root, 'sync-demo');
    await put(vscode.Uri.joinPath(dir, 'notes.md'), '# Notes\n\nKept in sync with the store.\n');
    await put(vscode.Uri.joinPath(dir, 'draft.txt'), 'The draft as edited here.\n');
    await put(vscode.Uri.joinPath(dir, 'drafts', 'old.txt'), 'An old draft that stays local.\n');
    const folder = await vscode.commands.executeCommand<{ id: string }>(
      'apiWorkbench.storage._testClient',
      'files.insert',
      {},
      { title: 'Sync demo', mimeType: 'application/vnd.google-apps.folder', parents: [{ id: 'root' }] },
    );
    const store = (name: string) => vscode.Uri.from({ scheme: 'store', path: `/${folder.id}/${name}` });
    await put(store('draft.txt'), 'The draft as edited on the store.\n');
    await put(store('from the store.txt'), 'Only on the store so far.\n');
    await vscode.commands.executeCommand('apiWorkbench.storage.refresh');
  },
  async storageSyncApplied() {},
  async storageSyncCompare() {},
  // From the Command Palette with nothing selected: the local folder comes from the file dialog (the runner types
  // its path), then the store folder and the mode from the pickers.
  async storageSyncPalette() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) throw new Error('no workspace folder');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(root, 'sync-palette', 'report.md'),
      new TextEncoder().encode('# Report\n\nSent from the palette.\n'),
    );
    await vscode.commands.executeCommand(
      'apiWorkbench.storage._testClient',
      'files.insert',
      {},
      { title: 'Palette target', mimeType: 'application/vnd.google-apps.folder', parents: [{ id: 'root' }] },
    );
    await vscode.commands.executeCommand('apiWorkbench.storage.refresh');
  },
  // A linked folder in sync (set up through the commands), then its photos folder deleted on disk: 3 of its 4
  // files, so the watcher's run meets the max-delete guard. What the user does next is the runner's.
  async storageSyncGuard() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) throw new Error('no workspace folder');
    const dir = vscode.Uri.joinPath(root, 'sync-guard');
    for (const name of ['photos/beach.jpg', 'photos/hills.jpg', 'photos/city.jpg', 'list.md'])
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, name), new TextEncoder().encode(`${name}\n`));
    const folder = await vscode.commands.executeCommand<{ id: string }>(
      'apiWorkbench.storage._testClient',
      'files.insert',
      {},
      { title: 'Guard demo', mimeType: 'application/vnd.google-apps.folder', parents: [{ id: 'root' }] },
    );
    await vscode.commands.executeCommand('apiWorkbench.storage.syncFolder', dir, undefined, {
      store: folder.id,
      storeName: 'Guard demo',
      mode: 'two-way',
    });
    await vscode.commands.executeCommand('apiWorkbench.storage.syncApplyPlan');
    await vscode.commands.executeCommand('apiWorkbench.storage._testSyncWait');
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(dir, 'photos'), { recursive: true, useTrash: false });
  },
  async waterData() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    const uri = await findSample('waterData/*.wqnb');
    // Setup: the sample notebook open; the runner runs it with the notebook's Run All.
    await vscode.window.showNotebookDocument(await vscode.workspace.openNotebookDocument(uri));
  },
  // Run Evaluation of the sample prompt: the runner clicks its CodeLens and answers the pickers.
  async evalGrid() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const doc = await vscode.workspace.openTextDocument(await findSample('generation/station-summary.prompt'));
    await vscode.window.showTextDocument(doc);
    // The lens shows once the generation feature has loaded for the .prompt file.
    await until('the Run Evaluation lens', async () =>
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)).some(
        (l) => l.command?.command === 'apiWorkbench.generation.runEvaluation',
      ),
    );
  },
  async waterQueryCompletion() {
    // The runner opens the sample notebook with Quick Open and types in it.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  },
  async generation() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async generationEditor() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  },
  async generationBlankFrame() {
    // Setup: no editor, and the next chat tab's page watchdog waits 3 s of visible time instead of 8 (test mode).
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('apiWorkbench.generation._testSilentPage', 0, 3000);
  },
  async generationLongPrep() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async generationLong() {},
  async generationBlocked() {},
  async requestLog() {
    // Setup: an empty log, then a water-data query run in a notebook; the runner adds the directory's and the
    // storage tree's calls with the views' Refresh actions and opens the log.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('apiWorkbench.requestLog.clear');
    const doc = await vscode.workspace.openNotebookDocument(
      'apiWorkbench.waterNotebook',
      new vscode.NotebookData([
        new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '/Locations?$top=5', 'water-query'),
      ]),
    );
    await vscode.window.showNotebookDocument(doc);
    await vscode.commands.executeCommand('notebook.execute');
    await until('a water-data output', () => doc.getCells().some((c) => c.outputs.length > 0));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  },
  // The runner clicks the water-data row of the Request Log.
  async requestLogDetails() {},
  async reload() {
    // A clean editor area and a copy of the sample (setup): the runner opens its preview and a Try it form, then
    // the chat; after the reload the preview (with the value typed) and the chat tab are back. The results grid of
    // the evaluation the evalGrid step ran is opened behind it (Open Evaluation Run with the run's file), to come
    // back with the window too.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    // The sync left unfinished first: its setup closes the editors it used.
    await interruptedSync();
    const root = vscode.workspace.workspaceFolders![0].uri;
    const runs = vscode.Uri.joinPath(root, '.api-workbench', 'evals', 'station-summary');
    const names = (await vscode.workspace.fs.readDirectory(runs).then(undefined, () => []))
      .map(([name]) => name)
      .filter((n) => n.endsWith('.jsonl'))
      .sort();
    // Without a run (the evalGrid step failed) the reload is checked all the same; reloadEvalGrid fails alone.
    const latest = names.pop();
    if (latest) {
      await vscode.commands.executeCommand('apiWorkbench.generation.openEvalRun', vscode.Uri.joinPath(runs, latest));
      // Shown before another editor covers it, as a user sees a run they open (a tab never shown has no page yet).
      await vscode.commands.executeCommand('apiWorkbench.generation._testGridWait', { cells: 6 }, 30_000);
    }
    await openSampleCopy('bookshelf.reload.json');
  },
  // After the reload: the runner clicks the storage editor's tab, looks at the side-bar chat and the Request Log.
  async reloadStorageEditor() {},
  async reloadSidebarChat() {},
  async reloadRequestLog() {},
  async reloadEvalGrid() {},
  // After the reload nothing here touches storage: the runner sees the status bar say the sync ran by itself
  // (the entry loads storage in a workspace with links); then the store holds every file once.
  async reloadSync() {},
  async reloadSyncStore() {
    const folder = await until('the resumed sync', async () => {
      const [link] = await vscode.commands.executeCommand<{ interrupted: boolean; link: { storeFolderId: string } }[]>(
        'apiWorkbench.storage._testSyncRecords',
      );
      return link && !link.interrupted ? link.link.storeFolderId : undefined;
    });
    const list = await vscode.commands.executeCommand<{ items: { title: string }[] }>(
      'apiWorkbench.storage._testClient',
      'files.list',
      { q: `'${folder}' in parents and trashed = false`, maxResults: 100 },
    );
    const titles = list.items.map((i) => i.title).sort();
    const want = Array.from({ length: RELOAD_SYNC_FILES }, (_, i) => `part ${i}.txt`).sort();
    if (JSON.stringify(titles) !== JSON.stringify(want)) throw new Error(`the store holds ${titles.join(', ')}`);
  },
  // The hand walk goes on after the reload; the runner clicks its way to the Request Log.
  async walkRequestLog() {},
};

/** A copy of the bookshelf sample named `name`, open in the first column once it is a discovery document. */
async function openSampleCopy(name: string): Promise<void> {
  const sample = await findSample('discovery/bookshelf.v1.json');
  const copy = vscode.Uri.joinPath(sample, '..', name);
  await vscode.workspace.fs.copy(sample, copy, { overwrite: true });
  await vscode.window.showTextDocument(copy, { viewColumn: vscode.ViewColumn.One, preview: false });
  await until('the discovery language', () => vscode.window.activeTextEditor?.document.languageId === 'discovery-json');
}

/** Setup through the API: stars or unstars My files › Projects › budget.csv. */
async function starBudget(starred: boolean): Promise<void> {
  const budget = await vscode.commands.executeCommand<string>(
    'apiWorkbench.storage._testRun',
    ['My files', 'Projects', 'budget.csv'],
    'copyId',
  );
  await vscode.commands.executeCommand(
    'apiWorkbench.storage._testClient',
    'files.patch',
    { fileId: budget },
    { labels: { starred } },
  );
}

const RELOAD_SYNC_FILES = 12;

/**
 * A linked folder whose first run stopped after two uploads (as a reload in the middle of it would leave it):
 * the store folder is made inside Archive, out of the way of the reload step's storage rows.
 */
async function interruptedSync(): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error('no workspace folder');
  const dir = vscode.Uri.joinPath(root, 'sync-reload');
  for (let i = 0; i < RELOAD_SYNC_FILES; i++)
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(dir, `part ${i}.txt`),
      new TextEncoder().encode(`part ${i}\n`),
    );
  const call = <T>(method: string, params: Record<string, unknown>, body?: unknown) =>
    vscode.commands.executeCommand<T>('apiWorkbench.storage._testClient', method, params, body);
  const archive = await call<{ items: { id: string }[] }>('files.list', {
    q: "title = 'Archive' and 'root' in parents and trashed = false",
  });
  const folder = await call<{ id: string }>(
    'files.insert',
    {},
    { title: 'Sync reload', mimeType: 'application/vnd.google-apps.folder', parents: [{ id: archive.items[0].id }] },
  );
  const made = await vscode.commands.executeCommand<{ key: string }>(
    'apiWorkbench.storage.syncFolder',
    dir,
    undefined,
    {
      store: folder.id,
      storeName: 'Sync reload',
      mode: 'upload',
    },
  );
  await vscode.commands.executeCommand('apiWorkbench.storage._testSyncAbortAfter', made.key, 2);
  await vscode.commands.executeCommand('apiWorkbench.storage.syncApplyPlan');
  const [link] = await vscode.commands.executeCommand<{ interrupted: boolean }[]>(
    'apiWorkbench.storage._testSyncRecords',
  );
  if (!link?.interrupted) throw new Error('the sync before the reload was not left unfinished');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Put back after a step, whatever its verdict, so later steps see the defaults. */
const undo: Record<string, () => Promise<void>> = {
  async evalGrid() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async waterQueryCompletion() {
    // The sample as it was: the line typed is not saved.
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  },
  async walkFirstWindow() {
    // The walkthrough the first activation opened stays for the first window's check only.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async walkWalkthroughTicks() {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await focusViews('apiWorkbench.generation', 'apiWorkbench.storage');
  },
  async walkWayIn() {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  },
  async requestLogDetails() {
    // The check folded the other views to reach the log's row: open them again (focusing a view expands it).
    await focusViews('apiWorkbench.directory', 'apiWorkbench.generation', 'apiWorkbench.storage');
  },
  async storageBreadcrumbsStarred() {
    await starBudget(false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  },
  async walkStorageRefused() {
    await storageSetting().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
  },
  async reloadSyncStore() {
    await dropSyncLinks();
  },
  async storageSyncPalette() {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await focusViews('apiWorkbench.generation', 'apiWorkbench.storage');
    await dropSyncLinks();
  },
  async storageSyncGuard() {
    await vscode.commands.executeCommand('notifications.clearAll');
    await focusViews('apiWorkbench.generation', 'apiWorkbench.storage');
    await dropSyncLinks();
  },
  async storageSyncCompare() {
    // The link goes (later steps see no sync status); the files stay. The views the check folded open again.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await focusViews('apiWorkbench.generation', 'apiWorkbench.storage');
    await dropSyncLinks();
  },
};

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
  await ext?.activate();
  // After the reload the editor area is what is being checked: leave it as the reload restored it.
  const only = (process.env.API_WORKBENCH_UI_STEPS ?? '').split(',').filter(Boolean);
  // The first window is checked as it opened (its undo clears it).
  const firstWindow = !only.length || only.includes('walkFirstWindow');
  if (!resumed && !firstWindow) await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const names = Object.keys(steps);
  for (const name of resumed ? names.slice(names.indexOf('reload')) : names) {
    if (only.length && !only.includes(name)) continue;
    try {
      if (resumed && name === 'reload') await verdictOf(name);
      else {
        await steps[name]();
        await handOver(name);
      }
      say(`UI-PASS ${name}`);
    } catch (err) {
      say(`UI-FAIL ${name}: ${(err as Error).message}`);
    } finally {
      await undo[name]?.().catch(() => undefined);
    }
  }
  say('UI-DONE');
}
