import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  defaultFetch,
  observeFetch,
  onRequest,
  type HttpFetch,
  type HttpResponse,
  type RequestEvent,
} from '../../../../src/shared/http';
import { curlVariables, shellWord, toCurl } from '../../../../src/shared/http/curl';
import { detailsText, logLine, RequestLogModel } from '../../../../src/shared/http/requestLog';
import { send } from '../../../../src/generation/core/http';
import { Transport } from '../../../../src/storage/core/transport';
import { WaterClient } from '../../../../src/waterData/core/client';
import { RateLimiter } from '../../../../src/waterData/core/rateLimiter';
import { fetchDirectory } from '../../../../src/discovery/core/directory';
import { exchangeCode } from '../../../../src/storage/core/oauth';

const SECRET = 'sk-live-0123456789abcdef';

function fakeResponse(status: number, text: string, headers: Record<string, string> = {}): HttpResponse {
  const bytes = Buffer.from(text);
  return {
    status,
    ok: status >= 200 && status < 300,
    statusText: status === 200 ? 'OK' : 'Too Many Requests',
    headers: { get: (n: string) => headers[n.toLowerCase()] ?? null },
    body: Readable.from([bytes]),
    text: () => Promise.resolve(text),
    arrayBuffer: () => Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
  };
}

/** Records every event while `fn` runs. */
async function recording(fn: () => Promise<unknown>): Promise<RequestEvent[]> {
  const events: RequestEvent[] = [];
  const stop = onRequest((e) => events.push(e));
  try {
    await fn();
  } finally {
    stop();
  }
  return events;
}

const finals = (events: RequestEvent[]) => events.filter((e) => e.phase !== 'headers');

