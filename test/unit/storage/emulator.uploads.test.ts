// Uploads into the storage emulator: media streams to the blob store (a 100 MB upload does not sit in
// memory), and If-Match is checked when the upload commits, not when it starts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import type { File } from '../../../src/shared/wire/storage';
import { parseAs } from '../../support/typedJson';

/** Sends `chunks` chunks of `chunk` as one request body, calling `midway` after half of them. */
function streamUpload(
  origin: string,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  chunk: Buffer,
  chunks: number,
  midway?: () => Promise<void>,
): Promise<{ status: number; text: string }> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: pathAndQuery,
        headers: { ...headers, 'content-length': String(chunk.length * chunks) },
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    let sent = 0;
    const pump = (): void => {
      while (sent < chunks) {
        if (midway && sent === chunks >> 1) {
          const m = midway;
          midway = undefined;
          m().then(pump, reject);
          return;
        }
        sent++;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe('sandbox storage uploads: streamed to the blob store', () => {
  let sb: RunningSandbox;
  let blobDir: string;
  let auth: Record<string, string>;
  before(async () => {
    blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-blobs-test-'));
    sb = await startSandbox({ blobDir });
    auth = { authorization: `Bearer ${sb.accessToken}` };
  });
  after(async () => {
    await sb.close();
    fs.rmSync(blobDir, { recursive: true, force: true });
  });

  it('a 100 MB media upload lands on disk without raising memory by its size; the download streams it back', async () => {
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) % 251;
    const count = 100;
    const expected = createHash('md5');
    for (let i = 0; i < count; i++) expected.update(chunk);
    const md5 = expected.digest('hex');
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const up = await streamUpload(
      sb.url,
      'POST',
      '/upload/store/v2/files?uploadType=media',
      { ...auth, 'content-type': 'application/octet-stream' },
      chunk,
      count,
    );
    clearInterval(sampler);
    assert.equal(up.status, 200, up.text);
    const file = parseAs<Required<File>>(up.text);
    assert.equal(file.fileSize, String(count * chunk.length));
    assert.equal(file.md5Checksum, md5);
    // The bytes are a file in the blob directory, named by their SHA-256.
    assert.ok(fs.existsSync(path.join(blobDir, file.sha256Checksum)), 'blob on disk');
    assert.equal(fs.statSync(path.join(blobDir, file.sha256Checksum)).size, count * chunk.length);
    // Buffering the body (as before) raised the resident set by about twice the upload's size.
    const grown = (peak - before) / 1024 / 1024;
    assert.ok(grown < 60, `resident memory grew by ${grown.toFixed(0)} MB during a 100 MB upload`);

    const res = await fetch(`${sb.url}/store/v2/files/${file.id}?alt=media`, { headers: auth });
    assert.equal(res.status, 200);
    const got = createHash('md5');
    let size = 0;
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
      got.update(piece);
      size += piece.length;
    }
    assert.equal(size, count * chunk.length);
    assert.equal(got.digest('hex'), md5);
    const ranged = await fetch(`${sb.url}/store/v2/files/${file.id}?alt=media`, {
      headers: { ...auth, range: 'bytes=1048576-1048579' },
    });
    assert.equal(ranged.status, 206);
    assert.deepEqual([...Buffer.from(await ranged.arrayBuffer())], [...chunk.subarray(0, 4)]);
  });

  it('a multipart upload streams its media part (binary-safe, with boundary-like bytes inside)', async () => {
    const media = Buffer.concat([
      Buffer.from('\r\n--notTheBoundary\r\n'),
      Buffer.alloc(3 * 1024 * 1024, 7),
      Buffer.from('--b\r'),
    ]);
    const body = Buffer.concat([
      Buffer.from(
        '--b1\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"title":"multi.bin"}\r\n--b1\r\nContent-Type: application/x-test\r\n\r\n',
      ),
      media,
      Buffer.from('\r\n--b1--\r\n'),
    ]);
    const res = await fetch(`${sb.url}/upload/store/v2/files?uploadType=multipart`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/related; boundary=b1' },
      body,
    });
    const file = (await res.json()) as {
      id: string;
      title: string;
      mimeType: string;
      fileSize: string;
      md5Checksum: string;
    };
    assert.equal(res.status, 200, JSON.stringify(file));
    assert.equal(file.title, 'multi.bin');
    assert.equal(file.mimeType, 'application/x-test');
    assert.equal(file.fileSize, String(media.length));
    assert.equal(file.md5Checksum, createHash('md5').update(media).digest('hex'));
    const three = await fetch(`${sb.url}/upload/store/v2/files?uploadType=multipart`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/related; boundary=b1' },
      body: '--b1\r\nContent-Type: application/json\r\n\r\n{}\r\n--b1\r\n\r\nA\r\n--b1\r\n\r\nB\r\n--b1--',
    });
    assert.equal(three.status, 400);
    const unterminated = await fetch(`${sb.url}/upload/store/v2/files?uploadType=multipart`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/related; boundary=b1' },
      body: '--b1\r\nContent-Type: application/json\r\n\r\n{}\r\n--b1\r\n\r\nA never ends',
    });
    assert.equal(unterminated.status, 400);
  });
});

