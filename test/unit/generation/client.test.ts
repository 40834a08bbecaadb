// The streaming client end to end against the emulator, plus injected fetches for shapes the
// emulator does not produce (HTML pages, error bodies labelled text/event-stream).
import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import {
  candidateText,
  countTokens,
  generateContent,
  listModels,
  streamGenerateContent,
} from '../../../src/generation/core';
import { defaultFetch, type HttpFetch } from '../../../src/shared/http';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

// [[fast]]: no pause between chunks unless a test asks for one.
const ask = (text: string) => ({
  contents: [{ role: 'user', parts: [{ text: /\[\[(slow|reset)/.test(text) ? text : `${text} [[fast]]` }] }],
});

function recordingFetch(seen: { url: string; headers: Record<string, string> }[]): HttpFetch {
  return (url, init) => {
    seen.push({ url, headers: init?.headers ?? {} });
    return defaultFetch(url, init);
  };
}

function fakeResponse(status: number, contentType: string, body: string): HttpFetch {
  return () =>
    Promise.resolve({
      ok: status >= 200 && status < 300,
      status,
      statusText: 'X',
      headers: { get: (n: string) => (n.toLowerCase() === 'content-type' ? contentType : null) },
      body: Readable.from([Buffer.from(body)]),
      text: () => Promise.resolve(body),
      arrayBuffer: () => Promise.resolve(new TextEncoder().encode(body).buffer),
    });
}

describe('generation client', () => {
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());
  const base = () => ({ baseUrl: s.origin, apiKey: s.apiKey, model: 'models/gemini-2.5-flash' });

  it('streams chunks to the listener with a growing aggregate, and ends complete', async () => {
    const seen: string[] = [];
    const r = await streamGenerateContent({ ...base(), request: ask('Tell me about SSE') }, (chunk, agg) => {
      seen.push(candidateText(agg.candidates?.[0]));
      assert.ok(chunk.candidates);
    });
    assert.equal(r.error, null);
    assert.equal(r.aborted, false);
    assert.equal(r.incomplete, false);
    assert.ok(seen.length >= 4);
    for (let i = 1; i < seen.length; i++)
      assert.ok(seen[i].startsWith(seen[i - 1]) && seen[i].length > seen[i - 1].length);
    assert.equal(candidateText(r.response.candidates![0]), seen[seen.length - 1]);
    assert.equal(r.response.candidates![0].finishReason, 'STOP');
  });

  it('sends the key in x-goog-api-key by default, in ?key= only when asked', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    await streamGenerateContent({ ...base(), fetch: recordingFetch(seen), request: ask('hi [[fast]]') });
    assert.ok(!seen[0].url.includes(s.apiKey));
    assert.equal(seen[0].headers['x-goog-api-key'], s.apiKey);
    const r = await streamGenerateContent({
      ...base(),
      keyInQuery: true,
      fetch: recordingFetch(seen),
      request: ask('hi [[fast]]'),
    });
    assert.equal(r.error, null);
    assert.ok(seen[1].url.includes(`key=${s.apiKey}`));
    assert.equal(seen[1].headers['x-goog-api-key'], undefined);
  });

  it('stops when aborted: no more chunks, aborted result, partial text kept', async () => {
    const ctl = new AbortController();
    let chunks = 0;
    const r = await streamGenerateContent(
      { ...base(), signal: ctl.signal, request: ask('a long one [[long:200]] [[slow:20]]') },
      () => {
        if (++chunks === 3) ctl.abort();
      },
    );
    assert.equal(r.aborted, true);
    assert.equal(r.incomplete, true);
    assert.equal(r.error, null);
    assert.ok(r.chunks >= 3 && r.chunks < 10, `stopped early, saw ${r.chunks}`);
    assert.match(candidateText(r.response.candidates![0]), /^Line 1 of 200/);
  });

  it('reports a raw mid-stream error with code/status/message and keeps the text so far', async () => {
    const r = await streamGenerateContent({ ...base(), request: ask('hello [[midstream-error]] [[fast]]') });
    assert.deepEqual(
      [r.error?.code, r.error?.status, r.error?.message],
      [503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'],
    );
    assert.equal(r.error?.phase, 'stream');
    assert.equal(r.chunks, 2);
    assert.ok(candidateText(r.response.candidates![0]).length > 0);
    assert.equal(r.incomplete, true);
  });

  it('marks a reset connection as incomplete with an error', async () => {
    const r = await streamGenerateContent({ ...base(), request: ask('hello [[reset]]'), retry: { maxAttempts: 1 } });
    assert.equal(r.incomplete, true);
    assert.equal(r.error?.status, 'UNAVAILABLE');
    assert.equal(r.chunks, 2);
  });

  it('reports auth errors with their reason and does not retry them', async () => {
    const r = await streamGenerateContent({ ...base(), apiKey: 'wrong', request: ask('hi') });
    assert.equal(r.error?.code, 400);
    assert.equal(r.error?.reason, 'API_KEY_INVALID');
    assert.equal(r.attempts, 1);
  });

  it('retries a 429 after the RetryInfo delay and succeeds', async () => {
    const waits: number[] = [];
    const r = await streamGenerateContent({
      ...base(),
      request: ask('hi [[flaky:2]] [[fast]]'),
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    assert.equal(r.error, null);
    assert.equal(r.attempts, 3);
    assert.deepEqual(waits, [50, 50]);
  });

  it('does not retry a per-day quota 429', async () => {
    const waits: number[] = [];
    const r = await streamGenerateContent({
      ...base(),
      request: ask('hi [[quota-day]]'),
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    assert.equal(r.error?.code, 429);
    assert.equal(r.error?.perDayQuota, true);
    assert.equal(r.attempts, 1);
    assert.deepEqual(waits, []);
  });

  it('retries 503 with exponential backoff, then gives up with the error', async () => {
    const waits: number[] = [];
    const r = await streamGenerateContent({
      ...base(),
      request: ask('hi [[503]]'),
      retry: { maxAttempts: 3, initialDelayMs: 100 },
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    assert.equal(r.error?.code, 503);
    assert.equal(r.attempts, 3);
    assert.equal(waits.length, 2);
    assert.ok(waits[0] >= 80 && waits[0] <= 120 && waits[1] >= 160 && waits[1] <= 240, String(waits));
  });

  it('reads the JSON-array framing to the same result as SSE', async () => {
    const a = await streamGenerateContent({ ...base(), request: ask('same [[fast]] [[cite]]') });
    const b = await streamGenerateContent({ ...base(), framing: 'json', request: ask('same [[fast]] [[cite]]') });
    assert.equal(b.error, null);
    assert.deepEqual(b.response, a.response);
  });

  it('does not trust the content type: an error body labelled text/event-stream', async () => {
    const body = JSON.stringify(
      { error: { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' } },
      null,
      2,
    );
    const r = await streamGenerateContent({
      ...base(),
      fetch: fakeResponse(404, 'text/event-stream', body),
      request: ask('x'),
    });
    assert.equal(r.error?.status, 'NOT_FOUND');
    assert.equal(r.error?.message, 'models/x is not found');
  });

  it('explains an HTML page instead of the API', async () => {
    const r = await streamGenerateContent({
      ...base(),
      fetch: fakeResponse(404, 'text/html', '<!DOCTYPE html><html><body>404. That’s an error.</body></html>'),
      request: ask('x'),
    });
    assert.equal(r.error?.code, 404);
    assert.match(r.error.message, /HTML page/);
  });

  it('reports a 200 body of HTML or wrong-shaped JSON as a stream error, not a crash', async () => {
    const html = await streamGenerateContent({
      ...base(),
      fetch: fakeResponse(200, 'text/html', '<html>\n<body>hi</body>\n</html>\n'),
      request: ask('x'),
    });
    assert.equal(html.error?.status, 'DATA_LOSS');
    const wrong = await streamGenerateContent({
      ...base(),
      fetch: fakeResponse(
        200,
        'text/event-stream',
        'data: [1,2]\r\n\r\ndata: {"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"FAKE_REASON","index":0,"extra":1}]}\r\n\r\n',
      ),
      request: ask('x'),
    });
    assert.equal(wrong.error?.status, 'DATA_LOSS');
    assert.equal(wrong.response.candidates![0].finishReason, 'FAKE_REASON');
    assert.equal(wrong.response.candidates![0].extra, 1);
  });

  it('calls generateContent, countTokens and models.list', async () => {
    const u = await generateContent({ ...base(), request: ask('unary please') });
    assert.match(candidateText((u.response as GenerateContentResponse).candidates![0]), /unary please/);
    const c = await countTokens({
      ...base(),
      request: { contents: [{ role: 'user', parts: [{ text: 'one two three' }] }] },
    });
    assert.equal(c.value?.totalTokens, 3);
    const m = await listModels({ baseUrl: s.origin, apiKey: s.apiKey, generateOnly: true, pageSize: 2 });
    assert.equal(m.error, null);
    assert.ok(m.models.some((x) => x.name === 'tunedModels/sandbox-support-bot'));
    assert.ok(!m.models.some((x) => x.name === 'models/text-embedding-004'));
  });
});