describe('shared http: the request log sees every call, with no secret in it', () => {
  it('reports headers then done, with redacted URL and headers, status and the size of the body read', async () => {
    const inner: HttpFetch = () =>
      Promise.resolve(fakeResponse(200, '{"ok":true}', { 'content-type': 'application/json' }));
    let clock = 1000;
    const f = observeFetch(inner, () => (clock += 5));
    const events = await recording(async () => {
      const res = await f(`https://api.test/v1/files?key=${SECRET}&q=x`, {
        method: 'post',
        headers: { 'x-goog-api-key': SECRET, authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        body: '{"prompt":"hi"}',
        trace: { feature: 'generation', attempt: 2, wait: { ms: 1500, reason: 'rate-limit' } },
      });
      assert.equal(await res.text(), '{"ok":true}');
    });
    assert.deepEqual(
      events.map((e) => e.phase),
      ['headers', 'done'],
    );
    const done = events[1];
    assert.equal(done.feature, 'generation');
    assert.equal(done.method, 'POST');
    assert.equal(done.url, 'https://api.test/v1/files?key=REDACTED&q=x');
    assert.equal(done.requestHeaders['x-goog-api-key'], 'REDACTED');
    assert.equal(done.requestHeaders.authorization, 'REDACTED');
    assert.equal(done.status, 200);
    assert.equal(done.responseBytes, 11);
    assert.equal(done.retries, 2);
    assert.deepEqual(done.wait, { ms: 1500, reason: 'rate-limit' });
    assert.equal(done.requestBody?.text, '{"prompt":"hi"}');
    // The fake clock advances 5 ms a reading: start, headers, end of the body.
    assert.deepEqual([done.startedAt, events[0].durationMs, done.durationMs], [1005, 5, 10]);
    assert.ok(!JSON.stringify(events).includes(SECRET));
    assert.match(
      logLine(done),
      /^\[Generation\] POST https:\/\/api\.test\/v1\/files\?key=REDACTED&q=x → 200 OK · 11 B · /,
    );
    assert.match(logLine(done), /retry 2, waited 1\.50 s \(rate limit\)/);
    assert.ok(!detailsText(done).includes(SECRET));
  });

  it('keeps request and response headers named __proto__ or constructor in the log', async () => {
    const response = new Headers([
      ['__proto__', 'r1'],
      ['constructor', 'r2'],
      ['content-type', 'text/plain'],
    ]);
    const inner: HttpFetch = () => Promise.resolve({ ...fakeResponse(200, 'x', {}), headers: response });
    const sent = JSON.parse('{"__proto__": "q1", "constructor": "q2"}') as Record<string, string>;
    const events = await recording(async () => {
      await (await observeFetch(inner)('https://api.test/', { headers: sent })).text();
    });
    const done = events[events.length - 1];
    assert.deepEqual(Object.entries(done.requestHeaders), [
      ['__proto__', 'q1'],
      ['constructor', 'q2'],
    ]);
    assert.deepEqual(Object.entries(done.responseHeaders ?? {}), [
      ['__proto__', 'r1'],
      ['constructor', 'r2'],
      ['content-type', 'text/plain'],
    ]);
    assert.match(detailsText(done), /__proto__: q1/);
  });

  it('reports a network failure with its redacted message, and rethrows it unchanged', async () => {
    const boom = Object.assign(new Error(`connect ECONNREFUSED for https://h.test/?access_token=${SECRET}`), {
      code: 'ECONNREFUSED',
    });
    const f = observeFetch(() => Promise.reject(boom));
    let thrown: unknown;
    const events = await recording(() => f('https://h.test/').catch((e: unknown) => (thrown = e)));
    assert.equal(thrown, boom);
    assert.equal(events.length, 1);
    assert.equal(events[0].phase, 'failed');
    assert.equal(events[0].status, undefined);
    assert.match(events[0].error ?? '', /ECONNREFUSED/);
    assert.ok(!JSON.stringify(events).includes(SECRET));
  });

  it('redacts every field of a token request body, the first one included', async () => {
    const f = observeFetch(() => Promise.resolve(fakeResponse(200, '{}')));
    const events = await recording(() =>
      f('https://auth.test/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `code=${SECRET}&code_verifier=${SECRET}x&grant_type=authorization_code&refresh_token=${SECRET}`,
      }),
    );
    assert.equal(
      events[0].requestBody?.text,
      'code=REDACTED&code_verifier=REDACTED&grant_type=authorization_code&refresh_token=REDACTED',
    );
  });

  it('counts a streamed body through the default fetch (a real server), and the stream stays a Node stream', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(70_000));
      res.end('y'.repeat(30_000));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media?upload_id=${SECRET}`;
      let received = 0;
      const events = await recording(async () => {
        const res = await defaultFetch(url);
        assert.ok(res.body instanceof Readable);
        for await (const chunk of res.body) received += (chunk as Buffer).length;
        // The "done" event is sent when the stream ends; let it through.
        await new Promise((r) => setImmediate(r));
      });
      assert.equal(received, 100_000);
      const done = finals(events);
      assert.equal(done.length, 1);
      assert.equal(done[0].phase, 'done');
      assert.equal(done[0].responseBytes, 100_000);
      assert.equal(done[0].feature, 'other');
      assert.ok(done[0].url.endsWith('upload_id=REDACTED'));
    } finally {
      server.close();
    }
  });

  it('costs nothing when nobody listens: the inner response is handed back as is', async () => {
    const res = fakeResponse(200, 'a');
    const f = observeFetch(() => Promise.resolve(res));
    assert.equal(await f('https://x.test/'), res);
  });
});

describe('shared http: every feature labels its calls, retries and waits', () => {
  it('generation: a 429 backoff shows as a rate-limit wait before retry 1', async () => {
    let calls = 0;
    const inner: HttpFetch = () =>
      Promise.resolve(
        calls++ === 0
          ? fakeResponse(429, '{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}')
          : fakeResponse(200, '{}'),
      );
    const events = await recording(() =>
      send(
        {
          baseUrl: 'https://gen.test',
          apiKey: SECRET,
          fetch: observeFetch(inner),
          retry: { initialDelayMs: 7 },
          sleep: () => Promise.resolve(),
        },
        'POST',
        'https://gen.test/v1beta/models/m:generateContent',
        '{}',
      ).then(async (o) => (o.kind === 'response' ? o.response.text() : undefined)),
    );
    const done = finals(events);
    assert.deepEqual(
      done.map((e) => [e.feature, e.status, e.retries, e.wait?.reason]),
      [
        ['generation', 429, 0, undefined],
        ['generation', 200, 1, 'rate-limit'],
      ],
    );
    assert.ok(!JSON.stringify(events).includes(SECRET));
  });

  it('storage: a retry after a 503 shows its backoff', async () => {
    let calls = 0;
    const inner: HttpFetch = () =>
      Promise.resolve(calls++ === 0 ? fakeResponse(503, '{"error":{"code":503}}') : fakeResponse(200, '{}'));
    const t = new Transport({
      baseUrl: 'https://store.test',
      auth: { token: () => SECRET },
      fetch: observeFetch(inner),
      retry: { sleep: () => Promise.resolve(), baseDelayMs: 10, jitter: 0 },
    });
    const events = await recording(() => t.json({ method: 'GET', path: 'files' }));
    const done = finals(events);
    assert.deepEqual(
      done.map((e) => [e.feature, e.status, e.retries, e.wait]),
      [
        ['storage', 503, 0, undefined],
        ['storage', 200, 1, { ms: 10, reason: 'backoff' }],
      ],
    );
    assert.equal(done[1].requestHeaders.authorization, 'REDACTED');
    assert.ok(!JSON.stringify(events).includes(SECRET));
  });

  it("water data: the limiter's spacing shows as a rate-limit wait", async () => {
    const limiter = new RateLimiter({ minIntervalMs: 40 });
    const client = new WaterClient({
      baseUrl: 'https://water.test/v1/odata/v4',
      apiKey: SECRET,
      limiter,
      fetch: observeFetch(() => Promise.resolve(fakeResponse(200, '{"value":[]}'))),
    });
    const events = await recording(async () => {
      await client.get('https://water.test/v1/odata/v4/Locations?$top=1');
      await client.get('https://water.test/v1/odata/v4/Locations?$top=2');
    });
    const done = finals(events);
    assert.deepEqual(
      done.map((e) => [e.feature, e.requestHeaders['x-api-key']]),
      [
        ['waterData', 'REDACTED'],
        ['waterData', 'REDACTED'],
      ],
    );
    assert.equal(done[1].wait?.reason, 'rate-limit');
    assert.ok((done[1].wait?.ms ?? 0) >= 20, `waited ${done[1].wait?.ms} ms`);
  });

  it('discovery and sign-in label their calls', async () => {
    const f = observeFetch((url) =>
      Promise.resolve(
        url.includes('token')
          ? fakeResponse(200, '{"access_token":"a","token_type":"Bearer","expires_in":60}')
          : fakeResponse(200, '{"kind":"discovery#directoryList","items":[]}'),
      ),
    );
    const events = await recording(async () => {
      await fetchDirectory('https://dir.test/discovery/v1/apis', { fetch: f });
      await exchangeCode(
        {
          clientId: 'c',
          authorizationEndpoint: 'https://auth.test/auth',
          tokenEndpoint: 'https://auth.test/token',
          scopes: [],
        },
        SECRET,
        'verifier-0123456789',
        'http://127.0.0.1/cb',
        f,
      );
    });
    assert.deepEqual(
      finals(events).map((e) => e.feature),
      ['discovery', 'sign-in'],
    );
    assert.ok(!JSON.stringify(events).includes(SECRET));
  });
});

describe('shared http: Copy as curl', () => {
  const event = {
    method: 'GET',
    url: 'https://water.test/v1/odata/v4/Records?$top=5&$filter=Name%20eq%20%27it%27s%27&key=REDACTED',
    requestHeaders: { 'x-api-key': 'REDACTED', accept: 'application/json', 'content-length': '0' },
  };

  it('puts each credential as a shell variable and quotes the rest literally ($top is not expanded)', () => {
    const cmd = toCurl(event);
    assert.equal(
      cmd,
      [
        '# Set $API_KEY first (never pasted here).',
        "curl \\\n  -H 'x-api-key: '\"$API_KEY\" \\\n  -H 'accept: application/json' \\\n  " +
          '\'https://water.test/v1/odata/v4/Records?$top=5&$filter=Name%20eq%20%27it%27s%27&key=\'"$API_KEY"',
      ].join('\n'),
    );
    assert.deepEqual(curlVariables(cmd), ['API_KEY']);
    assert.ok(!cmd.includes('REDACTED'));
  });

  it('sends a bearer token as $ACCESS_TOKEN and a form body with its credential fields as variables', () => {
    const cmd = toCurl({
      method: 'POST',
      url: 'https://auth.test/token',
      requestHeaders: { authorization: 'REDACTED', 'content-type': 'application/x-www-form-urlencoded' },
      requestBody: {
        text: 'grant_type=refresh_token&refresh_token=REDACTED',
        contentType: 'application/x-www-form-urlencoded',
      },
    });
    assert.match(cmd, /-H 'authorization: Bearer '"\$ACCESS_TOKEN"/);
    assert.match(cmd, /--data-raw 'grant_type=refresh_token&refresh_token='"\$REFRESH_TOKEN"/);
    assert.match(cmd, /-X POST/);
    assert.deepEqual(curlVariables(cmd), ['ACCESS_TOKEN', 'REFRESH_TOKEN']);
  });

  it('names a file for a body that was not kept (a streamed upload)', () => {
    const cmd = toCurl({
      method: 'PUT',
      url: 'https://store.test/upload?upload_id=REDACTED',
      requestHeaders: {},
      requestBody: { note: 'streamed body' },
    });
    assert.match(cmd, /# The request body \(streamed body\) is read from \.\/body\.bin/);
    assert.match(cmd, /--data-binary @body\.bin/);
    assert.match(cmd, /upload_id='"\$UPLOAD_ID"/);
  });

  it('quotes a word that is only literal text', () => {
    assert.equal(shellWord(''), "''");
    assert.equal(shellWord("a'b"), "'a'\\''b'");
  });
});

describe('shared http: the request log model', () => {
  const ev = (id: number, phase: RequestEvent['phase'] = 'done'): RequestEvent => ({
    id,
    phase,
    feature: 'storage',
    method: 'GET',
    url: `https://s.test/${id}`,
    requestHeaders: {},
    startedAt: 0,
    durationMs: 1,
    retries: 0,
  });

  it('keeps the newest first, updates a call in place, drops the oldest past the cap, and clears', () => {
    const m = new RequestLogModel(3);
    const seen: (number | undefined)[] = [];
    m.onChange((e) => seen.push(e?.id));
    m.add(ev(1, 'headers'));
    m.add(ev(2));
    m.add(ev(1, 'done'));
    assert.deepEqual(
      m.items.map((e) => [e.id, e.phase]),
      [
        [2, 'done'],
        [1, 'done'],
      ],
    );
    m.add(ev(3));
    m.add(ev(4));
    assert.deepEqual(
      m.items.map((e) => e.id),
      [4, 3, 2],
    );
    m.clear();
    assert.equal(m.items.length, 0);
    assert.deepEqual(seen, [1, 2, 1, 3, 4, undefined]);
  });
});
