import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient, quote } from '../../../src/storage/core/client';
import { StorageError } from '../../../src/storage/core/errors';
import { defaultFetch, type HttpFetch } from '../../../src/shared/http';
import { SEED_PHOTO_COUNT } from '../../../src/sandbox/storage/seed';
import nodeFetch from 'node-fetch';
import type { FileList } from '../../../src/shared/wire/storage';
import { parseAs } from '../../support/typedJson';

describe('storage client against the sandbox', () => {
  let sb: RunningSandbox;
  let client: StorageClient;
  const sleeps: number[] = [];
  const fast = {
    sleep: (ms: number) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
  };

  before(async () => {
    sb = await startSandbox();
    client = new StorageClient({ baseUrl: sb.storage, auth: { token: () => sb.accessToken }, retry: fast });
  });
  after(async () => sb.close());
  beforeEach(() => (sleeps.length = 0));

  const photosId = async () => (await client.listFiles({ q: "title = 'Photos'", fields: 'items(id)' })).items![0].id!;

  it('follows nextPageToken to the end of a large folder', async () => {
    const all = await client.listFolder(await photosId(), { pageSize: 40 });
    assert.equal(all.length, SEED_PHOTO_COUNT);
    assert.equal(new Set(all.map((f) => f.id)).size, SEED_PHOTO_COUNT);
  });

  it('keeps paging through short and empty pages', async () => {
    const photos = await photosId();
    let calls = 0;
    // The first two answers are an empty page and a one-item page that still carry a token.
    const fetchImpl: HttpFetch = async (url, init) => {
      calls++;
      const res = await defaultFetch(url, init);
      if (calls > 2) return res;
      const body = parseAs<FileList>(await res.text());
      body.items = calls === 1 ? [] : body.items?.slice(0, 1);
      const text = JSON.stringify(body);
      return {
        status: 200,
        ok: true,
        statusText: 'OK',
        headers: res.headers,
        text: () => Promise.resolve(text),
        arrayBuffer: () => Promise.resolve(new TextEncoder().encode(text).buffer),
        body: null,
      };
    };
    const c = new StorageClient({ baseUrl: sb.storage, auth: { token: () => sb.accessToken }, fetch: fetchImpl });
    const all = await c.listFolder(photos, { pageSize: 100 });
    assert.ok(calls >= 3);
    assert.ok(
      all.length > 0 && all.length < SEED_PHOTO_COUNT,
      'items dropped by the fake pages are gone, the rest arrive',
    );
    assert.equal(all.at(-1)!.title, `IMG_${String(SEED_PHOTO_COUNT).padStart(4, '0')}.jpg`, 'reached the last page');
  });

  it('maps error bodies to readable messages and keeps the reason', async () => {
    await assert.rejects(client.getFile('does-not-exist'), (e: unknown) => {
      assert.ok(e instanceof StorageError);
      assert.equal(e.status, 404);
      assert.equal(e.reason, 'notFound');
      assert.match(e.message, /no longer exists/);
      assert.match(e.message, /File not found: does-not-exist/);
      return true;
    });
    await assert.rejects(client.listFiles({ q: "title = 'unterminated" }), (e: unknown) => {
      assert.ok(e instanceof StorageError);
      assert.equal(e.status, 400);
      assert.equal(e.location, 'q');
      assert.match(e.message, /\(q\)/);
      assert.equal(sleeps.length, 0, 'a 400 is not retried');
      return true;
    });
  });

  it('asks for a new token once on 401, then reports a sign-in problem', async () => {
    let token = 'stale';
    let refreshes = 0;
    const c = new StorageClient({
      baseUrl: sb.storage,
      auth: {
        token: () => token,
        refresh: () => {
          refreshes++;
          token = sb.accessToken;
          return Promise.resolve(true);
        },
      },
    });
    const about = await c.about('user(emailAddress)');
    assert.equal(about.user?.emailAddress, 'sandbox.user@example.com');
    assert.equal(refreshes, 1);
    const signedOut = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => 'bad', refresh: () => Promise.resolve(false) },
    });
    await assert.rejects(
      signedOut.about(),
      (e: unknown) => e instanceof StorageError && e.action === 'signIn' && /Sign in/.test(e.message),
    );
  });

  it('retries rate limits and 5xx with growing, jittered delays', async () => {
    const headersFor = (instr: string) => ({ 'x-goog-emulator-instructions': instr });
    for (const instr of ['return-503', 'return-429', 'return-403']) {
      sleeps.length = 0;
      await assert.rejects(
        client.call('about.get', {}, undefined, { headers: headersFor(instr) }),
        (e: unknown) => e instanceof StorageError && e.retryable,
      );
      assert.equal(sleeps.length, 5, `${instr}: five retries`);
      for (let i = 1; i < sleeps.length; i++) assert.ok(sleeps[i] >= sleeps[i - 1], 'delays grow');
    }
    // Faults that clear: a queued 503 and a queued rate limit, then success.
    sleeps.length = 0;
    const control = await nodeFetch(`${sb.storage}/store/v2/__sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        queued: [
          { kind: 'status', status: 503 },
          { kind: 'rateLimit', status: 403 },
        ],
      }),
    });
    assert.equal(control.status, 200);
    const about = await client.about('rootFolderId');
    assert.equal(about.rootFolderId, '0AAsandboxRootFolderUk9PVA');
    assert.equal(sleeps.length, 2);
  });

  it('quotes values for the query language', () => {
    assert.equal(quote("it's"), "'it\\'s'");
    assert.equal(quote('a\\b'), "'a\\\\b'");
  });
});
