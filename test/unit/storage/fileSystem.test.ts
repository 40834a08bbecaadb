import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { StoreFs, StoreFsError } from '../../../src/storage/core/fileSystem';
import { childNames, displayName, filePath, hintOf } from '../../../src/storage/core/storePaths';

describe('store: file system core against the sandbox', () => {
  let sb: RunningSandbox;
  let client: StorageClient;
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
  beforeEach(() => (fs = new StoreFs(client, { statTtlMs: 0 })));

  const code = (c: string) => (e: unknown) => e instanceof StoreFsError && e.code === c;

  it('addresses items by id then readable names, with duplicates made unique', async () => {
    const root = await fs.readDirectory('/root');
    assert.ok(root.some(([n, t]) => n === 'Projects' && t === 'directory'));
    assert.ok(root.some(([n, t]) => n === 'README.txt' && t === 'file'));
    assert.ok(!root.some(([n]) => n === 'old-draft.txt'), 'trashed items are not listed');
    const st = await fs.stat('/root/Projects/notes.md');
    assert.equal(st.type, 'file');
    assert.equal(st.readonly, false);
    assert.ok(st.mtime > 0 && st.size > 0);
    assert.equal((await fs.readFile('/root/Projects/notes.md')).toString().split('\n')[0], '# Notes');
    // The same file through its own id (how the tree opens files); `/<id>` alone reads as a
    // folder holding just that file, because editors create the parent before writing.
    assert.equal((await fs.readFile(filePath(st.file.id!, st.file.title))).toString().split('\n')[0], '# Notes');
    assert.equal((await fs.stat(`/${st.file.id}`)).type, 'directory');
    assert.deepEqual(await fs.readDirectory(`/${st.file.id}`), [['notes.md', 'file']]);
    await assert.rejects(fs.createDirectory(`/${st.file.id}`), code('FileExists'));
    // A file in two folders is reachable from both.
    assert.equal(
      (await fs.stat('/root/Reports/team-contacts.json')).file.id,
      (await fs.stat('/root/Projects/team-contacts.json')).file.id,
    );
    await assert.rejects(fs.stat('/root/Projects/missing.txt'), code('FileNotFound'));
    await assert.rejects(fs.readDirectory('/root/README.txt'), code('FileNotADirectory'));

    await fs.writeFile('/root/Projects/dup.txt', Buffer.from('one'), { create: true, overwrite: false });
    await client.call(
      'files.insert',
      {},
      { title: 'dup.txt', parents: [{ id: (await fs.stat('/root/Projects')).file.id! }] },
    );
    const names = (await fs.readDirectory('/root/Projects')).map(([n]) => n).filter((n) => n.startsWith('dup'));
    assert.equal(names.length, 2);
    assert.ok(
      names.every((n) => /^dup~[A-Za-z0-9_-]{6,}\.txt$/.test(n)),
      names.join(),
    );
    const contents = await Promise.all(names.map((n) => fs.readFile(`/root/Projects/${n}`).then((b) => b.toString())));
    assert.deepEqual(contents.sort(), ['', 'one']);
  });

  it('opens workspace documents as read-only text exports', async () => {
    const st = await fs.stat('/root/Projects/Roadmap');
    assert.equal(st.readonly, true);
    assert.match(
      (await fs.readFile('/root/Projects/Roadmap')).toString(),
      /^\uFEFFRoadmap/,
      'the export as Drive sends it: UTF-8 with a BOM (VS Code opens it as such)',
    );
    await assert.rejects(
      fs.writeFile('/root/Projects/Roadmap', Buffer.from('x'), { create: false, overwrite: true }),
      code('NoPermissions'),
    );
  });

  it('saves with If-Match and reports a conflict instead of overwriting a newer server version', async () => {
    const path = '/root/Projects/budget.csv';
    const original = (await fs.readFile(path)).toString();
    await fs.writeFile(path, Buffer.from(original + 'travel,50\n'), { create: false, overwrite: true });
    assert.match((await fs.readFile(path)).toString(), /travel,50/);
    // Someone else saves in between.
    const id = (await fs.stat(path)).file.id!;
    const other = new StoreFs(client, { statTtlMs: 0 });
    await other.readFile(path);
    await other.writeFile(path, Buffer.from('theirs\n'), { create: false, overwrite: true });
    await assert.rejects(
      fs.writeFile(path, Buffer.from('mine\n'), { create: false, overwrite: true }),
      (e: unknown) => {
        assert.ok(e instanceof StoreFsError && e.code === 'Conflict');
        assert.equal(e.server?.id, id);
        return true;
      },
    );
    assert.equal((await client.download(id)).toString(), 'theirs\n', 'the newer server version is intact');
    // An explicit overwrite after the user chose it.
    await fs.writeFile(path, Buffer.from('mine\n'), { create: false, overwrite: true, force: true });
    assert.equal((await client.download(id)).toString(), 'mine\n');
    const revs = await client.call('revisions.list', { fileId: id });
    assert.ok(revs.items!.length >= 4, 'every save is a revision');
  });

  it('creates, renames, moves, copies and deletes (to the trash)', async () => {
    await assert.rejects(
      fs.writeFile('/root/Projects/new.md', Buffer.from('x'), { create: false, overwrite: false }),
      code('FileNotFound'),
    );
    await fs.createDirectory('/root/Sandbox work');
    await fs.writeFile('/root/Sandbox work/a.md', Buffer.from('# A'), { create: true, overwrite: false });
    await assert.rejects(
      fs.writeFile('/root/Sandbox work/a.md', Buffer.from('again'), { create: true, overwrite: false }),
      code('FileExists'),
    );
    await fs.rename('/root/Sandbox work/a.md', '/root/Sandbox work/b.md', { overwrite: false });
    assert.deepEqual(
      (await fs.readDirectory('/root/Sandbox work')).map(([n]) => n),
      ['b.md'],
    );
    await fs.rename('/root/Sandbox work/b.md', '/root/Archive/b.md', { overwrite: false });
    assert.equal((await fs.readFile('/root/Archive/b.md')).toString(), '# A');
    assert.deepEqual(await fs.readDirectory('/root/Sandbox work'), []);
    await fs.copy('/root/Archive/b.md', '/root/Sandbox work/c.md', { overwrite: false });
    await fs.copy('/root/Projects/Design', '/root/Sandbox work/Design copy', { overwrite: false });
    assert.deepEqual((await fs.readDirectory('/root/Sandbox work/Design copy')).map(([n]) => n).sort(), [
      'logo.png',
      'mockup.svg',
    ]);
    await assert.rejects(fs.delete('/root/Sandbox work', { recursive: false }), code('NoPermissions'));
    const id = (await fs.stat('/root/Sandbox work')).file.id!;
    await fs.delete('/root/Sandbox work', { recursive: true });
    await assert.rejects(fs.stat('/root/Sandbox work'), code('FileNotFound'));
    assert.equal(
      (await client.getFile(id, { fields: 'labels/trashed' })).labels?.trashed,
      true,
      'recoverable from the trash',
    );
  });

  it('round-trips hostile titles: slashes, dot names, control characters, very long and non-Latin', async () => {
    await fs.createDirectory('/root/Hostile');
    const folder = (await fs.stat('/root/Hostile')).file.id!;
    const titles = [
      'a/b.txt',
      '..',
      'tab\there.txt',
      'x'.repeat(300) + '.md',
      '日本語のメモ.txt',
      'Ελληνικά',
      'same.txt',
      'same.txt',
    ];
    for (const [i, title] of titles.entries()) {
      const { id } = await client.call(
        'files.insert',
        {},
        { title, mimeType: 'text/plain', parents: [{ id: folder }] },
      );
      await client.transport.send({
        method: 'PUT',
        path: `files/${id}`,
        upload: true,
        query: { uploadType: 'media' },
        body: `content ${i}`,
        headers: { 'content-type': 'text/plain' },
      });
    }
    const names = (await fs.readDirectory('/root/Hostile')).map(([n]) => n);
    assert.equal(names.length, titles.length);
    assert.equal(new Set(names).size, titles.length, 'every name is unique');
    assert.ok(
      names.every((n) => !n.includes('/') && n !== '.' && n !== '..' && ![...n].some((ch) => ch.charCodeAt(0) < 0x20)),
    );
    assert.ok(names.includes('a\u2215b.txt') && names.includes('日本語のメモ.txt') && names.includes('Ελληνικά'));
    const contents = new Set<string>();
    for (const n of names) contents.add((await fs.readFile(`/root/Hostile/${n}`)).toString());
    assert.equal(contents.size, titles.length, 'each name reaches its own file');
  });

  it('makes display names safe and unique', () => {
    assert.equal(displayName('a/b'), 'a\u2215b');
    assert.equal(displayName('..'), '\u2024\u2024');
    assert.equal(displayName('tab\there'), 'tabhere');
    assert.equal(displayName(''), 'Untitled');
    const names = childNames([
      { id: 'AAAAAAAA1', title: 'x.txt', folder: false },
      { id: 'AAAAAAAA2', title: 'x.txt', folder: false },
      { id: 'BBBBBBBB', title: 'y', folder: true },
    ]);
    assert.deepEqual([...names.values()], ['x~AAAAAAAA1.txt', 'x~AAAAAAAA2.txt', 'y']);
    assert.deepEqual(hintOf('x~AAAAAAAA1.txt'), { base: 'x.txt', hint: 'AAAAAAAA1' });
  });
});
