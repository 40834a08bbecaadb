import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FOLDER_MIME } from '../../../src/shared/wire/storage';
import type { PlanChoice } from '../../../src/storage/core/sync/choices';
import { syncFolder, type SyncOptions } from '../../../src/storage/core/sync/engine';
import type { Plan } from '../../../src/storage/core/sync/model';
import { linkPerTest, localTree, md5, putLocal, putStore, storeTree } from './syncHarness';

const NOW = new Date('2026-03-04T10:00:00Z');

// What the editor's plan view hands the engine: paths left out of the link, a choice per conflict, and
// the plan itself before anything is applied (for "n of m" progress).
describe('storage sync engine: reviewed plans (exclusions, conflict choices, the plan before it is applied)', function () {
  this.timeout(60_000);
  const k = linkPerTest();

  const run = (extra: Partial<SyncOptions> = {}) =>
    syncFolder({ client: k.client, localDir: k.localDir, storeFolderId: k.folderId, now: () => NOW, ...extra });
  /** The linked folder's item of this title (at its top). */
  const topItem = async (title: string) =>
    (await k.client.listAllFiles({ q: `'${k.folderId}' in parents and title = '${title}'` }))[0];
  const putAll = (files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) putLocal(k.localDir, rel, text);
  };

  it('keeps excluded paths (and everything below an excluded folder) out of the plan on both sides, run after run', async () => {
    putLocal(k.localDir, 'keep.txt', 'k');
    putLocal(k.localDir, 'big/one.bin', 'x');
    putLocal(k.localDir, 'big/two.bin', 'y');
    await putStore(k.client, k.folderId, 'remote only.txt', Buffer.from('r'));
    const exclude = ['big', 'remote only.txt'];
    const preview = await run({ dryRun: true, exclude });
    assert.deepEqual(
      preview.plan.actions.map((a) => ('path' in a ? a.path : a.from)),
      ['keep.txt'],
      'only the included file is planned',
    );
    await run({ exclude });
    const store = await storeTree(k.client, k.folderId);
    assert.deepEqual(Object.keys(store).sort(), ['keep.txt', 'remote only.txt']);
    assert.ok(!('remote only.txt' in localTree(k.localDir)), 'an excluded store file is not downloaded');
    putLocal(k.localDir, 'big/three.bin', 'z');
    const again = await run({ exclude });
    assert.deepEqual(again.plan.actions, [], 'a later run leaves them out too');
  });

  it('settles a conflict as the plan view chose: keep local uploads over the store, keep store downloads over the disk, keep both copies', async () => {
    for (const [name, l, s] of [
      ['a.txt', 'local a', 'store a'],
      ['b.txt', 'local b', 'store b'],
      ['c.txt', 'local c', 'store c'],
    ]) {
      putLocal(k.localDir, name, l);
      await putStore(k.client, k.folderId, name, Buffer.from(s));
    }
    const seen: Plan[] = [];
    const r = await run({
      choices: new Map([
        ['a.txt', 'keep-local'],
        ['b.txt', 'keep-store'],
      ]),
      onPlan: (p) => seen.push(p),
    });
    assert.equal(seen.length, 1, 'the plan is handed over once, before it is applied');
    assert.deepEqual(
      seen[0].actions.map((a) => a.kind),
      ['upload', 'download', 'conflict'],
    );
    assert.equal(r.summary.conflicts, 1);
    const local = localTree(k.localDir);
    assert.equal(local['a.txt'], md5('local a'));
    assert.equal(local['b.txt'], md5('store b'));
    assert.equal(local['c.txt'], md5('store c'));
    assert.equal(local['c (conflict 2026-03-04 local).txt'], md5('local c'));
    assert.deepEqual(local, await storeTree(k.client, k.folderId), 'both sides the same');
    assert.deepEqual((await run()).plan.actions, [], 'nothing left to do');
  });

  it('a one-way link keeps the conflict when the choice would write the side it never writes', async () => {
    putLocal(k.localDir, 'a.txt', 'local a');
    await putStore(k.client, k.folderId, 'a.txt', Buffer.from('store a'));
    const r = await run({ mode: 'upload', dryRun: true, choices: new Map([['a.txt', 'keep-store']]) });
    assert.deepEqual(
      r.plan.actions.map((a) => a.kind),
      ['conflict'],
    );
  });

  it('restores a deletion the user turned back: the store copy comes back here, the local one goes back to the store', async () => {
    putAll({ 'photos/a.jpg': 'A', 'photos/2026/b.jpg': 'B', 'gone.txt': 'G', 'notes.txt': 'N', 'stay.txt': 'S' });
    await run();
    const synced = localTree(k.localDir);
    // Deleted here by mistake: the folder (with a folder inside) and gone.txt; only gone.txt is meant.
    fs.rmSync(path.join(k.localDir, 'photos'), { recursive: true });
    fs.rmSync(path.join(k.localDir, 'gone.txt'));
    // Deleted on the store by mistake.
    const notes = await topItem('notes.txt');
    await k.client.call('files.trash', { fileId: notes.id! });

    const guarded = await run();
    assert.equal(guarded.summary.stoppedByMaxDelete, true, 'over half the files would go: the guard stops');
    const r = await run({
      maxDeletePercent: 100,
      choices: new Map([
        ['photos', 'restore'],
        ['notes.txt', 'restore'],
      ]),
    });
    assert.deepEqual(
      r.plan.actions.map((a) => `${a.kind} ${'path' in a ? a.path : a.from}`).sort(),
      [
        'delete-store gone.txt',
        'download photos/2026/b.jpg',
        'download photos/a.jpg',
        'mkdir-local photos',
        'mkdir-local photos/2026',
        'untrash-store notes.txt',
      ].sort(),
    );
    const { 'gone.txt': _gone, ...kept } = synced;
    assert.deepEqual(localTree(k.localDir), kept, 'the folder is back with its bytes; gone.txt stays deleted');
    assert.deepEqual(await storeTree(k.client, k.folderId), kept, 'notes.txt is on the store again');
    const back = await topItem('notes.txt');
    assert.equal(back.id, notes.id, 'the same item, taken back from the trash (its id and sharing kept)');
    assert.deepEqual((await run()).plan.actions, [], 'nothing left to do: the link keeps the restored items');
  });

  it('restores a folder the store deleted from its trash; an item gone for good, or back elsewhere, goes up anew', async () => {
    putAll({ 'docs/a.txt': 'A', 'docs/deep/b.txt': 'B', 'purged.txt': 'P', 'moved.txt': 'M', 'stay.txt': 'S' });
    await run();
    const synced = localTree(k.localDir);
    const [docs, purged, moved] = [await topItem('docs'), await topItem('purged.txt'), await topItem('moved.txt')];
    await k.client.call('files.trash', { fileId: docs.id! });
    await k.client.call('files.delete', { fileId: purged.id! });
    // Moved into another folder, then trashed: taking it back would put it there, not here.
    const elsewhere = await k.client.call(
      'files.insert',
      {},
      { title: `elsewhere-${Date.now()}`, mimeType: FOLDER_MIME, parents: [{ id: 'root' }] },
    );
    await k.client.call('files.patch', { fileId: moved.id!, addParents: elsewhere.id!, removeParents: k.folderId }, {});
    await k.client.call('files.trash', { fileId: moved.id! });

    const restore = new Map<string, PlanChoice>([
      ['docs', 'restore'],
      ['purged.txt', 'restore'],
      ['moved.txt', 'restore'],
    ]);
    const r = await run({ maxDeletePercent: 100, choices: restore });
    assert.equal(r.summary.errors, 0);
    assert.deepEqual(localTree(k.localDir), synced, 'nothing deleted here');
    assert.deepEqual(await storeTree(k.client, k.folderId), synced, 'everything is on the store again');
    assert.equal((await topItem('docs')).id, docs.id, 'the folder is the same item');
    assert.notEqual((await topItem('purged.txt')).id, purged.id, 'one deleted for good is uploaded as a new item');
    assert.notEqual((await topItem('moved.txt')).id, moved.id, 'one that would come back elsewhere is uploaded anew');
    const old = await k.client.call('files.get', { fileId: moved.id!, fields: 'labels(trashed)' });
    assert.equal(old.labels?.trashed, true, 'and the moved one stays in the trash');
    assert.deepEqual((await run()).plan.actions, [], 'nothing left to do');
  });

  it('a file the store changed before it deleted it comes back from the trash beside the local one: both kept', async () => {
    putLocal(k.localDir, 'a.txt', 'local');
    putLocal(k.localDir, 'b.txt', 'B');
    await run();
    const a = await topItem('a.txt');
    // Changed on the store (the local file unchanged since), then deleted there.
    await putStore(k.client, k.folderId, 'a.txt', Buffer.from('changed, then deleted'));
    await k.client.call('files.trash', { fileId: a.id! });
    const r = await run({ maxDeletePercent: 100, choices: new Map([['a.txt', 'restore']]) });
    assert.deepEqual(
      r.plan.actions.map((x) => x.kind),
      ['untrash-store'],
    );
    assert.equal(localTree(k.localDir)['a.txt'], md5('local'), 'the local file is not replaced');
    const next = await run();
    assert.deepEqual(
      next.plan.actions.map((x) => x.kind),
      ['conflict'],
      'the next run keeps both versions',
    );
    const here = localTree(k.localDir);
    assert.equal(here['a.txt'], md5('changed, then deleted'));
    assert.equal(here['a (conflict 2026-03-04 local).txt'], md5('local'));
    assert.deepEqual(here, await storeTree(k.client, k.folderId));
  });

  it('a one-way link restores only what it may write: a download-only link cannot send a deleted file back', async () => {
    putLocal(k.localDir, 'a.txt', 'A');
    await run();
    const a = await topItem('a.txt');
    await k.client.call('files.trash', { fileId: a.id! });
    const r = await run({
      mode: 'download',
      dryRun: true,
      maxDeletePercent: 100,
      choices: new Map([['a.txt', 'restore']]),
    });
    assert.deepEqual(
      r.plan.actions.map((x) => x.kind),
      ['delete-local'],
    );
  });
});