describe('sandbox storage uploads: If-Match is checked when the upload commits', () => {
  let sb: RunningSandbox;
  let auth: Record<string, string>;
  before(async () => {
    sb = await startSandbox();
    auth = { authorization: `Bearer ${sb.accessToken}` };
  });
  after(() => sb.close());

  async function newFile(title: string): Promise<{ id: string; etag: string }> {
    const r = await fetch(`${sb.url}/upload/store/v2/files?uploadType=media`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'v1',
    });
    const f = (await r.json()) as { id: string; etag: string };
    const p = await fetch(`${sb.url}/store/v2/files/${f.id}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    return (await p.json()) as { id: string; etag: string };
  }

  const patchDescription = (id: string, description: string) =>
    fetch(`${sb.url}/store/v2/files/${id}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ description }),
    }).then((r) => r.json() as Promise<{ etag: string }>);

  it('media upload: a change made while the body streams in wins; the upload gets 412', async () => {
    const f = await newFile('media-race.txt');
    const up = await streamUpload(
      sb.url,
      'PUT',
      `/upload/store/v2/files/${f.id}?uploadType=media`,
      { ...auth, 'if-match': f.etag, 'content-type': 'text/plain' },
      Buffer.alloc(256 * 1024, 0x61),
      8,
      async () => {
        await patchDescription(f.id, 'edited meanwhile');
      },
    );
    assert.equal(up.status, 412, up.text);
    const now = (await (await fetch(`${sb.url}/store/v2/files/${f.id}`, { headers: auth })).json()) as {
      description: string;
      fileSize: string;
    };
    assert.equal(now.description, 'edited meanwhile');
    assert.equal(now.fileSize, '2', 'content unchanged');
  });

  it('resumable upload: the etag given at the start is checked again at the last chunk', async () => {
    const f = await newFile('resumable-race.txt');
    const init = await fetch(`${sb.url}/upload/store/v2/files/${f.id}?uploadType=resumable`, {
      method: 'PUT',
      headers: {
        ...auth,
        'if-match': f.etag,
        'content-type': 'application/json',
        'x-upload-content-type': 'text/plain',
      },
      body: '{}',
    });
    assert.equal(init.status, 200);
    const location = init.headers.get('location')!;
    await patchDescription(f.id, 'edited during the upload');
    const last = await fetch(location, {
      method: 'PUT',
      headers: { ...auth, 'content-range': 'bytes 0-4/5' },
      body: 'hello',
    });
    assert.equal(last.status, 412, await last.text());
    const again = await fetch(location, { method: 'PUT', headers: { ...auth, 'content-range': 'bytes */5' } });
    assert.equal(again.status, 412, 'the session keeps its answer');
    const now = (await (await fetch(`${sb.url}/store/v2/files/${f.id}`, { headers: auth })).json()) as {
      description: string;
      fileSize: string;
    };
    assert.equal(now.description, 'edited during the upload');
    assert.equal(now.fileSize, '2');
  });

  it('without a competing change both commit normally', async () => {
    const f = await newFile('no-race.txt');
    const up = await streamUpload(
      sb.url,
      'PUT',
      `/upload/store/v2/files/${f.id}?uploadType=media`,
      { ...auth, 'if-match': f.etag, 'content-type': 'text/plain' },
      Buffer.from('abc'),
      2,
    );
    assert.equal(up.status, 200, up.text);
    assert.equal(parseAs<File>(up.text).fileSize, '6');
  });
});
