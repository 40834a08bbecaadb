import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { StorageClient } from '../../../src/storage/core/client';
import { NetworkError } from '../../../src/storage/core/errors';
import { StorageTreeModel } from '../../../src/storage/core/tree';
import type { HttpFetch } from '../../../src/shared/http';

/** A loopback port nothing listens on: bound, then closed, so connecting to it is refused at once. */
async function refusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function failingFetch(code: string, calls: string[]): HttpFetch {
  return (url) => {
    calls.push(url);
    const e = new Error(`request to ${url} failed, reason: connect ${code} 127.0.0.1:1`) as Error & { code: string };
    e.code = code;
    return Promise.reject(e);
  };
}

describe('storage: an unreachable endpoint fails fast', () => {
  const longQuery = { q: `'root' in parents and trashed = false and title contains '${'x'.repeat(500)}'` };

  it('a refused connection gets two very short retries, not the long backoff', async () => {
    const sleeps: number[] = [];
    const calls: string[] = [];
    const client = new StorageClient({
      baseUrl: 'http://127.0.0.1:1',
      auth: { token: () => 'secret-token' },
      fetch: failingFetch('ECONNREFUSED', calls),
      retry: { sleep: (ms) => Promise.resolve(void sleeps.push(ms)) },
    });
    const err = await client.listFiles(longQuery).then(
      () => assert.fail('listing a refused endpoint resolved'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof NetworkError);
    assert.equal(calls.length, 3);
    assert.deepEqual(sleeps, [150, 150]);
    assert.equal(err.unreachable, true);
    assert.equal(err.code, 'ECONNREFUSED');
    // One short line naming the host and the reason, never the 600-character request URL.
    assert.equal(
      err.message,
      'Could not reach the storage service at 127.0.0.1:1: connection refused (nothing is listening there)',
    );
  });

  it('a reset connection (a slow or flaky server) still gets the full backoff', async () => {
    const sleeps: number[] = [];
    const client = new StorageClient({
      baseUrl: 'http://127.0.0.1:1',
      auth: { token: () => 't' },
      fetch: failingFetch('ECONNRESET', []),
      retry: { sleep: (ms) => Promise.resolve(void sleeps.push(ms)), random: () => 0.5 },
    });
    await assert.rejects(client.listFiles({}), (e: unknown) => e instanceof NetworkError && !e.unreachable);
    assert.equal(sleeps.length, 5);
    assert.ok(sleeps[4] >= 8000, `backs off for long: ${sleeps.join(', ')}`);
  });

  it('the tree model reports a real refused port as unreachable, with its code', async () => {
    const port = await refusedPort();
    const client = new StorageClient({ baseUrl: `http://127.0.0.1:${port}`, auth: { token: () => 't' } });
    const model = new StorageTreeModel(client);
    const why = await model.unreachable();
    assert.equal(why?.code, 'ECONNREFUSED');
    assert.match(why?.message ?? '', new RegExp(`^Could not reach the storage service at 127\\.0\\.0\\.1:${port}: `));
  });
});
