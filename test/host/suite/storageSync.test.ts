// Folder sync in the editor (issue 25), against the in-process sandbox: link a workspace folder, review
// the first run's plan and apply it with per-item choices, incremental runs, a conflict shown, compared
// and resolved, an interrupted run finished by the next activation, and the status bar through it all.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestEvent } from '../../../src/shared/http/observe';
import type { PlainNode } from '../../../src/storage/vscode/sync/testSeams';
import { localTree, md5 } from '../../support/localTree';

const cmd = <T>(name: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`apiWorkbench.storage.${name}`, ...args);
const api = <T>(method: string, params: Record<string, unknown>, body?: unknown) =>
  cmd<T>('_testClient', method, params, body);

interface Plan {
  reason: string;
  message?: string;
  nodes: PlainNode[];
}
interface LinkRecord {
  key: string;
  label: string;
  phase: string;
  link: { local: string; storeFolderId: string; mode: string; exclude?: string[] };
  record: { conflicts: { path: string; copy: string }[]; finished?: string; started?: string; summary?: string };
  interrupted: boolean;
}

const statusText = async () => (await cmd<{ text: string }>('_testSyncStatusBar')).text;
const records = () => cmd<LinkRecord[]>('_testSyncRecords');
const wait = () => cmd('_testSyncWait');

