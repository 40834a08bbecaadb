import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { StorageError } from '../../../src/storage/core/errors';
import { bufferSource, fileSource, upload, uploadResumable } from '../../../src/storage/core/upload';
import { downloadToFile, exportToFile, safeLocalName, uniqueLocalPath } from '../../../src/storage/core/download';

describe('storage client: uploads and downloads', () => {
  let sb: RunningSandbox;
  let client: StorageClient;
  let dir: string;
  const sleeps: number[] = [];

  before(async () => {
    sb = await startSandbox();
    client = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => sb.accessToken },
      retry: {
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
        random: () => 0,
      },
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-storage-'));
  });
  after(async () => {
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const faults = (body: unknown) => client.transport.send({ method: 'POST', path: '__sandbox/faults', json: body });
  const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

  it('uploads small content in one multipart request', async () => {
    const f = await upload(client, bufferSource(Buffer.from('hello, storage')), {
      metadata: { title: 'hello.txt', mimeType: 'text/plain' },
    });
    assert.equal(f.title, 'hello.txt');
    assert.equal(f.fileSize, '14');
    assert.equal((await client.download(f.id!)).toString(), 'hello, storage');
  });

  it('streams a file from disk in 256 KiB-multiple chunks and resumes after a dropped connection', async () => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 12345);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31 + 7) & 0xff;
    const file = path.join(dir, 'big.bin');
    fs.writeFileSync(file, data);
    await faults({ queued: [{ kind: 'resetUpload', afterBytes: 700_000 }] });
    const progress: number[] = [];
    const f = await uploadResumable(client, fileSource(file), {
      metadata: { title: 'big.bin' },
      chunkSize: 1_000_000,
      onProgress: (n) => progress.push(n),
    });
    assert.equal(f.fileSize, String(data.length));
    assert.equal(f.md5Checksum, md5(data));
    assert.ok(
      progress.every((n) => n % 262_144 === 0 || n === data.length),
      'confirmed offsets are whole granules',
    );
    assert.ok(progress.includes(524_288), 'resumed from what the server kept after the cut');
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i] >= progress[i - 1]);
    assert.ok(sleeps.length >= 1, 'backed off before resuming');
    const out = path.join(dir, 'back.bin');
    const n = await downloadToFile(client, f.id!, out);
    assert.equal(n, data.length);
    assert.ok(fs.readFileSync(out).equals(data));
    assert.deepEqual(
      fs.readdirSync(dir).filter((x) => x.endsWith('.part')),
      [],
      'no temporary files left',
    );
  });

  it('retries chunk requests the server answers with 503', async () => {
    sleeps.length = 0;
    const data = Buffer.alloc(600_000, 3);
    let n = 0;
    const f = await uploadResumable(client, bufferSource(data), {
      metadata: { title: 'flaky.bin' },
      chunkSize: 262_144,
      chunkHeaders: (): Record<string, string> => (n++ === 1 ? { 'x-goog-emulator-instructions': 'return-503' } : {}),
    });
    assert.equal(f.fileSize, '600000');
    assert.equal(sleeps.length, 1);
  });

  it('uploads empty content and updates content with If-Match; a stale etag fails with a conflict', async () => {
    const empty = await uploadResumable(client, bufferSource(Buffer.alloc(0)), {
      metadata: { title: 'empty.txt', mimeType: 'text/plain' },
    });
    assert.equal(empty.fileSize, '0');
    const updated = await upload(client, bufferSource(Buffer.from('v2')), {
      fileId: empty.id,
      ifMatch: empty.etag,
      contentType: 'text/plain',
    });
    assert.equal(updated.fileSize, '2');
    await assert.rejects(
      upload(client, bufferSource(Buffer.from('v3')), { fileId: empty.id, ifMatch: empty.etag }),
      (e: unknown) => e instanceof StorageError && e.isConflict && e.action === 'reload',
    );
    await assert.rejects(
      uploadResumable(client, bufferSource(Buffer.alloc(300_000)), { fileId: empty.id, ifMatch: empty.etag }),
      (e: unknown) => e instanceof StorageError && e.status === 412,
    );
    assert.equal((await client.download(empty.id!)).toString(), 'v2', 'nothing was overwritten');
  });

  it('exports a workspace document to disk with a safe local name', async () => {
    const doc = (await client.listFiles({ q: "title = 'Roadmap'", fields: 'items(id,title)' })).items![0];
    const target = await uniqueLocalPath(dir, safeLocalName(doc.title!, 'pdf'));
    await exportToFile(client, doc.id!, 'application/pdf', target);
    assert.equal(path.basename(target), 'Roadmap.pdf');
    assert.match(fs.readFileSync(target, 'latin1'), /^%PDF/);
    assert.equal(path.basename(await uniqueLocalPath(dir, 'Roadmap.pdf')), 'Roadmap (1).pdf');
  });

  it('makes safe local names from hostile titles', () => {
    assert.equal(safeLocalName('a/b\\c:d'), 'a_b_c_d');
    assert.equal(safeLocalName('..'), '_');
    assert.equal(safeLocalName('bad\u0001name\u007f'), 'badname');
    assert.equal(safeLocalName('CON'), '_CON');
    assert.equal(safeLocalName(''), 'untitled');
    assert.equal(safeLocalName('trailing. '), 'trailing');
    assert.equal(safeLocalName('日本語のファイル'), '日本語のファイル');
    const long = safeLocalName('x'.repeat(400) + '.txt');
    assert.ok(Buffer.byteLength(long) <= 200 && long.endsWith('.txt'));
  });
});
