// Hostile input against the storage emulator and the sandbox server: every bad request gets a 4xx in
// the service's error shape (never a 5xx), foreign Host headers are refused, and upload-session URLs
// are no bearer credentials.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { startStorage, type Harness } from './emulatorHarness';
import type { ErrorBody, File } from '../../../src/shared/wire/storage';
import { parseAs } from '../../support/typedJson';

/** `json` is the body in the shape the test expects (an error unless it says otherwise); `undefined` if not JSON. */
interface Answer<T = ErrorBody> {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: T;
}

/** Raw node:http request, so Host and malformed paths go out exactly as written. */
function raw<T = ErrorBody>(
  origin: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer<T>> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method, path, headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: T | undefined;
          try {
            json = parseAs<T>(text);
          } catch {
            json = undefined;
          }
          // Tests read `json` only where they expect a JSON body; assertDriveError checks it is there.
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: json as T });
        });
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

function assertDriveError(a: Answer, status: number): void {
  assert.equal(a.status, status, a.text);
  assert.equal((a.json as ErrorBody | undefined)?.error?.code, status, a.text);
  assert.equal(typeof a.json.error.message, 'string');
  assert.ok(Array.isArray(a.json.error.errors) && typeof a.json.error.errors[0].reason === 'string', a.text);
}

describe('sandbox storage: hostile input gets a 4xx in the Drive error shape', () => {
  let sb: RunningSandbox;
  let auth: Record<string, string>;
  before(async () => {
    sb = await startSandbox();
    auth = { authorization: `Bearer ${sb.accessToken}` };
  });
  after(() => sb.close());

  it('bad % escapes in ids → 400', async () => {
    for (const path of [
      '/store/v2/files/%E0%A4%A',
      '/store/v2/files/%ZZ/children',
      '/store/v2/files/root/permissions/%C3',
    ]) {
      assertDriveError(await raw(sb.url, 'GET', path, { headers: auth }), 400);
    }
  });

  it('ids named constructor / __proto__ / toString → 404, never 500', async () => {
    for (const id of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      assertDriveError(await raw(sb.url, 'GET', `/store/v2/files/${id}`, { headers: auth }), 404);
      assertDriveError(await raw(sb.url, 'GET', `/store/v2/drives/${id}`, { headers: auth }), 404);
      const child = await raw(sb.url, 'POST', '/store/v2/files/root/children', {
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ id }),
      });
      assertDriveError(child, 404);
    }
  });

  it('q terms named constructor / __proto__ → 400 invalid query', async () => {
    for (const q of ["constructor = 'x'", "__proto__ = 'x'", "toString contains 'x'", 'valueOf = true']) {
      const a = await raw(sb.url, 'GET', `/store/v2/files?q=${encodeURIComponent(q)}`, { headers: auth });
      assertDriveError(a, 400);
      assert.equal(a.json.error.errors[0].location, 'q');
    }
  });

  it('q nested thousands of parentheses or not deep → 400 invalid query, never a stack overflow', async () => {
    // Each fits a URL the server accepts (16 KiB of header); the recursive parser overflowed the stack on the first.
    for (const q of ['('.repeat(3000) + 'starred = true' + ')'.repeat(3000), 'not '.repeat(2000) + 'starred = true']) {
      const a = await raw(sb.url, 'GET', `/store/v2/files?q=${encodeURIComponent(q)}`, { headers: auth });
      assertDriveError(a, 400);
      assert.equal(a.json.error.errors[0].location, 'q');
    }
  });

  it('members of the wrong type → 400 naming the member', async () => {
    const post = (path: string, body: unknown) =>
      raw(sb.url, 'POST', path, {
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const cases: [string, unknown, string][] = [
      ['/store/v2/files', { title: 'x', parents: 'abc' }, 'parents'],
      ['/store/v2/files', { title: 'x', parents: [5] }, 'parents[0]'],
      ['/store/v2/files', { title: 'x', labels: 'starred' }, 'labels'],
      ['/store/v2/files', { title: 'x', labels: { starred: 'yes' } }, 'labels.starred'],
      ['/store/v2/files', { title: 7 }, 'title'],
      ['/store/v2/drives?requestId=r1', { name: 5 }, 'name'],
      ['/store/v2/files/root/permissions', { role: ['reader'], type: 'anyone' }, 'role'],
    ];
    for (const [path, body, location] of cases) {
      const a = await post(path, body);
      assertDriveError(a, 400);
      assert.equal(a.json.error.errors[0].location, location, a.text);
    }
    assertDriveError(await post('/store/v2/files', [1, 2]), 400);
    assertDriveError(await post('/store/v2/files', 'text'), 400);
    // Nulls mean "unset", as in the real API.
    const ok = await post('/store/v2/files', { title: 'null members', parents: null, description: null });
    assert.equal(ok.status, 200, ok.text);
  });

  it('a metadata body over 64 MiB → 413 (storage), and 413 for the generation emulator too', async () => {
    const big = 64 * 1024 * 1024 + 1;
    const storage = await raw(sb.url, 'POST', '/store/v2/files', {
      headers: { ...auth, 'content-type': 'application/json', 'content-length': String(big) },
    }).catch((e: Error) => e);
    if (storage instanceof Error) assert.fail(String(storage));
    assertDriveError(storage, 413);
    const gen = await raw(sb.url, 'POST', `/v1beta/models/gemini-2.5-flash:generateContent?key=${sb.apiKey}`, {
      headers: { 'content-type': 'application/json', 'content-length': String(big) },
    }).catch((e: Error) => e);
    if (gen instanceof Error) assert.fail(String(gen));
    assert.equal(gen.status, 413, gen.text);
    assert.equal(gen.json.error.code, 413);
  });

  it('a streamed (chunked) JSON body over 64 MiB → 413 without holding it all', async () => {
    const u = new URL(sb.url);
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          method: 'PATCH',
          path: '/store/v2/files/root',
          headers: { ...auth, 'content-type': 'application/json' },
          agent: false,
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseAs<ErrorBody>(text) }),
          );
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 70) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      req.on('response', () => (sent = 70));
      pump();
    });
    assertDriveError(answer, 413);
  });
});

