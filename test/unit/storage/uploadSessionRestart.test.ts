// A resumable upload across a crash of the sandbox (kill -9), as a client of the real service lives it: the bytes
// a 308 reported are there after the restart and the upload goes on from them; a session whose last chunk was
// answered gives the same file back to a status query, so a client that lost that answer never uploads twice.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandboxProcess, type SandboxProcess } from '../../support/sandboxProcess';
import { startStorage } from './emulatorHarness';

const GRANULE = 256 * 1024;

async function crash(s: SandboxProcess): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error('the sandbox had already exited');
  const exited = new Promise((resolve) => s.child.once('exit', resolve));
  s.child.kill('SIGKILL');
  await exited;
}

describe('storage sandbox: a resumable upload session survives a crash', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  let dir = '';
  const running: SandboxProcess[] = [];
  // A folder of its own for each test (a second sandbox over one folder would use the first).
  beforeEach(() => dirs.push((dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-session-')))));
  after(() => {
    for (const r of running) r.child.kill('SIGKILL');
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const launch = async (port?: number) => {
    const r = await startSandboxProcess(dir, port);
    running.push(r);
    return r;
  };

  it('308 bytes are kept over kill -9; the finished session answers with the same file after another', async () => {
    const total = 3 * GRANULE + 100;
    const bytes = Buffer.alloc(total);
    for (let i = 0; i < total; i++) bytes[i] = (i * 31 + 7) & 0xff;
    let sb = await launch();
    const port = Number(new URL(sb.url).port);
    const auth = () => ({ authorization: `Bearer ${sb.token}` });
    const title = `resume-${Date.now()}.bin`;
    const begin = await fetch(`${sb.url}/upload/store/v2/files?uploadType=resumable`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', 'x-upload-content-length': `${total}` },
      body: JSON.stringify({ title }),
    });
    assert.equal(begin.status, 200);
    const location = new URL(begin.headers.get('location')!);
    const session = () => `${sb.url}${location.pathname}${location.search}`;

    // Two granules and a bit: the server keeps the two whole granules and says so.
    const first = await fetch(session(), {
      method: 'PUT',
      headers: { ...auth(), 'content-range': `bytes 0-${2 * GRANULE + 999}/${total}` },
      body: bytes.subarray(0, 2 * GRANULE + 1000),
    });
    assert.equal(first.status, 308);
    assert.equal(first.headers.get('range'), `bytes=0-${2 * GRANULE - 1}`);

    await crash(sb);
    sb = await launch(port);
    const status = await fetch(session(), {
      method: 'PUT',
      headers: { ...auth(), 'content-range': `bytes */${total}` },
    });
    assert.equal(status.status, 308, 'the session is still there after the crash');
    assert.equal(status.headers.get('range'), `bytes=0-${2 * GRANULE - 1}`, 'with every byte it reported');

    // Another caller's token does not open it (the session keeps only the token's hash).
    const stranger = await fetch(session(), {
      method: 'PUT',
      headers: { authorization: 'Bearer not-the-token', 'content-range': `bytes */${total}` },
    });
    assert.ok(stranger.status === 401 || stranger.status === 404, `a stranger got ${stranger.status}`);

    const rest = await fetch(session(), {
      method: 'PUT',
      headers: { ...auth(), 'content-range': `bytes ${2 * GRANULE}-${total - 1}/${total}` },
      body: bytes.subarray(2 * GRANULE),
    });
    assert.ok(rest.status < 300, `the last chunk: ${rest.status} ${await rest.clone().text()}`);
    const file = (await rest.json()) as { id: string; md5Checksum: string; fileSize: string };
    assert.equal(file.md5Checksum, createHash('md5').update(bytes).digest('hex'));
    assert.equal(Number(file.fileSize), total);

    // The answer to the last chunk is lost in a crash: the client asks the session, and gets the same file.
    await crash(sb);
    sb = await launch(port);
    const again = await fetch(session(), {
      method: 'PUT',
      headers: { ...auth(), 'content-range': `bytes */${total}` },
    });
    assert.equal(again.status, rest.status);
    assert.equal(((await again.json()) as { id: string }).id, file.id);
    const media = await fetch(`${sb.url}/store/v2/files/${file.id}?alt=media`, { headers: auth() });
    assert.ok(Buffer.from(await media.arrayBuffer()).equals(bytes), 'the content is the bytes sent');
    const q = encodeURIComponent(`title = '${title}'`);
    const list = (await (await fetch(`${sb.url}/store/v2/files?q=${q}`, { headers: auth() })).json()) as {
      items: unknown[];
    };
    assert.equal(list.items.length, 1, 'one file, never a duplicate');
  });

  it('a session whose bytes were removed while the sandbox was down answers 404: start a new upload', async () => {
    let sb = await launch();
    const port = Number(new URL(sb.url).port);
    const auth = () => ({ authorization: `Bearer ${sb.token}` });
    const begin = await fetch(`${sb.url}/upload/store/v2/files?uploadType=resumable`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'gone.bin' }),
    });
    const location = new URL(begin.headers.get('location')!);
    const first = await fetch(`${sb.url}${location.pathname}${location.search}`, {
      method: 'PUT',
      headers: { ...auth(), 'content-range': `bytes 0-${GRANULE - 1}/*` },
      body: Buffer.alloc(GRANULE, 1),
    });
    assert.equal(first.status, 308);
    await crash(sb);
    const partials = path.join(dir, 'storage', 'blobs', 'partial');
    const names = fs.readdirSync(partials);
    assert.ok(names.length >= 1, 'the partial contents are kept on disk');
    for (const n of names) fs.rmSync(path.join(partials, n));
    sb = await launch(port);
    const status = await fetch(`${sb.url}${location.pathname}${location.search}`, {
      method: 'PUT',
      headers: { ...auth(), 'content-range': 'bytes */*' },
    });
    assert.equal(status.status, 404);
    assert.match(await status.text(), /start a new upload/);
  });

  it('a last chunk whose commit failed is refused, and the session is still there to send it again', async () => {
    const h = await startStorage({ dataDir: dir });
    try {
      const total = GRANULE + 500;
      const bytes = Buffer.alloc(total, 9);
      const begin = await h.call('POST', '/upload/store/v2/files?uploadType=resumable', {
        body: { title: 'last-chunk.bin' },
        headers: { 'x-upload-content-length': `${total}` },
      });
      assert.equal(begin.status, 200);
      const location = new URL(begin.headers.get('location')!);
      const session = `${location.pathname}${location.search}`;
      const first = await h.call('PUT', session, {
        raw: bytes.subarray(0, GRANULE),
        headers: { 'content-range': `bytes 0-${GRANULE - 1}/${total}` },
      });
      assert.equal(first.status, 308);
      const faults = (diskFull: boolean) => h.call('POST', '/store/v2/__sandbox/faults', { body: { diskFull } });
      assert.equal((await faults(true)).status, 200);
      const last = () =>
        h.call<{ id: string }>('PUT', session, {
          raw: bytes.subarray(GRANULE),
          headers: { 'content-range': `bytes ${GRANULE}-${total - 1}/${total}` },
        });
      const refused = await last();
      assert.equal(refused.status, 507, refused.text);
      assert.equal((await faults(false)).status, 200);
      // Nothing of the refused chunk was acknowledged: the session says what it holds, as before that chunk.
      const status = await h.call('PUT', session, { headers: { 'content-range': `bytes */${total}` } });
      assert.equal(status.status, 308, `the status query after the refused chunk answered ${status.status}`);
      assert.equal(status.headers.get('range'), `bytes=0-${GRANULE - 1}`);
      // The refused completion had named the bytes as a blob; the session's next chunk must not write into it.
      const partials = path.join(dir, 'storage', 'blobs', 'partial');
      for (const n of fs.readdirSync(partials))
        assert.equal(fs.statSync(path.join(partials, n)).nlink, 1, `partial ${n} shares its file with a blob`);
      const done = await last();
      assert.equal(done.status, 201, done.text);
      const got = await h.call('GET', `/store/v2/files/${done.json.id}?alt=media`);
      assert.equal(got.text.length, total);
      const list = await h.call<{ items: unknown[] }>(
        'GET',
        `/store/v2/files?q=${encodeURIComponent("title = 'last-chunk.bin'")}`,
      );
      assert.equal(list.json.items.length, 1, 'one file, never a duplicate');
    } finally {
      await h.close();
    }
  });

  it('on a file system without hard links (EPERM) a finished session still becomes its file, by a copy', async () => {
    // The module object itself (the namespace's bindings are read-only), which the sandbox's blob store calls.
    const real = nodeFs;
    const link = real.linkSync;
    const refused: string[] = [];
    real.linkSync = (from: fs.PathLike) => {
      refused.push(String(from));
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    };
    const h = await startStorage({ dataDir: dir });
    try {
      const total = GRANULE + 7;
      const bytes = Buffer.alloc(total);
      for (let i = 0; i < total; i++) bytes[i] = (i * 13) & 0xff;
      const begin = await h.call('POST', '/upload/store/v2/files?uploadType=resumable', {
        body: { title: 'no-links.bin' },
        headers: { 'x-upload-content-length': `${total}` },
      });
      const location = new URL(begin.headers.get('location')!);
      const done = await h.call<{ id: string; md5Checksum: string }>('PUT', `${location.pathname}${location.search}`, {
        raw: bytes,
        headers: { 'content-range': `bytes 0-${total - 1}/${total}` },
      });
      assert.equal(done.status, 201, done.text);
      assert.equal(refused.length, 1, 'the completion tried a hard link first');
      assert.equal(done.json.md5Checksum, createHash('md5').update(bytes).digest('hex'));
      const got = await fetch(`${h.origin}/store/v2/files/${done.json.id}?alt=media`, {
        headers: { authorization: `Bearer ${h.token}` },
      });
      assert.deepEqual(Buffer.from(await got.arrayBuffer()), bytes);
      // The answer is durable: the session's partial file is gone.
      assert.deepEqual(fs.readdirSync(path.join(dir, 'storage', 'blobs', 'partial')), []);
    } finally {
      real.linkSync = link;
      await h.close();
    }
  });
});
