import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FOLDER_MIME } from '../../../src/shared/wire/storage';
import { syncFolder } from '../../../src/storage/core/sync/engine';
import { STATE_DIR } from '../../../src/storage/core/sync/state';
import { linkPerTest, localTree, md5, putLocal, putStore, storeTree } from './syncHarness';

// One folder on disk is synced by one link, and links never nest: each way two links could share files is
// refused before anything changes, with what to do. What a side cannot hold or is not content (the sync's own
// folder at any depth, a link, a pipe) is reported and left alone on the other side, never taken for a deletion.
describe('storage sync engine: what is never synced, and links that would share files', function () {
  this.timeout(60_000);
  const k = linkPerTest();
  const otherFolder = async () =>
    (
      await k.client.call(
        'files.insert',
        {},
        { title: `other-${Date.now()}`, mimeType: FOLDER_MIME, parents: [{ id: 'root' }] },
      )
    ).id!;
  const sync = (localDir: string, storeFolderId: string) =>
    syncFolder({ client: k.client, localDir, storeFolderId, maxDeletePercent: 100 });

  it('refuses a folder synced with another store folder already: the two would be merged', async () => {
    putLocal(k.localDir, 'a.txt', 'A');
    await sync(k.localDir, k.folderId);
    const other = await otherFolder();
    await assert.rejects(
      sync(k.localDir, other),
      /is synced with another store folder already \(\.api-workbench-sync\/state-.*\.json\)/,
    );
    assert.deepEqual(await storeTree(k.client, other), {}, 'nothing sent to the other store folder');
    assert.deepEqual((await sync(k.localDir, k.folderId)).plan.actions, [], 'its own link goes on');
  });

  it('refuses a folder inside a synced one, and a folder holding a synced one, changing nothing on either side', async () => {
    putLocal(k.localDir, 'top.txt', 'T');
    putLocal(k.localDir, 'inner/x.txt', 'X');
    const other = await otherFolder();
    const inner = path.join(k.localDir, 'inner');
    // The inner folder linked first: the outer one may not take it in.
    await sync(inner, other);
    await assert.rejects(
      sync(k.localDir, k.folderId),
      /inner inside .* is synced with a store folder already \(links never nest\)/,
    );
    assert.deepEqual(await storeTree(k.client, k.folderId), {}, 'the outer run sent nothing');
    // Once the inner link is gone (its state), the outer folder syncs, and the inner one may not link again.
    for (const f of fs.readdirSync(path.join(inner, STATE_DIR)))
      if (f.startsWith('state-')) fs.rmSync(path.join(inner, STATE_DIR, f));
    await sync(k.localDir, k.folderId);
    const store = await storeTree(k.client, k.folderId);
    assert.equal(store['inner/x.txt'], md5('X'));
    assert.ok(!Object.keys(store).some((p) => p.includes(STATE_DIR)), 'a state folder at any depth is never content');
    await assert.rejects(sync(inner, other), /inner is inside .*, which is synced with a store folder already/);
    const { 'inner/.api-workbench-sync': leftover, ...here } = localTree(k.localDir);
    assert.equal(leftover, 'dir', "the inner link's folder (its trash) stays on disk");
    assert.deepEqual(here, store, 'both sides the same');
  });

  it("reports a store folder named as the sync's own folder, at any depth and in any case, and never deletes it", async () => {
    const sub = await k.client.call(
      'files.insert',
      {},
      { title: 'sub', mimeType: FOLDER_MIME, parents: [{ id: k.folderId }] },
    );
    for (const [title, parent] of [
      [STATE_DIR, sub.id!],
      ['.API-Workbench-Sync', k.folderId],
    ]) {
      const f = await k.client.call('files.insert', {}, { title, mimeType: FOLDER_MIME, parents: [{ id: parent }] });
      await putStore(k.client, f.id!, 'kept.txt', Buffer.from('K'));
    }
    const before = await storeTree(k.client, k.folderId);
    for (let run = 1; run <= 2; run++) {
      const r = await syncFolder({
        client: k.client,
        localDir: k.localDir,
        storeFolderId: k.folderId,
        onEvent: () => undefined,
      });
      assert.deepEqual(
        r.plan.skipped.map((x) => `${x.side} ${x.path}: ${x.reason}`).sort(),
        [
          `store .API-Workbench-Sync: "${STATE_DIR}" is the name of the sync's own folder, never synced`,
          `store sub/${STATE_DIR}: "${STATE_DIR}" is the name of the sync's own folder, never synced`,
        ],
        `run ${run}`,
      );
      assert.deepEqual(
        await storeTree(k.client, k.folderId),
        before,
        `run ${run}: nothing deleted or added on the store`,
      );
      assert.deepEqual(localTree(k.localDir), { sub: 'dir' }, `run ${run}: nothing of them written here`);
    }
  });

  it('reports a symbolic link or a pipe put where a synced file was, and leaves the store file alone', async () => {
    putLocal(k.localDir, 'a.txt', 'A');
    putLocal(k.localDir, 'b.txt', 'B');
    await syncFolder({ client: k.client, localDir: k.localDir, storeFolderId: k.folderId });
    const synced = await storeTree(k.client, k.folderId);
    fs.rmSync(path.join(k.localDir, 'a.txt'));
    fs.symlinkSync(os.tmpdir(), path.join(k.localDir, 'a.txt'));
    fs.rmSync(path.join(k.localDir, 'b.txt'));
    execFileSync('mkfifo', [path.join(k.localDir, 'b.txt')]);
    const r = await syncFolder({
      client: k.client,
      localDir: k.localDir,
      storeFolderId: k.folderId,
      maxDeletePercent: 100,
    });
    assert.deepEqual(r.plan.skipped.map((x) => `${x.side} ${x.path}: ${x.reason}`).sort(), [
      'local a.txt: a symbolic link is not synced',
      'local b.txt: not a file or a folder (a pipe, socket or device) is not synced',
    ]);
    assert.deepEqual(r.plan.actions, []);
    assert.deepEqual(await storeTree(k.client, k.folderId), synced, 'nothing deleted on the store');
  });

  it('syncs an item in two folders of the link once, and reports its second place (a file there is left alone)', async () => {
    const mk = async (title: string) =>
      (await k.client.call('files.insert', {}, { title, mimeType: FOLDER_MIME, parents: [{ id: k.folderId }] })).id!;
    const [a, b] = [await mk('a'), await mk('b')];
    await putStore(k.client, a, 'both.txt', Buffer.from('shared'));
    const item = (await k.client.listAllFiles({ q: `'${a}' in parents and title = 'both.txt'` }))[0];
    await k.client.call('parents.insert', { fileId: item.id! }, { id: b });
    const r = await syncFolder({ client: k.client, localDir: k.localDir, storeFolderId: k.folderId });
    const second = r.plan.skipped.find((x) => x.side === 'store');
    assert.ok(second, 'the second place is reported');
    const synced = second.path === 'b/both.txt' ? 'a/both.txt' : 'b/both.txt';
    assert.equal(second.reason, `the same item as ${synced} (it is in two folders), synced there`);
    assert.deepEqual(localTree(k.localDir), { a: 'dir', b: 'dir', [synced]: md5('shared') }, 'downloaded once');
    // A local file at the second place is neither uploaded beside the item nor replaced.
    putLocal(k.localDir, second.path, 'a local file at the second place');
    const again = await syncFolder({ client: k.client, localDir: k.localDir, storeFolderId: k.folderId });
    assert.deepEqual(again.plan.actions, []);
    assert.equal(localTree(k.localDir)[second.path], md5('a local file at the second place'));
    const inSecond = await k.client.listAllFiles({ q: `'${second.path === 'b/both.txt' ? b : a}' in parents` });
    assert.deepEqual(
      inSecond.map((f) => f.id),
      [item.id],
      'no second item made there',
    );
  });
});
