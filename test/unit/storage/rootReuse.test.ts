// The root folder's metadata is asked for by the file system's top listing (the breadcrumbs' picker), by every
// `My files/…` path and by stat: within a short time one request answers them all, and a write forgets it.
import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { defaultFetch } from '../../../src/shared/http';
import { shareGets } from '../../../src/shared/http/shareGets';
import { StorageClient } from '../../../src/storage/core/client';
import { StoreFs } from '../../../src/storage/core/fileSystem';

describe('store: file system asks for the root folder once', () => {
  let sb: RunningSandbox;
  before(async () => (sb = await startSandbox()));
  after(async () => sb.close());

  it('serves the top listing, stat and paths of My files from one request, and asks again after a write', async () => {
    const rootGets: string[] = [];
    const client = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => sb.accessToken },
      retry: { maxRetries: 0 },
      fetch: shareGets(async (url, init) => {
        if ((init?.method ?? 'GET') === 'GET' && /\/files\/root\b/.test(url)) rootGets.push(url);
        return defaultFetch(url, init);
      }),
    });
    // No stat cache of the file system's own: only the HTTP layer's reuse can save the requests.
    const fs = new StoreFs(client, { statTtlMs: 0 });
    const top = await fs.readDirectory('/');
    assert.ok(top.some(([name, type]) => name === 'My files' && type === 'directory'));
    assert.equal((await fs.stat('/My files')).type, 'directory');
    assert.equal((await fs.stat('/My files/README.txt')).type, 'file');
    assert.equal(rootGets.length, 1, rootGets.join('\n'));
    await fs.createDirectory(`/My files/reuse-${Date.now()}`);
    await fs.stat('/My files');
    assert.equal(rootGets.length, 2, 'a write to the service forgets the kept root');
  });
});
