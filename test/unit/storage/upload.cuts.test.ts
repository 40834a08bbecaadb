// The resumable upload against a server that cuts every chunk: the retry budget is for failures in a
// row without progress, so cuts that each kept bytes never exhaust it, and cuts that keep nothing do.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { NetworkError } from '../../../src/storage/core/errors';
import { bufferSource, uploadResumable } from '../../../src/storage/core/upload';

const GRANULE = 262_144;

describe('storage client: resumable upload through repeated cuts', () => {
  let sb: RunningSandbox;
  let client: StorageClient;
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
  });
  after(() => sb.close());
  beforeEach(async () => {
    sleeps.length = 0;
    await client.transport.send({ method: 'POST', path: '__sandbox/faults', json: { reset: true } });
  });

  /** Queues `n` connection cuts, each after `afterBytes` bytes of a chunk. */
  const cuts = (n: number, afterBytes: number) =>
    client.transport.send({
      method: 'POST',
      path: '__sandbox/faults',
      json: { queued: Array.from({ length: n }, () => ({ kind: 'resetUpload', afterBytes })) },
    });

  it('finishes after ten cuts when every cut kept a granule', async () => {
    const data = Buffer.alloc(12 * GRANULE + 5);
    for (let i = 0; i < data.length; i++) data[i] = (i * 13) & 0xff;
    await cuts(10, GRANULE + 1000);
    const progress: number[] = [];
    const f = await uploadResumable(client, bufferSource(data), {
      metadata: { title: 'cut-ten-times.bin' },
      chunkSize: 2 * GRANULE,
      onProgress: (n) => progress.push(n),
    });
    assert.equal(f.fileSize, String(data.length));
    assert.equal(f.md5Checksum, createHash('md5').update(data).digest('hex'));
    assert.equal(sleeps.length, 10, 'one backoff per cut');
    assert.ok(
      sleeps.every((ms) => ms === sleeps[0]),
      `the backoff restarts after progress: ${sleeps.join(', ')}`,
    );
  });

  it('by default sends the rest in one request, reports progress as it goes, and resumes after a cut', async () => {
    const data = Buffer.alloc(40 * GRANULE + 7);
    for (let i = 0; i < data.length; i++) data[i] = (i * 29) & 0xff;
    await cuts(1, 9 * GRANULE + 1000);
    const puts: string[] = [];
    const counting = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => sb.accessToken },
      retry: client.transport.options.retry,
      onAttempt: (a) => void (a.method === 'PUT' && puts.push(String(a.status))),
    });
    const confirmed: number[] = [];
    const sent: number[] = [];
    const f = await uploadResumable(counting, bufferSource(data), {
      metadata: { title: 'one-request.bin' },
      onProgress: (n) => confirmed.push(n),
      onSent: (n, total) => {
        assert.equal(total, data.length);
        sent.push(n);
      },
    });
    assert.equal(f.fileSize, String(data.length));
    assert.equal(f.md5Checksum, createHash('md5').update(data).digest('hex'));
    // The first request is cut after 9 granules and some bytes; the status query says 9 granules were kept;
    // one more request sends the rest.
    assert.deepEqual(puts, ['network', '308', '201']);
    assert.deepEqual(confirmed, [9 * GRANULE, data.length], 'what the server kept after the cut, then all');
    const resumed = sent.findIndex((n, i) => i > 0 && n < sent[i - 1]);
    assert.ok(resumed > 0 && sent[resumed] > 9 * GRANULE, `sending starts again after the cut: ${sent.join(', ')}`);
    assert.ok(sent.length - resumed >= 5, `bytes are reported while they are sent: ${sent.join(', ')}`);
    assert.ok(
      sent.slice(resumed).every((n, i, a) => i === 0 || n > a[i - 1]),
      'sent bytes only grow within a request',
    );
    assert.ok(data.length - sent.at(-1)! < data.length / 100, 'the last report is within a percent of the end');
  });

  it('sends more than the old 64 MiB chunk in one request', async function () {
    this.timeout(60_000);
    const data = Buffer.alloc(65 * 1024 * 1024 + 3, 7);
    const puts: string[] = [];
    const counting = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => sb.accessToken },
      onAttempt: (a) => void (a.method === 'PUT' && puts.push(String(a.status))),
    });
    const f = await uploadResumable(counting, bufferSource(data), { metadata: { title: 'big-one-request.bin' } });
    assert.equal(f.fileSize, String(data.length));
    assert.deepEqual(puts, ['201']);
    await counting.call('files.delete', { fileId: f.id! });
  });

  it('still gives up when cuts keep nothing', async () => {
    await cuts(7, 1000);
    await assert.rejects(
      uploadResumable(client, bufferSource(Buffer.alloc(3 * GRANULE, 1)), {
        metadata: { title: 'never.bin' },
        chunkSize: 2 * GRANULE,
      }),
      (e: unknown) => e instanceof NetworkError,
    );
    assert.equal(sleeps.length, 5, 'the retry budget (5) is spent');
  });
});
