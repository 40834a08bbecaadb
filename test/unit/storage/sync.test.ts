import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultFetch, type HttpFetch } from '../../../src/shared/http';
import { StorageClient } from '../../../src/storage/core/client';
import { type SyncOptions } from '../../../src/storage/core/sync/engine';
import { STATE_DIR, statePath } from '../../../src/storage/core/sync/state';
import { linkPerTest, syncLink, localTree, md5, putLocal, putStore, storeItem, storeTree } from './syncHarness';

const NOW = new Date('2026-03-04T10:00:00Z');

describe('storage sync engine', function () {
  this.timeout(60_000);
  const k = linkPerTest();

  const run = (extra: Partial<SyncOptions> = {}) => syncLink(k, { now: () => NOW, ...extra });
  const equalTrees = async () => assert.deepEqual(localTree(k.localDir), await storeTree(k.client, k.folderId));
  const ino = (rel: string) => fs.statSync(path.join(k.localDir, rel)).ino;

  it('first run merges both sides (empty folders too); a run with nothing to do reads one page of the change feed', async () => {
    putLocal(k.localDir, 'a.txt', 'A');
    putLocal(k.localDir, 'docs/ünï cødé.md', '# hi');
    fs.mkdirSync(path.join(k.localDir, 'empty local'));
    await putStore(k.client, k.folderId, 'from store/c.bin', Buffer.alloc(3000, 7));
    await putStore(k.client, k.folderId, 'same.txt', Buffer.from('same'));
    putLocal(k.localDir, 'same.txt', 'same');
    const first = await run();
    assert.equal(first.summary.storeRead, 'full');
    assert.equal(first.summary.counts.upload, 2);
    assert.equal(first.summary.counts.download, 1);
    assert.equal(first.summary.errors, 0);
    assert.ok(!first.events.some((e) => e.path === 'same.txt'), 'equal bytes are never transferred');
    await equalTrees();
    assert.equal(localTree(k.localDir)['empty local'], 'dir');
    assert.ok(fs.existsSync(path.join(k.localDir, STATE_DIR)));

    const before = k.requests();
    const second = await run();
    assert.equal(second.summary.storeRead, 'changes');
    assert.deepEqual(second.events, []);
    assert.ok(k.requests() - before <= 5, `${k.requests() - before} requests`);
    assert.equal(k.requests() - before, 1);
  });

  it('names that are also object keys (__proto__, constructor, hasOwnProperty) sync like any other, once', async () => {
    putLocal(k.localDir, '__proto__', 'p');
    putLocal(k.localDir, 'constructor/toString', 't');
    await putStore(k.client, k.folderId, 'hasOwnProperty', Buffer.from('h'));
    const first = await run();
    assert.equal(first.summary.errors, 0);
    assert.equal(first.summary.counts.upload, 2);
    assert.equal(first.summary.counts.download, 1);
    await equalTrees();
    const second = await run();
    assert.deepEqual(second.events, [], 'nothing is sent twice');
    fs.rmSync(path.join(k.localDir, '__proto__'));
    const third = await run();
    assert.deepEqual(third.summary.counts, { 'delete-store': 1 });
    await equalTrees();
  });

  it('a state that names files by "device:inode" (before inode numbers) is read as it is now: nothing read again', async () => {
    putLocal(k.localDir, 'a.txt', 'A');
    putLocal(k.localDir, 'sub/b.txt', 'B');
    // Not "racy" (recorded within seconds of the files' times), so a second run trusts time and size.
    const old = new Date(Date.now() - 60_000);
    for (const f of ['a.txt', 'sub/b.txt']) fs.utimesSync(path.join(k.localDir, f), old, old);
    await run();
    const file = statePath(k.localDir, k.folderId);
    const dev = fs.statSync(k.localDir).dev;
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    let rewritten = 0;
    const older = lines.map((line) => {
      const v = JSON.parse(line) as unknown[];
      const e = v[2] as { ino?: unknown } | undefined;
      if (v[0] !== 'b' || typeof e?.ino !== 'number') return line;
      rewritten++;
      return JSON.stringify(['b', v[1], { ...e, ino: `${dev}:${e.ino}` }]);
    });
    assert.equal(rewritten, 3, 'two files and a folder');
    fs.writeFileSync(file, `${older.join('\n')}\n`);
    let records = -1;
    const again = await run({ onPlan: (p) => (records = p.records.size) });
    assert.deepEqual(again.events, []);
    assert.equal(records, 0, 'no entry is made again (no file read again)');
  });

  it('keeps both versions of a file edited on both sides, as a conflict copy on both sides', async () => {
    putLocal(k.localDir, 'notes/plan.txt', 'v1');
    await run();
    putLocal(k.localDir, 'notes/plan.txt', 'local v2');
    await putStore(k.client, k.folderId, 'notes/plan.txt', Buffer.from('store v2'));
    const r = await run();
    assert.equal(r.summary.conflicts, 1);
    const local = localTree(k.localDir);
    assert.equal(local['notes/plan.txt'], md5('store v2'));
    assert.equal(local['notes/plan (conflict 2026-03-04 local).txt'], md5('local v2'));
    await equalTrees();
  });

  it('a deletion does not win over an edit on the other side, either way', async () => {
    putLocal(k.localDir, 'x.txt', 'x1');
    putLocal(k.localDir, 'y.txt', 'y1');
    await run();
    fs.rmSync(path.join(k.localDir, 'x.txt'));
    await putStore(k.client, k.folderId, 'x.txt', Buffer.from('x2 store'));
    putLocal(k.localDir, 'y.txt', 'y2 local');
    const y = await storeItem(k.client, k.folderId, 'y.txt');
    await k.client.call('files.trash', { fileId: y!.id! });
    await run();
    const local = localTree(k.localDir);
    assert.equal(local['x.txt'], md5('x2 store'));
    assert.equal(local['y.txt'], md5('y2 local'));
    await equalTrees();
  });

  it('deletions propagate to the trash on both sides when the other side did not change the file', async () => {
    putLocal(k.localDir, 'keep.txt', 'k');
    putLocal(k.localDir, 'gone-local.txt', 'l');
    putLocal(k.localDir, 'old/inner.txt', 'i');
    await putStore(k.client, k.folderId, 'gone-store.txt', Buffer.from('s'));
    await run();
    fs.rmSync(path.join(k.localDir, 'gone-local.txt'));
    fs.rmSync(path.join(k.localDir, 'old'), { recursive: true });
    const s = await storeItem(k.client, k.folderId, 'gone-store.txt');
    await k.client.call('files.trash', { fileId: s!.id! });
    const r = await run();
    assert.deepEqual(Object.keys(localTree(k.localDir)), ['keep.txt']);
    await equalTrees();
    assert.equal(r.summary.counts['delete-store'], 2, JSON.stringify(r.events));
    const trashed = await k.client.getFile(
      (await k.client.listAllFiles({ q: "title = 'gone-local.txt'", fields: 'items(id)' }))[0].id!,
      { fields: 'labels(trashed)' },
    );
    assert.equal(trashed.labels?.trashed, true);
    const trash = path.join(k.localDir, STATE_DIR, 'trash');
    const runs = fs.readdirSync(trash);
    assert.ok(fs.existsSync(path.join(trash, runs[0], 'gone-store.txt')));
  });

  it('carries renames and moves over as moves: same store id, same inode, case-only included', async () => {
    putLocal(k.localDir, 'a/one.txt', '1');
    putLocal(k.localDir, 'b/two.txt', '2');
    putLocal(k.localDir, 'Readme.md', 'r');
    await run();
    const one = await storeItem(k.client, k.folderId, 'a/one.txt');
    const twoIno = ino('b/two.txt');
    // Local: move a file between folders and rename one by case only.
    fs.renameSync(path.join(k.localDir, 'a/one.txt'), path.join(k.localDir, 'b/uno.txt'));
    fs.renameSync(path.join(k.localDir, 'Readme.md'), path.join(k.localDir, 'README.md'));
    // Store: rename a folder.
    const b = await storeItem(k.client, k.folderId, 'b');
    await k.client.call('files.patch', { fileId: b!.id! }, { title: 'B renamed' });
    const r = await run();
    assert.equal(r.summary.counts.upload, undefined, JSON.stringify(r.events));
    assert.equal(r.summary.counts.download, undefined, JSON.stringify(r.events));
    await equalTrees();
    assert.deepEqual(Object.keys(localTree(k.localDir)).sort(), [
      'B renamed',
      'B renamed/two.txt',
      'B renamed/uno.txt',
      'README.md',
      'a',
    ]);
    assert.equal((await storeItem(k.client, k.folderId, 'B renamed/uno.txt'))?.id, one?.id);
    assert.equal(ino('B renamed/two.txt'), twoIno);
  });

  it('the max-delete guard stops a run before it deletes anything', async () => {
    for (const n of ['1', '2', '3', '4']) putLocal(k.localDir, `${n}.txt`, n);
    await run();
    for (const n of ['1', '2', '3']) fs.rmSync(path.join(k.localDir, `${n}.txt`));
    const stopped = await run({ maxDeletePercent: 50 });
    assert.equal(stopped.summary.stoppedByMaxDelete, true);
    assert.equal(stopped.summary.deletes, 3);
    assert.equal(Object.keys(await storeTree(k.client, k.folderId)).length, 4);
    const done = await run({ maxDeletePercent: 75 });
    assert.equal(done.summary.stoppedByMaxDelete, false);
    await equalTrees();
  });

  it('a dry run changes nothing on either side', async () => {
    putLocal(k.localDir, 'l.txt', 'l');
    await putStore(k.client, k.folderId, 's.txt', Buffer.from('s'));
    const before = { local: localTree(k.localDir), store: await storeTree(k.client, k.folderId) };
    const r = await run({ dryRun: true });
    assert.deepEqual(
      r.events.map((e) => `${e.action} ${e.path}`),
      ['upload l.txt', 'download s.txt'],
    );
    assert.deepEqual(localTree(k.localDir), before.local);
    assert.deepEqual(await storeTree(k.client, k.folderId), before.store);
    assert.ok(!fs.existsSync(path.join(k.localDir, STATE_DIR)));
  });

  it('reports and skips duplicate titles, titles the disk cannot hold and workspace documents; never deletes for them', async () => {
    await putStore(k.client, k.folderId, 'twin.txt', Buffer.from('t1'));
    await run();
    await k.client.call('files.insert', {}, { title: 'twin.txt', parents: [{ id: k.folderId }] });
    await k.client.call('files.insert', {}, { title: 'a/b.txt', parents: [{ id: k.folderId }] });
    await k.client.call(
      'files.insert',
      {},
      { title: 'Plan', mimeType: 'application/vnd.google-apps.document', parents: [{ id: k.folderId }] },
    );
    await k.client.call(
      'files.insert',
      {},
      {
        title: 'Link',
        mimeType: 'application/vnd.google-apps.shortcut',
        shortcutDetails: { targetId: k.folderId },
        parents: [{ id: k.folderId }],
      },
    );
    const r = await run();
    assert.equal(r.summary.errors, 0);
    const skipped = r.events.filter((e) => e.action === 'skip').map((e) => e.path);
    assert.deepEqual(skipped.sort(), ['Link', 'Plan', 'a/b.txt', 'twin.txt', 'twin.txt'].sort());
    assert.deepEqual(
      Object.keys(localTree(k.localDir)),
      ['twin.txt'],
      'the synced twin stays, nothing empty is written',
    );
  });

  it('.storeignore (gitignore syntax) keeps paths out on both sides', async () => {
    putLocal(k.localDir, '.storeignore', '*.log\nbuild/\n');
    putLocal(k.localDir, 'app.log', 'noise');
    putLocal(k.localDir, 'build/out.js', 'x');
    putLocal(k.localDir, 'src/main.ts', 'main');
    await putStore(k.client, k.folderId, 'server.log', Buffer.from('store noise'));
    await run();
    assert.deepEqual(Object.keys(await storeTree(k.client, k.folderId)).sort(), [
      '.storeignore',
      'server.log',
      'src',
      'src/main.ts',
    ]);
    assert.ok(!fs.existsSync(path.join(k.localDir, 'server.log')));
  });

  it('upload mode never overwrites a store-side edit and leaves store-only files; download mode mirrors it', async () => {
    putLocal(k.localDir, 'f.txt', 'v1');
    await run();
    putLocal(k.localDir, 'f.txt', 'local v2');
    await putStore(k.client, k.folderId, 'f.txt', Buffer.from('store v2'));
    await putStore(k.client, k.folderId, 'store-only.txt', Buffer.from('s'));
    putLocal(k.localDir, 'local-only.txt', 'l');
    const up = await run({ mode: 'upload' });
    assert.equal(up.summary.conflicts, 1);
    const store = await storeTree(k.client, k.folderId);
    assert.equal(store['f.txt'], md5('store v2'));
    assert.equal(store['f (conflict 2026-03-04 local).txt'], md5('local v2'));
    assert.equal(store['local-only.txt'], md5('l'));
    assert.equal(store['store-only.txt'], md5('s'));
    assert.equal(localTree(k.localDir)['f.txt'], md5('local v2'));
    assert.ok(!fs.existsSync(path.join(k.localDir, 'store-only.txt')));
    const again = await run({ mode: 'upload' });
    assert.deepEqual(again.events, [], 'a second upload run has nothing to do (no second copy)');

    const down = await run({ mode: 'download' });
    const local = localTree(k.localDir);
    assert.equal(local['store-only.txt'], md5('s'));
    assert.equal(local['f.txt'], md5('local v2'), 'download mode keeps the local edit');
    assert.equal(down.summary.errors, 0);
  });

  it('sends a file over the multipart limit through a resumable upload, and downloads it back', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    putLocal(k.localDir, 'big.bin', big);
    await run();
    assert.equal((await storeTree(k.client, k.folderId))['big.bin'], md5(big));
    fs.rmSync(path.join(k.localDir, 'big.bin'));
    fs.rmSync(path.join(k.localDir, STATE_DIR), { recursive: true });
    await run();
    assert.equal(localTree(k.localDir)['big.bin'], md5(big));
  });

  it('a move made on both sides is kept in the state: a later deletion of the folder on the store reaches the disk', async () => {
    putLocal(k.localDir, 'docs/a.txt', 'a');
    await run();
    fs.renameSync(path.join(k.localDir, 'docs'), path.join(k.localDir, 'deep'));
    const docs = await storeItem(k.client, k.folderId, 'docs');
    await k.client.call('files.patch', { fileId: docs!.id! }, { title: 'deep' });
    assert.deepEqual((await run()).events, []);
    await k.client.call('files.trash', { fileId: docs!.id! });
    const r = await run();
    assert.deepEqual(
      r.events.map((e) => `${e.action} ${e.path}`),
      ['delete-local deep'],
    );
    await equalTrees();
  });

  it('never overwrites a store edit made between the listing and the upload (If-Match), and sends the file next run', async () => {
    putLocal(k.localDir, 'race.txt', 'v1');
    await run();
    putLocal(k.localDir, 'race.txt', 'local v2');
    let raced = false;
    // The store's copy is edited by someone else just as the upload of the local edit starts.
    const racing: HttpFetch = async (url, init) => {
      if (!raced && init?.method === 'PUT' && url.includes('/upload/')) {
        raced = true;
        await putStore(k.client, k.folderId, 'race.txt', Buffer.from('store v2'));
      }
      return defaultFetch(url, init);
    };
    const client = new StorageClient({ baseUrl: k.h.origin, auth: { token: () => k.h.token }, fetch: racing });
    const r = await run({ client });
    assert.ok(raced);
    assert.equal(r.summary.deferred, 1);
    assert.deepEqual(
      r.events.map((e) => `${e.action} ${e.path}`),
      ['skip race.txt'],
    );
    assert.equal((await storeTree(k.client, k.folderId))['race.txt'], md5('store v2'));
    const next = await run();
    assert.equal(next.summary.conflicts, 1);
    await equalTrees();
    assert.equal(localTree(k.localDir)['race (conflict 2026-03-04 local).txt'], md5('local v2'));
  });

  it('an update finds the store item as listed or leaves it: a rename or edit made after the listing defers it', async () => {
    putLocal(k.localDir, 'moved.txt', 'v1');
    putLocal(k.localDir, 'edited.txt', 'v1');
    await run();
    putLocal(k.localDir, 'moved.txt', 'local v2');
    putLocal(k.localDir, 'edited.txt', 'local v2');
    const moved = (await storeItem(k.client, k.folderId, 'moved.txt'))!;
    const edited = (await storeItem(k.client, k.folderId, 'edited.txt'))!;
    let raced = 0;
    // Someone renames one item and edits the other after the run listed the store, before its updates start.
    const racing: HttpFetch = async (url, init) => {
      if (!raced && (init?.method ?? 'GET') === 'GET' && /\/files\/[^/?]+\?/.test(url) && url.includes('md5Checksum')) {
        raced++;
        await k.client.call('files.patch', { fileId: moved.id! }, { title: 'renamed.txt' });
        await putStore(k.client, k.folderId, 'edited.txt', Buffer.from('store v2'));
      }
      return defaultFetch(url, init);
    };
    const client = new StorageClient({ baseUrl: k.h.origin, auth: { token: () => k.h.token }, fetch: racing });
    const r = await run({ client });
    assert.equal(raced, 1);
    assert.equal(r.summary.deferred, 2, JSON.stringify(r.events));
    const store = await storeTree(k.client, k.folderId);
    assert.equal(
      store['renamed.txt'],
      md5('v1'),
      'the renamed item keeps its bytes: the local edit was not sent over it',
    );
    assert.equal(store['edited.txt'], md5('store v2'));
    assert.equal((await storeItem(k.client, k.folderId, 'edited.txt'))!.id, edited.id);
    // The next run sees both store changes: the rename is carried to disk with the local edit, the two edits kept.
    const next = await run();
    assert.equal(next.summary.errors, 0);
    await equalTrees();
    const local = localTree(k.localDir);
    assert.equal(local['renamed.txt'], md5('local v2'));
    assert.equal(local['edited.txt'], md5('store v2'));
    assert.equal(local['edited (conflict 2026-03-04 local).txt'], md5('local v2'));
  });
});
