// Files open from the tree by their folder path (readable breadcrumbs): the tree names a node the way the
// `store:` file system resolves it, a pinned path costs no listing and survives renames above it, and
// Move to… offers folders level by level.
import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { FOLDER_MIME } from '../../../src/shared/wire/storage';
import { StorageClient } from '../../../src/storage/core/client';
import { StoreFs, StoreFsError } from '../../../src/storage/core/fileSystem';
import { moveInto } from '../../../src/storage/core/move';
import { targetOptions } from '../../../src/storage/core/moveTargets';
import { StorageTreeModel, type TreeEntry } from '../../../src/storage/core/tree';
import { storePathOf } from '../../../src/storage/core/treePaths';

describe('storage: tree paths for the store: file system', () => {
  let sb: RunningSandbox;
  let client: StorageClient;
  let model: StorageTreeModel;
  let requests: string[];

  before(async () => {
    sb = await startSandbox();
  });
  after(async () => sb.close());
  beforeEach(() => {
    requests = [];
    client = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => sb.accessToken },
      retry: { maxRetries: 0 },
      onAttempt: (a) => requests.push(`${a.method} ${a.url.replace(/^.*\/store\/v2\//, '')}`),
    });
    model = new StorageTreeModel(client, { pageSize: 100 });
  });

  const walk = async (labels: string[]): Promise<TreeEntry> => {
    let node: TreeEntry | undefined;
    for (const label of labels) {
      const kids = await model.children(node);
      node = kids.find((k) => model.present(k).label === label);
      assert.ok(node, `${label}: ${kids.map((k) => model.present(k).label).join(', ')}`);
    }
    return node!;
  };
  const idOf = (e: TreeEntry) => (e.type === 'file' ? e.file.id : e.type === 'drive' ? e.drive.id : undefined);
  const code = (c: string) => (e: unknown) => e instanceof StoreFsError && e.code === c;
  const folder = (title: string, parent = 'root') =>
    client.call('files.insert', {}, { title, mimeType: FOLDER_MIME, parents: [{ id: parent }] });

  it('names a node by its folder path from the root browsed, and the file system resolves it to that node', async () => {
    const fs = new StoreFs(client, { statTtlMs: 0 });
    const cases: [string[], string][] = [
      [['My files', 'Projects', 'Design', 'logo.png'], '/My files/Projects/Design/logo.png'],
      [['Shared drives', 'Team Space', 'on-call.csv'], '/Shared drives/Team Space/on-call.csv'],
      [['Shared drives', 'Team Space'], '/Shared drives/Team Space'],
      [['Shared with me', 'Partner agreement.pdf'], '/Shared with me/Partner agreement.pdf'],
      [['My files', 'Reports', 'Shortcut to Projects', 'notes.md'], '/My files/Reports/Shortcut to Projects/notes.md'],
    ];
    for (const [labels, expected] of cases) {
      const node = await walk(labels);
      assert.equal(storePathOf(model, node), expected);
      assert.equal((await fs.resolve(expected)).id, idOf(node), expected);
    }
    // Starred is not a folder: below it the path starts at the starred item's id.
    const starred = await walk(['Starred', 'Projects', 'notes.md']);
    const projects = await walk(['Starred', 'Projects']);
    assert.equal(storePathOf(model, starred), `/${idOf(projects)}/notes.md`);
    assert.equal((await fs.resolve(storePathOf(model, starred)!)).id, idOf(starred));
    assert.equal(storePathOf(model, await walk(['My files'])), undefined, 'a root is not an item');
  });

  it('tells same-titled siblings apart the way the file system does', async () => {
    const dir = await folder(`dups-${Date.now()}`);
    const a = await client.call('files.insert', {}, { title: 'same.txt', parents: [{ id: dir.id! }] });
    const b = await client.call('files.insert', {}, { title: 'same.txt', parents: [{ id: dir.id! }] });
    const kids = await model.children(await walk(['My files', dir.title!]));
    const fs = new StoreFs(client, { statTtlMs: 0 });
    const paths = kids.map((k) => storePathOf(model, k)!);
    assert.equal(new Set(paths).size, 2, paths.join());
    for (const k of kids) {
      assert.match(storePathOf(model, k)!, /\/same~[A-Za-z0-9_-]{6,}\.txt$/);
      assert.equal((await fs.resolve(storePathOf(model, k)!)).id, idOf(k));
    }
    assert.deepEqual(kids.map(idOf).sort(), [a.id, b.id].sort());
  });

  it('opens a pinned path with no listing; its saves follow the file when a folder above is renamed', async () => {
    const top = await folder(`Reports-${Date.now()}`);
    const year = await folder('2024', top.id);
    const q1 = await client.call('files.insert', {}, { title: 'q1.csv', parents: [{ id: year.id! }] });
    const node = await walk(['My files', top.title!, '2024', 'q1.csv']);
    const path = storePathOf(model, node)!;
    assert.equal(path, `/My files/${top.title}/2024/q1.csv`);

    const fs = new StoreFs(client, { statTtlMs: 1000 });
    assert.equal(fs.pin(path, q1.id!), undefined);
    requests = [];
    assert.equal((await fs.stat(path)).file.id, q1.id);
    await fs.readFile(path);
    assert.ok(!requests.some((r) => /^GET files$/.test(r)), `no listing: ${requests.join(', ')}`);
    // The read right after the stat takes the stat's metadata as fresh: the same GET twice was a duplicate.
    assert.equal(requests.length, 2, `stat: one get; read: the download only: ${requests.join(', ')}`);

    await client.call('files.patch', { fileId: top.id! }, { title: `${top.title}-renamed` });
    await fs.writeFile(path, Buffer.from('a,b\n1,2\n'), { create: true, overwrite: true });
    assert.equal((await client.download(q1.id!)).toString(), 'a,b\n1,2\n', 'saved into the file that was opened');

    // Without the pin (a window reload), the old path no longer resolves: a clear error, nothing created.
    const fresh = new StoreFs(client, { statTtlMs: 0 });
    await assert.rejects(fresh.stat(path), (e: unknown) => code('FileNotFound')(e) && /not found in/.test(String(e)));
    await assert.rejects(
      fresh.writeFile(path, Buffer.from('lost?'), { create: true, overwrite: true }),
      (e: unknown) => code('FileNotFound')(e) && new RegExp(`${top.title} was not found`).test((e as Error).message),
    );
    const inYear = await client.listAllFiles({ q: `'${year.id}' in parents and trashed = false` });
    assert.deepEqual(
      inYear.map((f) => f.id),
      [q1.id],
      'no second q1.csv',
    );
  });

  it('presents Shared drives, Shared with me and Trash as read-only folders', async () => {
    const fs = new StoreFs(client, { statTtlMs: 0 });
    assert.deepEqual(await fs.readDirectory('/Shared drives'), [['Team Space', 'directory']]);
    assert.ok((await fs.readDirectory('/Shared with me')).some(([n]) => n === 'Partner agreement.pdf'));
    assert.equal((await fs.stat('/My files')).type, 'directory');
    // `/` lists the roots: what the first breadcrumb's picker shows.
    assert.deepEqual(await fs.readDirectory('/'), [
      ['My files', 'directory'],
      ['Shared drives', 'directory'],
      ['Shared with me', 'directory'],
      ['Trash', 'directory'],
    ]);
    await assert.rejects(fs.createDirectory('/New'), code('NoPermissions'));
    await assert.rejects(fs.createDirectory('/Shared drives/New'), code('NoPermissions'));
    await assert.rejects(
      fs.writeFile('/Shared with me/x.txt', Buffer.from('x'), { create: true, overwrite: false }),
      code('NoPermissions'),
    );
    await assert.rejects(fs.delete('/Shared with me', { recursive: true }), code('NoPermissions'));
    await assert.rejects(fs.delete('/Trash', { recursive: true }), code('NoPermissions'));
    // A shared drive's own folder takes new items.
    await fs.writeFile('/Shared drives/Team Space/from-fs.txt', Buffer.from('hi'), { create: true, overwrite: false });
    assert.equal((await fs.readFile('/Shared drives/Team Space/from-fs.txt')).toString(), 'hi');
  });

  it('offers My files and the shared drives, then folders level by level, never the ones being moved', async () => {
    const top = await targetOptions(client, [], new Set());
    assert.deepEqual(
      top.map((o) => (o.kind === 'open' ? `${o.place.name}:${o.place.id}` : o.kind)),
      ['My files:root', 'Team Space:0ABteamSpaceDriveUk9PVA'],
    );
    const projects = (await walk(['My files', 'Projects'])) as Extract<TreeEntry, { type: 'file' }>;
    const inRoot = await targetOptions(
      client,
      [{ id: 'root', name: 'My files', canAdd: true }],
      new Set([projects.file.id!]),
    );
    assert.equal(inRoot[0].kind, 'here');
    assert.equal(inRoot[1].kind, 'up');
    const names = inRoot.flatMap((o) => (o.kind === 'open' ? [o.place.name] : []));
    assert.ok(names.includes('Reports') && names.includes('Archive'), names.join());
    assert.ok(!names.includes('Projects'), 'the folder being moved is not a target');
    assert.ok(!names.includes('README.txt'), 'only folders');
  });

  it('moves an item listed outside its folders (Starred, a search) out of every folder it was in', async () => {
    const a = await folder(`from-a-${Date.now()}`);
    const b = await folder(`from-b-${Date.now()}`);
    const target = await folder(`to-${Date.now()}`);
    const f = await client.call('files.insert', {}, { title: 'two.txt', parents: [{ id: a.id! }, { id: b.id! }] });
    const [o] = await moveInto(client, [{ file: f, from: undefined }], target.id!);
    assert.equal(o.status, 'moved');
    const parents = (await client.getFile(f.id!, { fields: 'parents(id)' })).parents?.map((p) => p.id);
    assert.deepEqual(parents, [target.id]);
  });
});