/** The store folder's files (not trashed) by title path → md5, folders as "dir". */
async function storeTree(folderId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (id: string, rel: string) => {
    const list = await api<{ items: { id: string; title: string; mimeType: string; md5Checksum?: string }[] }>(
      'files.list',
      { q: `'${id}' in parents and trashed = false`, maxResults: 1000 },
    );
    for (const f of list.items) {
      const p = rel ? `${rel}/${f.title}` : f.title;
      if (p in out) out[`${p} (duplicate)`] = f.id;
      if (f.mimeType === 'application/vnd.google-apps.folder') {
        out[p] = 'dir';
        await walk(f.id, p);
      } else out[p] = f.md5Checksum ?? '';
    }
  };
  await walk(folderId, '');
  return out;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const find = (nodes: PlainNode[], label: string): PlainNode | undefined => {
  for (const n of nodes) {
    if (n.label === label) return n;
    const inner = find(n.children, label);
    if (inner) return inner;
  }
  return undefined;
};

describe('storage: folder sync in the editor', function () {
  this.timeout(120_000);
  const stamp = Date.now();
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const put = (dir: string, rel: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const newStoreFolder = async (title: string) =>
    (await api<{ id: string }>('files.insert', {}, { title, mimeType: 'application/vnd.google-apps.folder' })).id;
  /** Writes a store file through the `store:` file system (creates or replaces it by its folder's id path). */
  const putStore = (folderId: string, rel: string, text: string) =>
    vscode.workspace.fs.writeFile(vscode.Uri.from({ scheme: 'store', path: `/${folderId}/${rel}` }), Buffer.from(text));
  const local = path.join(ws, `synced-${stamp}`);
  let folderId = '';
  let key = '';

  before(async () => {
    await vscode.extensions.getExtension('api-workbench.api-workbench')?.activate();
  });

  it('shows a welcome with the way in while nothing is linked, and no status bar item', async () => {
    assert.deepEqual(await cmd('_testSyncView'), []);
    assert.equal(await statusText(), '');
  });

  it('links a folder from its Explorer menu: the plan lists each side, per-item choices are applied on confirm', async () => {
    put(local, 'a.txt', 'A');
    put(local, 'big/skip-1.bin', 'not to be sent');
    put(local, 'big/skip-2.bin', 'not either');
    put(local, 'clash.txt', 'local clash');
    put(local, 'both.txt', 'local both');
    folderId = await newStoreFolder(`Synced ${stamp}`);
    await putStore(folderId, 'from-store.txt', 'S');
    await putStore(folderId, 'clash.txt', 'store clash');
    await putStore(folderId, 'both.txt', 'store both');

    // As the Explorer calls it (the folder's URI), with the prompts' answers.
    const made = await cmd<{ key: string }>('syncFolder', vscode.Uri.file(local), undefined, {
      store: folderId,
      storeName: `Synced ${stamp}`,
      mode: 'two-way',
    });
    assert.ok(made?.key, 'a link was made');
    key = made.key;
    const setting = vscode.workspace
      .getConfiguration('apiWorkbench.storage', vscode.workspace.workspaceFolders![0].uri)
      .get<{ local: string; storeFolderId: string; mode: string }[]>('syncLinks');
    assert.deepEqual(
      setting?.map((l) => [l.local, l.storeFolderId, l.mode]),
      [[`synced-${stamp}`, folderId, 'two-way']],
      'the link is kept in the workspace folder setting',
    );

    const plan = await cmd<Plan>('_testSyncPlan');
    assert.equal(plan.reason, 'first');
    assert.match(plan.message ?? '', /First sync: unticked items stay out of the link/);
    const groups = plan.nodes.map((n) => n.label);
    assert.deepEqual(groups, ['Conflicts (2)', 'Upload (4)', 'Download (1)']);
    assert.deepEqual(
      plan.nodes[1].children.map((c) => c.label),
      ['a.txt', 'big', 'big/skip-1.bin', 'big/skip-2.bin'],
    );
    assert.ok(
      plan.nodes.every((g) => g.checked && g.children.every((c) => c.checked)),
      'everything checked at first',
    );
    assert.match(find(plan.nodes, 'clash.txt')?.description ?? '', /keep both/);
    assert.equal(await statusText(), '$(checklist) Sync plan to review');
    assert.equal(localTree(local)['from-store.txt'], undefined, 'nothing changes before Apply');

    // Uncheck the folder "big" (its files follow); keep the local clash.txt; leave both.txt as "keep both".
    await cmd('_testSyncPlanCheck', 'big', false);
    await cmd('_testSyncPlanRun', 'clash.txt', 'syncPlanKeepLocal');
    const chosen = await cmd<Plan>('_testSyncPlan');
    assert.equal(find(chosen.nodes, 'big/skip-1.bin')?.checked, false, 'a file below an unchecked folder is out');
    assert.match(find(chosen.nodes, 'clash.txt')?.description ?? '', /keep local/);

    await cmd('syncApplyPlan');
    await wait();
    assert.equal(await cmd('_testSyncPlan'), undefined, 'the plan view closes');
    const store = await storeTree(folderId);
    assert.equal(store['big'], undefined, 'an unchecked folder is not sent');
    assert.equal(store['clash.txt'], md5('local clash'), 'keep local: the local version replaced the store one');
    assert.equal(store['both.txt'], md5('store both'));
    const copy = Object.keys(store).find((p) => p.startsWith('both (conflict '));
    assert.ok(copy, 'keep both: the local version is a conflict copy');
    const here = localTree(local);
    assert.equal(here['from-store.txt'], md5('S'));
    assert.equal(here['clash.txt'], md5('local clash'));
    const { big: _big, 'big/skip-1.bin': _1, 'big/skip-2.bin': _2, ...synced } = here;
    assert.deepEqual(synced, store, 'both sides the same but for what was left out');
    const [rec] = (await records()).filter((r) => r.key === key);
    assert.deepEqual(rec.link.exclude, ['big'], 'the unchecked folder is left out of the link from now on');
    assert.equal(rec.phase, 'idle');
    assert.deepEqual(
      rec.record.conflicts.map((c) => c.path),
      ['both.txt'],
    );
  });

  it('refuses a second link that would share files with one: the same folder, a folder inside it, one around it', async () => {
    const other = await newStoreFolder(`Other ${stamp}`);
    const before = (await records()).map((r) => r.key);
    for (const dir of [local, path.join(local, 'big'), ws]) {
      const made = await cmd('syncFolder', vscode.Uri.file(dir), undefined, {
        store: other,
        storeName: `Other ${stamp}`,
        mode: 'two-way',
      });
      assert.equal(made, undefined, `no link made for ${dir}`);
    }
    assert.deepEqual(
      (await records()).map((r) => r.key),
      before,
      'no link saved',
    );
    assert.equal(await cmd('_testSyncPlan'), undefined, 'no plan opened');
    assert.deepEqual(await storeTree(other), {}, 'nothing sent');
  });

  it('every request of a sync goes through the shared HTTP layer and shows in the Request Log', async () => {
    const log = await vscode.commands.executeCommand<{ entries: RequestEvent[] }>('apiWorkbench._testRequestLog');
    const urls = log.entries.map((e) => e.url);
    assert.ok(
      urls.some((u) => /\/changes\/startPageToken/.test(u)),
      'the change feed token',
    );
    assert.ok(
      urls.some((u) => /\/generateIds/.test(u)),
      'the reserved ids of new files',
    );
    assert.ok(
      urls.some((u) => /upload\/store\/v2\/files/.test(u)),
      'the uploads',
    );
  });

  it('shows the conflict; Compare opens a diff of the file and its copy; Keep This removes the copy on both sides', async () => {
    const view = await cmd<PlainNode[]>('_testSyncView');
    const link = view.find((n) => n.label.startsWith(`synced-${stamp}`));
    assert.ok(link, 'the link is in the Sync view');
    assert.match(link.description ?? '', /^two-way · in sync/);
    const conflicts = find(link.children, 'Conflicts (1)');
    assert.ok(conflicts, 'a Conflicts list');
    const node = conflicts.children[0];
    assert.equal(node.label, 'both.txt');
    assert.equal(node.command, 'apiWorkbench.storage.syncCompare', 'a click compares');
    assert.equal(await statusText(), '$(warning) 1 sync conflict');

    await cmd('_testSyncRun', [link.label, 'Conflicts (1)', 'both.txt'], 'syncCompare');
    const tab = await until('the diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.equal(path.basename(tab.modified.fsPath), 'both.txt');
    assert.match(path.basename(tab.original.fsPath), /^both \(conflict \d{4}-\d\d-\d\d local\)\.txt$/);
    assert.equal(fs.readFileSync(tab.original.fsPath, 'utf8'), 'local both');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await cmd('_testSyncRun', [link.label, 'Conflicts (1)', 'both.txt'], 'syncKeepThis');
    await wait();
    const store = await storeTree(folderId);
    assert.ok(!Object.keys(store).some((p) => p.includes('(conflict')), 'the copy is gone from the store');
    assert.ok(!Object.keys(localTree(local)).some((p) => p.includes('(conflict')), 'and from the disk');
    assert.equal(store['both.txt'], md5('store both'));
    assert.equal(await statusText(), '$(check) In sync');
    const after = (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === link.label)!;
    assert.equal(find(after.children, 'Conflicts (1)'), undefined, 'the Conflicts list is empty');
  });

  it('syncs a local edit through the file watcher, and Keep That puts the copy version under the name', async () => {
    put(local, 'a.txt', 'A edited here');
    await until('the watcher-started run', async () => (await storeTree(folderId))['a.txt'] === md5('A edited here'));
    await wait();
    // Both sides change a.txt: a conflict; Keep That keeps the local version (the copy) under the name.
    put(local, 'a.txt', 'A local');
    await putStore(folderId, 'a.txt', 'A store');
    const label = (await records()).find((r) => r.key === key)!.label;
    await cmd('_testSyncRun', [label], 'syncNow');
    await wait();
    assert.equal(await statusText(), '$(warning) 1 sync conflict');
    await cmd('_testSyncRun', [label, 'Conflicts (1)', 'a.txt'], 'syncKeepThat');
    await wait();
    const store = await storeTree(folderId);
    assert.equal(store['a.txt'], md5('A local'));
    assert.equal(localTree(local)['a.txt'], md5('A local'));
    assert.ok(!Object.keys(store).some((p) => p.includes('(conflict')));
    assert.equal(await statusText(), '$(check) In sync');
  });

  it('the Sync view is redrawn when what it shows changes, never for a change it does not show', async () => {
    await wait();
    const label = (await records()).find((r) => r.key === key)!.label;
    const before = await cmd<number>('_testSyncRedraws');
    assert.equal(await cmd<number>('_testSyncRedraws'), before, 'a paint that shows nothing new redraws nothing');
    put(local, 'redraw.txt', 'new');
    await cmd('_testSyncRun', [label], 'syncNow');
    await wait();
    assert.ok((await cmd<number>('_testSyncRedraws')) > before, 'a run (its last run time) redraws the view');
  });

  it('status bar: syncing n of m while a run goes, an error with what to do when it fails', async () => {
    const label = (await records()).find((r) => r.key === key)!.label;
    await cmd('_testSyncStatusHistory');
    // Slow the store down (rate-limit answers, retried) so the run is seen going.
    await cmd('_testFaults', { rateLimitPerSecond: 6 });
    try {
      for (let i = 0; i < 12; i++) put(local, `many/f${i}.txt`, `file ${i}`);
      await cmd('_testSyncRun', [label], 'syncNow');
      await wait();
    } finally {
      await cmd('_testFaults', { rateLimitPerSecond: 0 });
    }
    const seen = await cmd<string[]>('_testSyncStatusHistory');
    assert.ok(
      seen.some((t) => /^\$\(sync~spin\) Syncing \d+ of 13$/.test(t)),
      `the status bar counted the run: ${seen.join(' | ')}`,
    );
    assert.equal(seen.at(-1), '$(check) In sync');

    // An item the run cannot do: listed with what to do, and the status bar says so.
    // (Every run fails to reserve ids until the faults are cleared: a run the watcher starts meanwhile fails too.)
    const refused = { kind: 'status', status: 400, pathContains: '/generateIds' };
    await cmd('_testFaults', { queued: Array.from({ length: 20 }, () => refused) });
    put(local, 'later.txt', 'later');
    await cmd('_testSyncRun', [label], 'syncNow');
    await wait();
    assert.equal(await statusText(), '$(error) Sync error');
    let link = (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === label)!;
    const problem = find(link.children, 'later.txt');
    assert.ok(problem, 'the file that was not sent is listed');
    assert.match(problem.description ?? '', /Injected 400 — Sync Now retries it/);
    await cmd('_testFaults', { reset: true });
    await cmd('_testSyncRun', [label], 'syncNow');
    await wait();
    assert.equal((await storeTree(folderId))['later.txt'], md5('later'));
    assert.equal(await statusText(), '$(check) In sync');

    // A run that cannot start (its state file damaged): the link says why and what to do.
    const stateDir = path.join(local, '.api-workbench-sync');
    const stateFile = path.join(
      stateDir,
      fs.readdirSync(stateDir).find((f) => f.startsWith('state-'))!,
    );
    const saved = fs.readFileSync(stateFile);
    fs.writeFileSync(stateFile, '{ not json');
    await cmd('_testSyncRun', [label], 'syncNow');
    await wait();
    assert.equal(await statusText(), '$(error) Sync error');
    link = (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === label)!;
    assert.match(link.description ?? '', /last run failed/);
    assert.match(link.children[0].label, /is not valid JSON/);
    assert.match(link.children[0].description ?? '', /Move the state file away/);
    fs.writeFileSync(stateFile, saved);
    await cmd('_testSyncRun', [label], 'syncNow');
    await wait();
    assert.equal(await statusText(), '$(check) In sync');
  });

  it('a run stopped in the middle (as by a reload) is run again by the next activation, with no duplicate', async () => {
    const dir = path.join(ws, `resumed-${stamp}`);
    for (let i = 0; i < 10; i++) put(dir, `r${i}.txt`, `resume ${i}`);
    const store = await newStoreFolder(`Resumed ${stamp}`);
    const made = await cmd<{ key: string }>('syncFolder', vscode.Uri.file(dir), undefined, {
      store,
      storeName: `Resumed ${stamp}`,
      mode: 'upload',
    });
    await cmd('_testSyncAbortAfter', made.key, 3);
    // Applied and stopped after three uploads; no wait for the follow-up run the change feed would start.
    await cmd('syncApplyPlan');
    const before = (await records()).find((r) => r.link.storeFolderId === store)!;
    assert.equal(before.interrupted, true, 'the run is recorded as unfinished');
    assert.equal(before.phase, 'stopped');
    const shown = (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === before.label);
    assert.match(shown?.description ?? '', /stopped part-way: Sync Now finishes it/);
    const partial = Object.keys(await storeTree(store)).length;
    assert.ok(partial < 10, `stopped part-way (${partial} of 10 on the store)`);

    const resumed = await cmd<string[]>('_testSyncRestart');
    assert.ok(resumed.includes(before.key), 'the unfinished link ran again at activation');
    const after = await storeTree(store);
    assert.deepEqual(
      Object.keys(after).sort(),
      Array.from({ length: 10 }, (_, i) => `r${i}.txt`).sort(),
      'every file once, no duplicate',
    );
    for (let i = 0; i < 10; i++) assert.equal(after[`r${i}.txt`], md5(`resume ${i}`));
    const rec = (await records()).find((r) => r.key === before.key)!;
    assert.equal(rec.interrupted, false);
    assert.equal(rec.phase, 'idle');
  });

  it('upload mode: the conflict copy is on the store; Compare shows the store version, Keep This sends the local one', async () => {
    const rec = (await records()).find((r) => r.link.mode === 'upload')!;
    const dir = path.join(ws, rec.link.local);
    put(dir, 'r0.txt', 'r0 local');
    await putStore(rec.link.storeFolderId, 'r0.txt', 'r0 store');
    await cmd('_testSyncRun', [rec.label], 'syncNow');
    await wait();
    let store = await storeTree(rec.link.storeFolderId);
    const copy = Object.keys(store).find((p) => p.startsWith('r0 (conflict '));
    assert.ok(copy, 'the local version went to the store as a copy');
    assert.equal(store[copy], md5('r0 local'));
    assert.equal(store['r0.txt'], md5('r0 store'), 'the store edit is not overwritten');
    const view = (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === rec.label)!;
    assert.equal(find(view.children, 'r0.txt')?.command, 'apiWorkbench.storage.syncCompare');

    await cmd('_testSyncRun', [rec.label, 'Conflicts (1)', 'r0.txt'], 'syncCompare');
    const tab = await until('the diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.original.scheme === 'store' ? input : undefined;
    });
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(tab.original)).toString(), 'r0 store');
    assert.equal(tab.modified.fsPath, path.join(dir, 'r0.txt'));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await cmd('_testSyncRun', [rec.label, 'Conflicts (1)', 'r0.txt'], 'syncKeepThis');
    await wait();
    store = await storeTree(rec.link.storeFolderId);
    assert.equal(store['r0.txt'], md5('r0 local'), 'the local version now has the name on the store');
    assert.ok(!Object.keys(store).some((p) => p.includes('(conflict')), 'the store copy went to the trash');
    assert.equal(localTree(dir)['r0.txt'], md5('r0 local'));
    const after = (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === rec.label)!;
    assert.equal(find(after.children, 'Conflicts (1)'), undefined);
  });

  it('links from a folder of the Storage view; a plan closed without applying waits in the Sync view for review', async () => {
    const title = `From tree ${stamp}`;
    const store = await newStoreFolder(title);
    await putStore(store, 'remote.txt', 'remote');
    await cmd('refresh');
    const dir = path.join(ws, `from-tree-${stamp}`);
    fs.mkdirSync(dir);
    // As the Storage view's context menu calls it (the folder's node), with the prompts' answers.
    const made = await cmd<{ key: string }>('_testRun', ['My files', title], 'syncFolder', undefined, {
      local: dir,
      mode: 'download',
    });
    assert.ok(made.key.endsWith(`#from-tree-${stamp}#${store}`));
    const plan = await cmd<Plan>('_testSyncPlan');
    assert.deepEqual(
      plan.nodes.map((n) => n.label),
      ['Download (1)'],
    );
    await cmd('syncDiscardPlan');
    assert.equal(await cmd('_testSyncPlan'), undefined);
    const rec = (await records()).find((r) => r.key === made.key)!;
    assert.equal(rec.phase, 'plan', 'not run: nothing changed');
    assert.equal(fs.readdirSync(dir).length, 0);
    const node = (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === rec.label)!;
    assert.match(node.description ?? '', /^download only · plan to review/);
    assert.equal(node.command, 'apiWorkbench.storage.syncReviewPlan', 'a click reviews the plan');
    await cmd('_testSyncRun', [rec.label], 'syncReviewPlan');
    assert.equal((await cmd<Plan>('_testSyncPlan')).nodes[0].label, 'Download (1)');
    await cmd('syncApplyPlan');
    await wait();
    assert.equal(fs.readFileSync(path.join(dir, 'remote.txt'), 'utf8'), 'remote');
  });

  it('the max-delete guard stops a run and opens its plan; a deletion restored comes back, the rest is deleted', async () => {
    const title = `Guarded ${stamp}`;
    const store = await newStoreFolder(title);
    const dir = path.join(ws, `guarded-${stamp}`);
    put(dir, 'photos/a.jpg', 'A');
    put(dir, 'photos/b.jpg', 'B');
    put(dir, 'photos/2026/c.jpg', 'C');
    put(dir, 'gone.txt', 'G');
    put(dir, 'stay.txt', 'S');
    const made = await cmd<{ key: string }>('syncFolder', vscode.Uri.file(dir), undefined, {
      store,
      storeName: title,
      mode: 'two-way',
    });
    await cmd('syncApplyPlan');
    await wait();
    const synced = await storeTree(store);
    assert.deepEqual(synced, localTree(dir), 'the first run made both sides the same');

    // The photos folder deleted here by mistake, gone.txt on purpose: 4 of 5 files, over the 50 % limit.
    fs.rmSync(path.join(dir, 'photos'), { recursive: true });
    fs.rmSync(path.join(dir, 'gone.txt'));
    const rec = (await records()).find((r) => r.key === made.key)!;
    await cmd('_testSyncRun', [rec.label], 'syncNow');
    const plan = await until('the guard to open the plan', async () => {
      const p = await cmd<Plan | undefined>('_testSyncPlan');
      return p?.reason === 'maxDelete' ? p : undefined;
    });
    await wait();
    assert.match(plan.message ?? '', /Would delete 4 of 5 synced files\. Right-click a deletion to restore it/);
    assert.deepEqual(
      plan.nodes.map((n) => n.label),
      ['Delete on the store (2)'],
    );
    assert.match(find(plan.nodes, 'photos')?.description ?? '', /folder, 3 file/);
    assert.equal(find(plan.nodes, 'photos')?.contextValue, 'syncPlan.delete.delete', 'Restore is offered');
    assert.deepEqual(await storeTree(store), synced, 'nothing was deleted on the store');
    assert.match(
      (await records()).find((r) => r.key === made.key)?.record.summary ?? '',
      /^stopped before deleting 4 file\(s\)/,
      'the last run is not reported as done',
    );

    // Waiting for the review: the status bar says so (not "In sync"), and a change here starts no run that
    // would stop and ask again.
    assert.equal(await statusText(), '$(checklist) Sync plan to review');
    assert.equal((await records()).find((r) => r.key === made.key)?.phase, 'plan');
    await cmd('syncDiscardPlan');
    put(dir, 'while waiting.txt', 'W');
    await new Promise((r) => setTimeout(r, 2500));
    await wait();
    assert.equal((await storeTree(store))['while waiting.txt'], undefined, 'no automatic run while the plan waits');
    // A click on the link in the Sync view reviews it again: the deletions, not a first sync.
    await cmd('_testSyncRun', [rec.label], 'syncReviewPlan');
    const again = await cmd<Plan>('_testSyncPlan');
    assert.equal(again.reason, 'maxDelete');
    assert.deepEqual(
      again.nodes.map((n) => n.label),
      ['Upload (1)', 'Delete on the store (2)'],
    );

    await cmd('_testSyncPlanRun', 'photos', 'syncPlanRestore');
    const chosen = await cmd<Plan>('_testSyncPlan');
    assert.match(find(chosen.nodes, 'photos')?.description ?? '', /restore: the store copy comes back here/);
    assert.equal(find(chosen.nodes, 'photos')?.contextValue, 'syncPlan.delete.restore', 'Delete as Planned is offered');
    await cmd('syncApplyPlan');
    await wait();
    const expected: Record<string, string> = { ...synced, 'while waiting.txt': md5('W') };
    const { 'gone.txt': _gone, ...kept } = expected;
    assert.deepEqual(localTree(dir), kept, 'the photos are back with their bytes; gone.txt stays deleted');
    assert.deepEqual(await storeTree(store), kept, 'gone.txt went to the store trash, the photos stayed');
    assert.equal((await records()).find((r) => r.key === made.key)?.phase, 'idle');
    assert.equal(await statusText(), '$(check) In sync');
  });

  it('Pause stops a link (the status bar says so, a change waits); Resume syncs what waited', async () => {
    await wait();
    const all = await records();
    for (const r of all) await cmd('_testSyncRun', [r.label], 'syncPause');
    assert.equal(await statusText(), '$(debug-pause) Sync paused');
    const rec = all.find((r) => r.key === key)!;
    assert.match(
      (await cmd<PlainNode[]>('_testSyncView')).find((n) => n.label === rec.label)?.description ?? '',
      /paused/,
    );
    put(local, 'while paused.txt', 'waited');
    await cmd('_testSyncRun', [rec.label], 'syncNow');
    await new Promise((r) => setTimeout(r, 1500));
    await wait();
    assert.equal((await storeTree(folderId))['while paused.txt'], undefined, 'nothing runs while paused');
    await cmd('_testSyncRun', [rec.label], 'syncResume');
    await wait();
    assert.equal((await storeTree(folderId))['while paused.txt'], md5('waited'));
  });

  it('Unlink removes the link and its state; the files stay', async () => {
    for (const r of await records()) await cmd('_testSyncRun', [r.label], 'syncUnlink', true);
    assert.deepEqual(await records(), []);
    assert.deepEqual(await cmd('_testSyncView'), []);
    assert.equal(await statusText(), '');
    assert.ok(fs.existsSync(path.join(local, 'from-store.txt')));
  });
});
