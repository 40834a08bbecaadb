import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FOLDER_MIME, type File } from '../../../src/shared/wire/storage';
import { StorageClient } from '../../../src/storage/core/client';
import { nodeLocalFiles, type LocalFiles } from '../../../src/storage/core/localFiles';
import { downloadTree, uploadTree } from '../../../src/storage/core/transfer';
import { startStorage, type Harness } from './emulatorHarness';

/** Lists every file under `dir` as relative path → content, for comparing trees. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('storage core: recursive upload and download', () => {
  let h: Harness;
  let client: StorageClient;
  let tmp: string;

  before(async () => {
    h = await startStorage();
    client = new StorageClient({ baseUrl: h.origin, auth: { token: () => h.token }, retry: { maxRetries: 0 } });
  });
  after(async () => h.close());
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tree-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const folder = (title: string, parent = 'root') =>
    client.call('files.insert', {}, { title, mimeType: FOLDER_MIME, parents: [{ id: parent }] });

  it('uploads a local folder tree in name order and downloads it back byte for byte', async () => {
    const src = path.join(tmp, 'src', 'Album');
    fs.mkdirSync(path.join(src, 'b-sub', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(src, 'a.txt'), 'alpha');
    fs.writeFileSync(path.join(src, 'b-sub', 'c.md'), '# c');
    fs.writeFileSync(path.join(src, 'b-sub', 'deeper', 'd.json'), '{"d":1}');
    const target = await folder('upload-target');
    const lines: string[] = [];
    const made = await uploadTree(client, src, target.id!, { report: (m) => lines.push(m) });
    assert.deepEqual(
      made.map((f) => f.title),
      ['Album', 'a.txt', 'b-sub', 'c.md', 'deeper', 'd.json'],
    );
    assert.equal(made[0].mimeType, FOLDER_MIME);
    assert.deepEqual(
      made[0].parents?.map((p) => p.id),
      [target.id],
    );
    assert.equal(made[3].mimeType, 'text/markdown');
    assert.ok(lines.includes('a.txt 100%'), lines.join('\n'));

    const out = path.join(tmp, 'out');
    fs.mkdirSync(out);
    const result = await downloadTree(client, [made[0]], out);
    assert.deepEqual(snapshot(out), {
      'Album/a.txt': 'alpha',
      'Album/b-sub/c.md': '# c',
      'Album/b-sub/deeper/d.json': '{"d":1}',
    });
    assert.equal(result.written.length, 3);
    assert.deepEqual(result.skipped, []);
  });

  it('exports workspace documents in their download format and names clashes uniquely', async () => {
    const parent = await folder('docs');
    await client.call(
      'files.insert',
      {},
      { title: 'Plan', mimeType: 'application/vnd.google-apps.document', parents: [{ id: parent.id! }] },
    );
    await client.call(
      'files.insert',
      {},
      { title: 'Form', mimeType: 'application/vnd.google-apps.form', parents: [{ id: parent.id! }] },
    );
    fs.mkdirSync(path.join(tmp, 'docs'));
    const result = await downloadTree(client, [parent], tmp);
    assert.deepEqual(
      result.written.map((p) => path.relative(tmp, p)),
      [path.join('docs (1)', 'Plan.docx')],
    );
    assert.deepEqual(result.skipped, [
      { title: 'Form', reason: 'no download format for application/vnd.google-apps.form' },
    ]);
    assert.equal(fs.readFileSync(result.written[0]).subarray(0, 2).toString(), 'PK');
  });

  it('downloads a folder that contains itself through a second parent once, without looping', async () => {
    const a = await folder('cycle-a');
    const b = await folder('cycle-b', a.id);
    await client.call('files.insert', {}, { title: 'inside.txt', mimeType: 'text/plain', parents: [{ id: b.id! }] });
    // The service refuses such a move, so make the cycle in its store directly: data that a
    // concurrent move elsewhere (or another implementation of the API) can leave behind.
    const store = h.emulator.service.store;
    store.setParents(store.state.files[a.id!], [...store.state.files[a.id!].parents, b.id!]);
    assert.ok(
      (await client.listFolder(b.id!)).some((k) => k.id === a.id),
      'a is now a child of b',
    );

    const result = await downloadTree(client, [a], tmp);
    assert.deepEqual(snapshot(tmp), { 'cycle-a/cycle-b/inside.txt': '' });
    assert.deepEqual(result.skipped, [{ title: 'cycle-a', reason: 'already downloaded through another parent' }]);
  });

  it('stops at once when cancelled and leaves no partial file under a real name', async () => {
    const parent = await folder('cancel-me');
    for (const n of ['1', '2', '3'])
      await client.call(
        'files.insert',
        {},
        { title: `${n}.txt`, mimeType: 'text/plain', parents: [{ id: parent.id! }] },
      );
    const abort = new AbortController();
    let reported = 0;
    await assert.rejects(
      downloadTree(client, [parent], tmp, {
        signal: abort.signal,
        report: () => {
          if (++reported === 2) abort.abort();
        },
      }),
      (e: unknown) => (e as Error).name === 'AbortError',
    );
    assert.deepEqual(Object.keys(snapshot(tmp)), ['cancel-me/1.txt']);
  });

  it('goes through the injected local-files port only', async () => {
    const dirs = new Set<string>(['/virtual']);
    const written = new Map<string, string>();
    const port: LocalFiles = {
      stat: () => Promise.reject(new Error('not used by downloads')),
      readdir: () => Promise.reject(new Error('not used by downloads')),
      mkdir: (p) => {
        dirs.add(p);
        return Promise.resolve();
      },
      exists: (p) => Promise.resolve(dirs.has(p) || written.has(p)),
      source: () => {
        throw new Error('not used by downloads');
      },
      write: async (p, body) => {
        const chunks: Buffer[] = [];
        for await (const c of body) chunks.push(c as Buffer);
        written.set(p, Buffer.concat(chunks).toString());
        return written.get(p)!.length;
      },
    };
    const parent = await folder('ported');
    const up = await uploadTree(
      client,
      (() => {
        const p = path.join(tmp, 'one.txt');
        fs.writeFileSync(p, 'one');
        return p;
      })(),
      parent.id!,
      { files: nodeLocalFiles },
    );
    assert.equal(up.length, 1);
    const result = await downloadTree(client, [parent], '/virtual', { files: port });
    assert.deepEqual([...written], [[path.join('/virtual', 'ported', 'one.txt'), 'one']]);
    assert.deepEqual(result.written, [path.join('/virtual', 'ported', 'one.txt')]);
    assert.deepEqual(fs.readdirSync(tmp), ['one.txt'], 'nothing reached the real disk');
  });

  it('uploads a local tree whose symbolic link points back up once, without looping', async function () {
    const src = path.join(tmp, 'loop');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'x.txt'), 'x');
    fs.symlinkSync(src, path.join(src, 'again'), 'dir');
    const target = await folder('loop-target');
    const made: File[] = await uploadTree(client, src, target.id!);
    assert.deepEqual(
      made.map((f) => f.title),
      ['loop', 'x.txt'],
    );
  });
});
