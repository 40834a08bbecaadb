// End to end through each feature's core against real loopback servers on two ports (two origins):
// no credential is forwarded to another origin on a redirect, and no error message holds one.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchDirectory } from '../../../../src/discovery/core/directory';
import { generateContent, streamGenerateContent } from '../../../../src/generation/core';
import { StorageClient } from '../../../../src/storage/core/client';
import { bufferSource, uploadResumable } from '../../../../src/storage/core/upload';
import { WaterClient } from '../../../../src/waterData/core/client';
import { RateLimiter } from '../../../../src/waterData/core/rateLimiter';

const KEY = 'AIzaSECRETkey0123456789';
const TOKEN = 'ya29.SECRETtoken0123456789';
const UPLOAD_ID = 'SECRETsession0123456789';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ origin: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A port nothing listens on: connections are refused. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function carries(seen: Seen[], secret: string): boolean {
  return seen.some((s) => s.url.includes(secret) || Object.values(s.headers).some((v) => String(v).includes(secret)));
}

describe('shared http: no credential leaves its origin or reaches a message', () => {
  let other: Awaited<ReturnType<typeof listen>>;
  let redirector: Awaited<ReturnType<typeof listen>>;
  let loop: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    other = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"value":[]}');
    });
    // Sends every request on to the other origin, keeping the method (307).
    redirector = await listen((req, res) => {
      res.writeHead(307, { location: `${other.origin}${req.url}` });
      res.end();
    });
    // Redirects to itself forever.
    loop = await listen((req, res) => {
      res.writeHead(302, { location: req.url ?? '/' });
      res.end();
    });
  });
  after(async () => {
    await Promise.all([other.close(), redirector.close(), loop.close()]);
  });
  beforeEach(() => {
    other.seen.length = 0;
  });

  it('generation: the x-goog-api-key header is not forwarded to another origin', async () => {
    await generateContent({
      baseUrl: redirector.origin,
      apiKey: KEY,
      model: 'models/m',
      request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      retry: { maxAttempts: 1 },
    });
    assert.ok(other.seen.length > 0, 'the redirect was followed');
    assert.ok(!carries(other.seen, KEY), 'the key reached the other origin');
  });

  it('generation: the key in the query is not forwarded to another origin', async () => {
    await generateContent({
      baseUrl: redirector.origin,
      apiKey: KEY,
      keyInQuery: true,
      model: 'models/m',
      request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      retry: { maxAttempts: 1 },
    });
    assert.ok(!carries(other.seen, KEY), 'the key reached the other origin');
  });

  it('generation: a redirect loop with the key in the query gives an error without the key', async () => {
    const r = await streamGenerateContent({
      baseUrl: loop.origin,
      apiKey: KEY,
      keyInQuery: true,
      model: 'models/m',
      request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      retry: { maxAttempts: 1 },
    });
    assert.ok(r.error, 'an error is reported');
    assert.ok(!JSON.stringify(r.error).includes(KEY), `the error holds the key: ${r.error.message}`);
  });

  it('generation: a refused connection with the key in the query gives an error without the key', async () => {
    const port = await closedPort();
    const r = await streamGenerateContent({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      keyInQuery: true,
      model: 'models/m',
      request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      retry: { maxAttempts: 1 },
    });
    assert.ok(r.error);
    assert.ok(!JSON.stringify(r.error).includes(KEY), `the error holds the key: ${r.error.message}`);
  });

  it('water data: the x-api-key header is not forwarded to another origin', async () => {
    const client = new WaterClient({
      baseUrl: `${redirector.origin}/v1/odata/v4`,
      apiKey: KEY,
      limiter: new RateLimiter({ minIntervalMs: 0 }),
    });
    await client.get(`${redirector.origin}/v1/odata/v4/Locations`).catch(() => undefined);
    assert.ok(other.seen.length > 0, 'the redirect was followed');
    assert.ok(!carries(other.seen, KEY), 'the key reached the other origin');
  });

  it('storage: the bearer token is not forwarded to another origin', async () => {
    const client = new StorageClient({
      baseUrl: redirector.origin,
      auth: { token: () => TOKEN },
      retry: { maxRetries: 0 },
    });
    await client.transport.send({ method: 'GET', path: 'about' }).catch(() => undefined);
    assert.ok(other.seen.length > 0, 'the redirect was followed');
    assert.ok(!carries(other.seen, TOKEN), 'the token reached the other origin');
  });

  it('storage: a resumable upload that loses its session server gives an error without the upload_id', async () => {
    const port = await closedPort();
    const api = await listen((_req, res) => {
      res.writeHead(200, {
        location: `http://127.0.0.1:${port}/upload/store/v2/files?uploadType=resumable&upload_id=${UPLOAD_ID}`,
      });
      res.end();
    });
    try {
      const client = new StorageClient({ baseUrl: api.origin, auth: { token: () => TOKEN }, retry: { maxRetries: 0 } });
      const err = await uploadResumable(client, bufferSource(Buffer.alloc(1000, 1)), { metadata: { title: 'x' } }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      assert.ok(err, 'the upload failed');
      const all = `${err.message}\n${err.stack ?? ''}\n${String((err as { cause?: { message?: string } }).cause?.message ?? '')}`;
      assert.ok(!all.includes(UPLOAD_ID), `the error holds the session id: ${err.message}`);
    } finally {
      await api.close();
    }
  });

  it('discovery directory: a redirect loop with a key in the URL gives an error without the key', async () => {
    const err = await fetchDirectory(`${loop.origin}/discovery/v1/apis?key=${KEY}`).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    assert.ok(err);
    assert.ok(!err.message.includes(KEY), `the error holds the key: ${err.message}`);
  });
});
