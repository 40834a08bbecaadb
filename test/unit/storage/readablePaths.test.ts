// Files the tree lists outside their folders open by a readable path too: from Starred, Recent or a
// search, the file's folder path (each name as the file system resolves it); from Trash, `Trash/<name>`,
// read-only. The path resolves to the file it was made for, pinned or not.
import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { FOLDER_MIME } from '../../../src/shared/wire/storage';
import { StorageClient } from '../../../src/storage/core/client';
import { StoreFs, StoreFsError } from '../../../src/storage/core/fileSystem';
import { readablePath } from '../../../src/storage/core/readablePaths';
import { filePath } from '../../../src/storage/core/storePaths';
import { StorageTreeModel, type TreeEntry } from '../../../src/storage/core/tree';
import { storePathOf } from '../../../src/storage/core/treePaths';

describe('storage: readable paths for files listed outside their folders', () => {
  let sb: RunningSandbox;
  let client: StorageClient;
  let model: StorageTreeModel;
  let fs: StoreFs;

  before(async () => {
    sb = await startSandbox();
    client = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => sb.accessToken },
      retry: { maxRetries: 0 },
    });
  });
  after(async () => sb.close());
  beforeEach(() => {
    model = new StorageTreeModel(client, { pageSize: 100 });
    fs = new StoreFs(client, { statTtlMs: 0 });
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
  const idOf = (e: TreeEntry) => (e.type === 'file' ? e.file.id : undefined);
  const code = (c: string) => (e: unknown) => e instanceof StoreFsError && e.code === c;
  /** What opening `labels` from the tree names: the tree's path made readable, as the adapter does. */
  const opened = async (labels: string[]) => {
    const node = await walk(labels);
    const path = storePathOf(model, node)!;
    return { id: idOf(node)!, path: (await fs.readablePath(path)) ?? path };
  };

  it('gives a starred folder’s file, and a file found by id, their folder path under My files', async () => {
    const notes = await opened(['Starred', 'Projects', 'notes.md']);
    assert.equal(notes.path, '/My files/Projects/notes.md');
    assert.equal((await fs.resolve(notes.path)).id, notes.id);
    const logo = (await fs.stat('/My files/Projects/Design/logo.png')).file;
    assert.equal(await fs.readablePath(filePath(logo.id!, logo.title)), '/My files/Projects/Design/logo.png');
    assert.equal(await fs.readablePath('/My files/Projects'), '/My files/Projects', 'a readable path stays');
  });

  it('names a shared drive’s file and a file shared with me under those roots', async () => {
    const onCall = (await fs.stat('/Shared drives/Team Space/on-call.csv')).file;
    assert.equal(await fs.readablePath(filePath(onCall.id!, onCall.title)), '/Shared drives/Team Space/on-call.csv');
    const pdf = (await fs.stat('/Shared with me/Partner agreement.pdf')).file;
    assert.equal(await fs.readablePath(filePath(pdf.id!, pdf.title)), '/Shared with me/Partner agreement.pdf');
  });

  it('tells same-titled files apart, so each readable path resolves to its own file', async () => {
    const dir = await client.call(
      'files.insert',
      {},
      { title: `dup-${Date.now()}`, mimeType: FOLDER_MIME, parents: [{ id: 'root' }] },
    );
    const made = [];
    for (let i = 0; i < 2; i++)
      made.push(await client.call('files.insert', {}, { title: 'same.txt', parents: [{ id: dir.id! }] }));
    const paths = await Promise.all(made.map((f) => fs.readablePath(filePath(f.id!, f.title))));
    assert.equal(new Set(paths).size, 2, paths.join());
    for (const [i, p] of paths.entries()) {
      assert.match(p!, new RegExp(`^/My files/${dir.title}/same~[A-Za-z0-9_-]{6,}\\.txt$`));
      assert.equal((await new StoreFs(client, { statTtlMs: 0 }).resolve(p!)).id, made[i].id, 'by names alone');
    }
  });

  it('keeps the id path of a file none of whose folders the user can reach', async () => {
    const f = await client.call('files.insert', {}, { title: 'orphan.txt', parents: [{ id: 'root' }] });
    // Only in a folder the user cannot open: every parent fails, and it is not shared with the user.
    const listed: string[] = [];
    const lookup = {
      fetch: (id: string) =>
        id === f.id
          ? Promise.resolve({ ...f, parents: [{ id: 'unreachable' }] })
          : Promise.reject(new StoreFsError('FileNotFound', `${id} was not found.`)),
      // Shared with me does not list it either.
      list: (folderId: string) => {
        listed.push(folderId);
        return Promise.resolve({ kids: [], names: new Map<string, string>() });
      },
    };
    assert.equal(await readablePath(lookup, filePath(f.id!, f.title)), undefined);
    assert.deepEqual(listed, ['Shared with me'], 'looked for it among the items shared with the user');
  });

  it('opens a file in the trash as Trash/<name>, read-only, and a file in a trashed folder below it', async () => {
    const draft = await opened(['Trash', 'old-draft.txt']);
    assert.equal(draft.path, '/Trash/old-draft.txt');
    assert.equal(await fs.readablePath(draft.path), draft.path);
    const st = await fs.stat(draft.path);
    assert.equal(st.file.id, draft.id);
    assert.equal(st.readonly, true, 'read-only until restored');
    assert.ok((await fs.readFile(draft.path)).length > 0);
    await assert.rejects(
      fs.writeFile(draft.path, Buffer.from('x'), { create: false, overwrite: true }),
      (e: unknown) => code('NoPermissions')(e) && /in the trash: restore it/.test((e as Error).message),
    );
    await assert.rejects(fs.delete(draft.path, { recursive: false }), code('NoPermissions'));
    const leftover = await opened(['Trash', 'Old stuff', 'leftover.txt']);
    assert.equal(leftover.path, '/Trash/Old stuff/leftover.txt');
    assert.equal((await fs.resolve(leftover.path)).id, leftover.id);
    await assert.rejects(
      fs.writeFile('/Trash/Old stuff/new.txt', Buffer.from('x'), { create: true, overwrite: false }),
      code('NoPermissions'),
    );
    // A folder copied out of the trash brings what was trashed with it.
    const copy = `/My files/restored-${Date.now()}`;
    await fs.copy('/Trash/Old stuff', copy, { overwrite: false });
    assert.deepEqual(await fs.readDirectory(copy), [['leftover.txt', 'file']]);
    // Outside the trash a trashed file is gone, pinned or not.
    await assert.rejects(fs.stat(filePath(draft.id, 'old-draft.txt')), code('FileNotFound'));
    fs.pin('/My files/old-draft.txt', draft.id);
    await assert.rejects(fs.stat('/My files/old-draft.txt'), code('FileNotFound'));
    // Pinned below Trash, it resolves by id after a same-named file is trashed too.
    const fresh = new StoreFs(client, { statTtlMs: 0 });
    fresh.pin(draft.path, draft.id);
    const twin = await client.call('files.insert', {}, { title: 'old-draft.txt', parents: [{ id: 'root' }] });
    await client.call('files.trash', { fileId: twin.id! });
    assert.equal((await fresh.resolve(draft.path)).id, draft.id);
    assert.deepEqual(
      (await fresh.readDirectory('/Trash')).map(([n]) => n).filter((n) => n.startsWith('old-draft')).length,
      2,
    );
  });
});
