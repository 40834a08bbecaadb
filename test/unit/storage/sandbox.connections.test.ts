// A refusal must not cost the client its connection. Each case below sends a request with a 3 MiB body that
// the sandbox refuses (4xx/5xx, mostly before reading the body, or part-way through it) over a keep-alive
// connection, then a second request over the SAME connection: it must get its answer. A body left unread
// stalls the connection (the server holds it for minutes), so a hang here fails by the test's timeout.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import type { ErrorBody, File } from '../../../src/shared/wire/storage';
import { parseAs } from '../../support/typedJson';
import { startStorage, type Harness } from './emulatorHarness';

const MEDIA = Buffer.alloc(3 * 1024 * 1024, 0x61);

interface Answer {
  status: number;
  text: string;
  reused: boolean;
  headers: http.IncomingHttpHeaders;
}

/** One request over `agent` (one socket at most), the body written as given; resolves with the whole answer. */
function send(
  origin: string,
  agent: http.Agent,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<Answer> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: target,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            reused: req.reusedSocket,
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer and the client carry on writing: a write after the answer is not an error here.
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

function multipart(metadata: string, media: Buffer): { body: Buffer; type: string } {
  const boundary = 'conn-test-boundary';
  const head = `--${boundary}\r\ncontent-type: application/json\r\n\r\n${metadata}\r\n--${boundary}\r\ncontent-type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), media, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/related; boundary=${boundary}`,
  };
}

describe('sandbox: every refusal leaves the keep-alive connection usable', function () {
  this.timeout(20_000);
  let sb: RunningSandbox;
  let agent: http.Agent;
  before(async () => (sb = await startSandbox()));
  after(() => sb.close());
  beforeEach(() => (agent = new http.Agent({ keepAlive: true, maxSockets: 1 })));
  afterEach(() => agent.destroy());

  const auth = () => ({ authorization: `Bearer ${sb.accessToken}` });

  /** The refusal, then a request on the same connection that must be answered. */
  async function refusedThenNext(
    first: { method: string; path: string; headers?: Record<string, string>; body: Buffer },
    status: number,
  ): Promise<Answer> {
    const refused = await send(sb.url, agent, first.method, first.path, first.headers, first.body);
    assert.equal(refused.status, status, refused.text);
    const next = await send(sb.url, agent, 'GET', '/store/v2/about?fields=kind', auth());
    assert.equal(next.status, 200, next.text);
    assert.equal(next.reused, true, 'the second request went over the first one’s connection');
    return refused;
  }

  const upload = '/upload/store/v2/files?uploadType=multipart';

  it('storage: multipart whose metadata part is not JSON, then 3 MiB of media → 400', async () => {
    const m = multipart('{not json', MEDIA);
    await refusedThenNext(
      { method: 'POST', path: upload, headers: { ...auth(), 'content-type': m.type }, body: m.body },
      400,
    );
  });

  it('storage: multipart whose metadata has a wrong-typed member → 400', async () => {
    const m = multipart(JSON.stringify({ title: 5 }), MEDIA);
    await refusedThenNext(
      { method: 'POST', path: upload, headers: { ...auth(), 'content-type': m.type }, body: m.body },
      400,
    );
  });

  it('storage: multipart whose metadata has a null parent → 400', async () => {
    const m = multipart(JSON.stringify({ title: 'x', parents: [null] }), MEDIA);
    await refusedThenNext(
      { method: 'POST', path: upload, headers: { ...auth(), 'content-type': m.type }, body: m.body },
      400,
    );
  });

  it('storage: multipart into a folder that does not exist → 404 after the metadata is read', async () => {
    const m = multipart(JSON.stringify({ title: 'x', parents: [{ id: 'no-such-folder' }] }), MEDIA);
    await refusedThenNext(
      { method: 'POST', path: upload, headers: { ...auth(), 'content-type': m.type }, body: m.body },
      404,
    );
  });

  it('storage: an upload without a token → 401 before the body is read', async () => {
    await refusedThenNext(
      {
        method: 'POST',
        path: '/upload/store/v2/files?uploadType=media',
        headers: { 'content-type': 'text/plain' },
        body: MEDIA,
      },
      401,
    );
  });

  it('storage: an injected 503 → 503 before the body is read', async () => {
    await refusedThenNext(
      {
        method: 'POST',
        path: '/upload/store/v2/files?uploadType=media',
        headers: { ...auth(), 'content-type': 'text/plain', 'x-goog-emulator-instructions': 'return-503' },
        body: MEDIA,
      },
      503,
    );
  });

  it('storage: a chunk for an upload session that does not exist → 404', async () => {
    await refusedThenNext(
      {
        method: 'PUT',
        path: '/upload/store/v2/files?uploadType=resumable&upload_id=nope',
        headers: { ...auth(), 'content-range': `bytes 0-${MEDIA.length - 1}/${MEDIA.length}` },
        body: MEDIA,
      },
      404,
    );
  });

  it('generation: an upload without the resumable headers → 400 before the body is read', async () => {
    await refusedThenNext(
      {
        method: 'POST',
        path: `/upload/v1beta/files?key=${sb.apiKey}`,
        headers: { 'content-type': 'application/json' },
        body: MEDIA,
      },
      400,
    );
  });

  it('generation: a request to a model that does not exist → 404 before the body is read', async () => {
    await refusedThenNext(
      {
        method: 'POST',
        path: `/v1beta/models/no-such-model:generateContent?key=${sb.apiKey}`,
        headers: { 'content-type': 'application/json' },
        body: MEDIA,
      },
      404,
    );
  });

  it('water data: a POST → 405', async () => {
    await refusedThenNext(
      { method: 'POST', path: '/v1/odata/v4/Records', headers: { 'x-api-key': sb.apiKey }, body: MEDIA },
      405,
    );
  });

  it('directory: a POST → 4xx', async () => {
    const refused = await send(sb.url, agent, 'POST', '/discovery/v1/apis', {}, MEDIA);
    assert.ok(refused.status >= 400 && refused.status < 500, `${refused.status} ${refused.text}`);
    const next = await send(sb.url, agent, 'GET', '/store/v2/about?fields=kind', auth());
    assert.equal(next.status, 200);
    assert.equal(next.reused, true);
  });
});

