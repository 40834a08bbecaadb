import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { ChangeFeed, type ChangeBatch } from '../../../src/storage/core/changeFeed';
import { ChangeWatcher } from '../../../src/storage/core/changeWatcher';
import { StorageTreeModel } from '../../../src/storage/core/tree';

describe('storage change feed: polling, push notifications, targeted tree refresh', () => {
  let sb: RunningSandbox;
  let client: StorageClient;
  before(async () => {
    sb = await startSandbox();
    client = new StorageClient({ baseUrl: sb.storage, auth: { token: () => sb.accessToken } });
  });
  after(async () => sb.close());

  const id = async (title: string) =>
    (await client.listFiles({ q: `title = '${title}'`, fields: 'items(id)' })).items![0].id!;

  it('reports only what changed since the last poll, with old and new parents of moved files', async () => {
    const feed = new ChangeFeed(client);
    await feed.init();
    assert.equal((await feed.poll()).changes.length, 0);
    const [projects, archive, notes] = [await id('Projects'), await id('Archive'), await id('notes.md')];
    await client.call('files.patch', { fileId: notes }, { description: 'touched' });
    const first = await feed.poll();
    assert.deepEqual(first.fileIds, [notes]);
    assert.deepEqual(first.parentIds, [projects]);
    await client.call('files.patch', { fileId: notes, addParents: archive, removeParents: projects }, {});
    const moved = await feed.poll();
    assert.deepEqual(
      moved.parentIds.sort(),
      [archive, projects].sort(),
      'both the folder it left and the one it joined',
    );
    assert.equal((await feed.poll()).changes.length, 0, 'the next poll starts after the last change');
    await client.call('files.patch', { fileId: notes, addParents: projects, removeParents: archive }, {});
  });

  it('follows change pages to the end', async () => {
    const feed = new ChangeFeed(client);
    await feed.init();
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await client.call('files.insert', {}, { title: `batch-${i}` })).id!);
    // 500 per page in the feed; force small pages through the server's own paging instead.
    const list = await client.call('changes.list', {
      pageToken: String(Number(await client.startPageToken()) - 7),
      maxResults: 3,
    });
    assert.equal(list.items!.length, 3);
    assert.ok(list.nextPageToken);
    const batch = await feed.poll();
    assert.deepEqual(batch.fileIds.sort(), made.sort());
  });

  it('receives pushed notifications on a loopback receiver and stops the channel', async () => {
    const states: string[] = [];
    const watcher = new ChangeWatcher(client, (s) => states.push(s));
    const channel = await watcher.start(await client.startPageToken());
    assert.equal(channel.kind, 'api#channel');
    await client.call('files.insert', {}, { title: 'pushed' });
    for (let i = 0; i < 100 && !states.includes('change'); i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(states.slice(0, 2), ['sync', 'change']);
    await watcher.stop();
    const before = states.length;
    await client.call('files.insert', {}, { title: 'after stop' });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(states.length, before);
  });

  it('the tree refreshes only the folders a change touches', async () => {
    const model = new StorageTreeModel(client);
    const roots = await model.children();
    const mine = await model.children(roots[0]);
    const projects = mine.find((e) => model.present(e).label === 'Projects')!;
    const reports = mine.find((e) => model.present(e).label === 'Reports')!;
    await model.children(projects);
    await model.children(reports);
    const feed = new ChangeFeed(client);
    await feed.init();
    const fired: (string | undefined)[] = [];
    model.onDidChange((k) => fired.push(k));
    await client.call('files.insert', {}, { title: 'new in projects', parents: [{ id: await id('Projects') }] });
    const batch: ChangeBatch = await feed.poll();
    const stale = model.applyChanges(batch);
    assert.ok(stale.includes(projects.key));
    assert.ok(!stale.includes(reports.key), 'untouched folders keep their pages');
    assert.ok((await model.children(projects)).some((e) => model.present(e).label === 'new in projects'));
    assert.ok(fired.includes(projects.key));
  });
});