describe('sandbox server: Host header check (DNS rebinding)', () => {
  let sb: RunningSandbox;
  before(async () => {
    sb = await startSandbox({ allowedHosts: ['workbench.test'] });
  });
  after(() => sb.close());

  it('answers loopback names on its port, and configured names', async () => {
    const port = new URL(sb.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      `workbench.test:${port}`,
      // a local reverse proxy (code-server, port forwarding) keeps its own loopback Host and port
      'localhost:1',
      '127.0.0.1:8080',
    ]) {
      const a = await raw(sb.url, 'GET', '/store/v2/about?fields=kind', {
        headers: { host, authorization: `Bearer ${sb.accessToken}` },
      });
      assert.equal(a.status, 200, `${host}: ${a.text}`);
    }
  });

  it('refuses any other Host with 421 and a clear body', async () => {
    const port = new URL(sb.url).port;
    for (const host of [
      `evil.example:${port}`,
      'localhost.evil.example:1',
      `127.0.0.1.evil.example:${port}`,
      'evil.example',
    ]) {
      const a = await raw(sb.url, 'GET', '/store/v2/about', {
        headers: { host, authorization: `Bearer ${sb.accessToken}` },
      });
      assert.equal(a.status, 421, `${host}: ${a.text}`);
      assert.match(a.json.error.message, /Host header/);
      assert.equal(a.json.error.code, 421);
    }
  });
});

describe('sandbox storage: upload sessions are bound to the token that opened them', () => {
  let h: Harness;
  before(async () => {
    h = await startStorage();
    // A second client of the same sandbox, as if signed in through its OAuth server.
    const accepts = h.emulator.service.oauth.accepts.bind(h.emulator.service.oauth);
    h.emulator.service.oauth.accepts = (t) => t === 'second-client-token' || accepts(t);
  });
  after(() => h.close());

  it('a chunk without a token → 401; with another valid token → 404; with its own → stored', async () => {
    const open = await h.call('POST', '/upload/store/v2/files?uploadType=resumable', {
      body: { title: 'bound.txt' },
      headers: { 'x-upload-content-type': 'text/plain' },
    });
    assert.equal(open.status, 200, open.text);
    const location = new URL(String(open.headers.get('location')));
    const session = location.pathname + location.search;
    const noToken = await raw(h.origin, 'PUT', session, { headers: { 'content-range': 'bytes 0-4/5' }, body: 'hello' });
    assertDriveError(noToken, 401);
    const foreign = await raw(h.origin, 'PUT', session, {
      headers: { authorization: 'Bearer second-client-token', 'content-range': 'bytes 0-4/5' },
      body: 'hello',
    });
    assertDriveError(foreign, 404);
    const own = await raw<File>(h.origin, 'PUT', session, {
      headers: { authorization: `Bearer ${h.token}`, 'content-range': 'bytes 0-4/5' },
      body: 'hello',
    });
    assert.equal(own.status, 201, own.text);
    assert.equal(own.json.title, 'bound.txt');
  });
});

describe('sandbox server: keep-alive like a real front end, clean close', () => {
  it('keeps idle connections for minutes (not 5 s), and close() ends them at once', async () => {
    const sb = await startSandbox();
    assert.ok(sb.server.keepAliveTimeout >= 60_000, `keepAliveTimeout ${sb.server.keepAliveTimeout} ms`);
    assert.ok(sb.server.headersTimeout > sb.server.keepAliveTimeout, 'headersTimeout must outlast keepAliveTimeout');
    const agent = new http.Agent({ keepAlive: true });
    const u = new URL(sb.url);
    const sockets = new Set<import('node:net').Socket>();
    const get = () =>
      new Promise<boolean>((resolve, reject) => {
        const req = http.request(
          {
            host: u.hostname,
            port: u.port,
            path: '/store/v2/about?fields=kind',
            agent,
            headers: { authorization: `Bearer ${sb.accessToken}` },
          },
          (res) => {
            sockets.add(res.socket);
            res.resume();
            res.on('end', () => resolve(req.reusedSocket));
          },
        );
        req.on('error', reject);
        req.end();
      });
    assert.equal(await get(), false);
    assert.equal(await get(), true, 'the second call reuses the pooled connection');
    assert.equal(sockets.size, 1);
    const [socket] = sockets;
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    assert.equal(socket.destroyed, false, 'the idle connection is still open before close()');
    // close() ends the idle connection itself instead of waiting minutes for its keep-alive to lapse: the
    // client sees it closed by the server (a close() that waited would fail this test by its timeout).
    await sb.close();
    await ended;
    agent.destroy();
  });
});