describe('storage sandbox: a blob that is damaged on disk gets an answer in the service’s shape', function () {
  this.timeout(20_000);
  let h: Harness;
  let agent: http.Agent;
  before(async () => (h = await startStorage()));
  after(() => h.close());
  beforeEach(() => (agent = new http.Agent({ keepAlive: true, maxSockets: 1 })));
  afterEach(() => agent.destroy());

  async function stored(media = MEDIA): Promise<{ id: string; blob: string }> {
    const made = await h.call<File>('POST', '/upload/store/v2/files?uploadType=media', {
      raw: media,
      headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(made.status, 200, made.text);
    const content = h.emulator.service.store.file(made.json.id)?.content;
    assert.ok(content, 'the stored file has content');
    const blobs = h.emulator.service.store.blobs as unknown as { dir: string };
    return { id: made.json.id, blob: path.join(blobs.dir, content.key) };
  }

  async function assertServiceError(id: string, range?: string): Promise<void> {
    const headers: Record<string, string> = { authorization: `Bearer ${h.token}` };
    if (range) headers.range = range;
    const a = await send(h.origin, agent, 'GET', `/store/v2/files/${id}?alt=media`, headers);
    assert.ok(a.status >= 500 && a.status < 600, `${a.status} ${a.text.slice(0, 200)}`);
    const body = parseAs<ErrorBody>(a.text);
    assert.equal(body.error.code, a.status);
    assert.equal(typeof body.error.errors[0].reason, 'string');
    // The connection stays usable after the 5xx.
    const next = await send(h.origin, agent, 'GET', '/store/v2/about?fields=kind', {
      authorization: `Bearer ${h.token}`,
    });
    assert.equal(next.status, 200);
    assert.equal(next.reused, true);
  }

  it('a blob truncated on disk → 5xx before any byte, not 200 with its old length and then silence', async () => {
    const { id, blob } = await stored();
    fs.truncateSync(blob, 10);
    await assertServiceError(id);
    await assertServiceError(id, 'bytes=100-200');
  });

  it('a blob missing on disk → 5xx with a status line, not a cut connection', async () => {
    const { id, blob } = await stored();
    fs.rmSync(blob);
    await assertServiceError(id);
    await assertServiceError(id, 'bytes=0-9');
  });

  it('a blob cut short while it streams: the connection is cut at once, not left waiting for the promised bytes', async () => {
    // Larger than the loopback socket buffers, so the server is still reading the file when it is cut.
    const big = Buffer.alloc(48 * 1024 * 1024, 0x62);
    const { id, blob } = await stored(big);
    const u = new URL(h.origin);
    const outcome = await new Promise<string>((resolve) => {
      const req = http.get(
        {
          host: u.hostname,
          port: u.port,
          path: `/store/v2/files/${id}?alt=media`,
          headers: { authorization: `Bearer ${h.token}` },
        },
        (res) => {
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers['content-length'], String(big.length));
          let got = 0;
          res.once('data', (c: Buffer) => {
            got += c.length;
            res.pause();
            fs.truncateSync(blob, 1024 * 1024);
            res.on('data', (more: Buffer) => (got += more.length));
            res.resume();
          });
          res.on('end', () => resolve(`ended after ${got} bytes`));
          res.on('aborted', () => resolve(`aborted after ${got} bytes`));
          res.on('error', () => resolve(`aborted after ${got} bytes`));
        },
      );
      req.on('error', () => resolve('aborted before the answer'));
    });
    assert.match(outcome, /^aborted after \d+ bytes$/);
  });
});
