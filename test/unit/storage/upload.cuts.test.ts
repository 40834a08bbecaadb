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
