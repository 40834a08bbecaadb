// The emulator as a client on the wire sees it: key checks, error bodies, byte-level framing.
import * as assert from 'node:assert/strict';
import type { ErrorBody, GenerateContentResponse } from '../../../src/shared/wire/generation';
import { parseAs } from '../../support/typedJson';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

const PROMPT = { contents: [{ role: 'user', parts: [{ text: 'Explain streams in two words' }] }] };

async function post(s: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(s.origin + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-fault': 'fast', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('generation emulator', () => {
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());
  const stream = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse';

  it('rejects a missing key with 403 PERMISSION_DENIED', async () => {
    const r = await post(s, stream, PROMPT);
    assert.equal(r.status, 403);
    const body = (await r.json()) as { error: { code: number; status: string; message: string } };
    assert.equal(body.error.code, 403);
    assert.equal(body.error.status, 'PERMISSION_DENIED');
    assert.match(body.error.message, /unregistered callers/);
  });

  it('rejects a wrong key with 400 API_KEY_INVALID, labelled text/event-stream on an SSE request', async () => {
    const r = await post(s, stream, PROMPT, { 'x-goog-api-key': 'nope' });
    assert.equal(r.status, 400);
    assert.equal(r.headers.get('content-type'), 'text/event-stream');
    const text = await r.text();
    assert.match(text, /^\{\n {2}"error": \{\n {4}"code": 400,/, 'pretty-printed with 2-space indent');
    const body = parseAs<ErrorBody>(text);
    assert.equal(body.error.status, 'INVALID_ARGUMENT');
    assert.equal(body.error.details?.[0]['@type'], 'type.googleapis.com/google.rpc.ErrorInfo');
    assert.equal(body.error.details[0].reason, 'API_KEY_INVALID');
  });

  it('accepts the key in x-goog-api-key and in ?key=', async () => {
    const a = await post(s, stream, PROMPT, { 'x-goog-api-key': s.apiKey });
    const b = await post(s, `${stream}&key=${s.apiKey}`, PROMPT);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal(await a.text(), await b.text(), 'deterministic: same prompt, same bytes');
  });

  it('frames SSE like the recordings: data: + one-line JSON + CRLF CRLF, cumulative usage, finishReason last', async () => {
    const r = await post(s, stream, PROMPT, { 'x-goog-api-key': s.apiKey });
    assert.equal(r.headers.get('content-type'), 'text/event-stream');
    assert.equal(r.headers.get('content-disposition'), 'attachment');
    assert.equal(r.headers.get('content-length'), null);
    const text = await r.text();
    assert.ok(text.endsWith('\r\n\r\n'));
    const events = text.slice(0, -4).split('\r\n\r\n');
    assert.ok(events.length >= 4, `several chunks, got ${events.length}`);
    let prevTotal = 0;
    let joined = '';
    events.forEach((e, i) => {
      assert.ok(e.startsWith('data: '));
      assert.ok(!e.includes('\n'), 'one line per event');
      const chunk = parseAs<GenerateContentResponse>(e.slice(6));
      const c = chunk.candidates?.[0];
      assert.ok(c?.content?.parts?.[0].text !== undefined, 'every chunk carries text');
      joined += c.content.parts[0].text;
      const total = chunk.usageMetadata?.totalTokenCount ?? 0;
      assert.ok(total > prevTotal, 'usage is a growing running total');
      prevTotal = total;
      assert.equal(chunk.modelVersion, 'gemini-2.5-flash');
      assert.equal(c.finishReason, i === events.length - 1 ? 'STOP' : undefined);
    });
    assert.match(joined, /Explain streams in two words/);
    assert.match(joined, /```js\n/);
  });

  it('answers generateContent with one response holding the same text', async () => {
    const sse = await (await post(s, stream, PROMPT, { 'x-goog-api-key': s.apiKey })).text();
    const joined = sse
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((e) => parseAs<GenerateContentResponse>(e.slice(6)).candidates?.[0].content?.parts?.[0].text)
      .join('');
    const r = await post(s, '/v1beta/models/gemini-2.5-flash:generateContent', PROMPT, { 'x-goog-api-key': s.apiKey });
    assert.equal(r.status, 200);
    const body = (await r.json()) as { candidates: { content: { parts: { text: string }[] }; finishReason: string }[] };
    assert.equal(body.candidates[0].content.parts[0].text, joined);
    assert.equal(body.candidates[0].finishReason, 'STOP');
  });

  it('streams a JSON array without alt=sse', async () => {
    const r = await post(s, '/v1beta/models/gemini-2.5-flash:streamGenerateContent', PROMPT, {
      'x-goog-api-key': s.apiKey,
    });
    const text = await r.text();
    assert.ok(text.startsWith('[{'));
    assert.ok(text.includes('\n,\r\n{'));
    assert.ok(text.endsWith('\n]'));
    assert.ok(parseAs<GenerateContentResponse[]>(text).length >= 4);
  });

  it('404s an unknown model with the ListModels hint', async () => {
    const r = await post(s, '/v1beta/models/gemini-9:streamGenerateContent?alt=sse', PROMPT, {
      'x-goog-api-key': s.apiKey,
    });
    assert.equal(r.status, 404);
    const body = (await r.json()) as { error: { message: string; status: string } };
    assert.equal(body.error.status, 'NOT_FOUND');
    assert.match(body.error.message, /^models\/gemini-9 is not found for API version v1beta.*Call ListModels/);
  });

  it('400s each violated rule in one INVALID_ARGUMENT', async () => {
    const r = await post(
      s,
      '/v1beta/models/gemini-2.5-flash:generateContent',
      {
        ...PROMPT,
        generationConfig: {
          stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'],
          candidateCount: 2,
          temperature: 3,
          responseSchema: { type: 'STRING' },
        },
        safetySettings: [
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_VIOLENCE', threshold: 'BLOCK_NONE' },
        ],
      },
      { 'x-goog-api-key': s.apiKey },
    );
    assert.equal(r.status, 400);
    const { error } = (await r.json()) as { error: { status: string; message: string } };
    assert.equal(error.status, 'INVALID_ARGUMENT');
    for (const field of [
      'stop_sequences',
      'candidate_count',
      'temperature',
      'response_mime_type',
      'safety_settings[1]',
      'safety_settings[2].category',
    ]) {
      assert.ok(error.message.includes(field), `${field} named in ${error.message}`);
    }
  });

  it('a null element of a list anywhere in the request → 400 INVALID_ARGUMENT naming it, never a 500', async () => {
    const hi = { role: 'user', parts: [{ text: 'hi' }] };
    const cases: [unknown, string][] = [
      [{ contents: [null] }, 'contents[0]'],
      [{ contents: [{ role: 'user', parts: [null] }] }, 'contents[0].parts[0]'],
      [{ contents: [hi], tools: [null] }, 'tools[0]'],
      [{ contents: [hi], tools: [{ functionDeclarations: [null] }] }, 'tools[0].functionDeclarations[0]'],
      [{ contents: [hi], safetySettings: [null] }, 'safetySettings[0]'],
      [{ contents: [hi], generationConfig: { stopSequences: [null] } }, 'generationConfig.stopSequences[0]'],
      [{ contents: [hi], systemInstruction: { parts: [null] } }, 'systemInstruction.parts[0]'],
    ];
    for (const method of ['generateContent', 'streamGenerateContent?alt=sse', 'countTokens'])
      for (const [body, where] of cases) {
        const r = await post(s, `/v1beta/models/gemini-2.5-flash:${method}`, body, { 'x-goog-api-key': s.apiKey });
        const text = await r.text();
        assert.equal(r.status, 400, `${method} ${JSON.stringify(body)}: ${text}`);
        const error = parseAs<ErrorBody>(text).error;
        assert.equal(error?.status, 'INVALID_ARGUMENT');
        assert.ok(error?.message.includes(`'${where}'`), `${where} in ${error?.message}`);
      }
  });

  it('a member or element of the wrong JSON type anywhere → 400 INVALID_ARGUMENT naming it, never a 500', async () => {
    const hi = { role: 'user', parts: [{ text: 'hi' }] };
    const cases: [unknown, string][] = [
      [{ contents: 5 }, 'contents'],
      [{ contents: [5] }, 'contents[0]'],
      [{ contents: [{ role: 'user', parts: 'hi' }] }, 'contents[0].parts'],
      [{ contents: [{ role: 'user', parts: [{ text: 7 }] }] }, 'contents[0].parts[0].text'],
      [{ contents: [hi], tools: 'x' }, 'tools'],
      [{ contents: [hi], tools: [{ functionDeclarations: {} }] }, 'tools[0].functionDeclarations'],
      [{ contents: [hi], generation_config: { temperature: 'hot' } }, 'generationConfig.temperature'],
      [{ contents: [hi], systemInstruction: { parts: [[]] } }, 'systemInstruction.parts[0]'],
      [{ contents: [hi], safetySettings: [{ category: 5 }] }, 'safetySettings[0].category'],
    ];
    // countTokens takes the contents (the first four cases); generateContent all of them.
    for (const [method, n] of [
      ['generateContent', cases.length],
      ['countTokens', 4],
    ] as const)
      for (const [body, where] of cases.slice(0, n)) {
        const r = await post(s, `/v1beta/models/gemini-2.5-flash:${method}`, body, { 'x-goog-api-key': s.apiKey });
        const text = await r.text();
        assert.equal(r.status, 400, `${method} ${JSON.stringify(body)}: ${text}`);
        assert.ok(parseAs<ErrorBody>(text).error?.message.includes(`'${where}'`), `${where} in ${text}`);
      }
  });

  it('rejects unknown fields and malformed JSON like the service', async () => {
    const a = await post(
      s,
      '/v1beta/models/gemini-2.5-flash:generateContent',
      { ...PROMPT, temprature: 1 },
      { 'x-goog-api-key': s.apiKey },
    );
    assert.equal(a.status, 400);
    assert.match(((await a.json()) as { error: { message: string } }).error.message, /Unknown name "temprature"/);
    const b = await post(s, '/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": [', {
      'x-goog-api-key': s.apiKey,
    });
    assert.equal(b.status, 400);
  });

  it('appends a raw pretty-printed error without data: mid-stream on [[midstream-error]]', async () => {
    const r = await post(
      s,
      stream,
      { contents: [{ role: 'user', parts: [{ text: 'hello [[midstream-error]] [[fast]]' }] }] },
      { 'x-goog-api-key': s.apiKey },
    );
    assert.equal(r.status, 200);
    const text = await r.text();
    const parts = text.split('\r\n\r\n');
    assert.equal(parts.length, 3);
    assert.ok(parts[0].startsWith('data: ') && parts[1].startsWith('data: '));
    assert.match(parts[2], /^\{\n {2}"error": \{\n {4}"code": 503,[\s\S]*"status": "UNAVAILABLE"\n {2}\}\n\}\n$/);
  });

  it('resets the connection mid-stream on [[reset]]', async () => {
    const r = await post(
      s,
      stream,
      { contents: [{ role: 'user', parts: [{ text: 'hello [[reset]]' }] }] },
      { 'x-goog-api-key': s.apiKey },
    );
    assert.equal(r.status, 200);
    await assert.rejects(r.text());
  });

  it('selects faults by header as well as by prompt', async () => {
    const r = await post(s, stream, PROMPT, { 'x-goog-api-key': s.apiKey, 'x-sandbox-fault': '429' });
    assert.equal(r.status, 429);
    const { error } = (await r.json()) as { error: { details: { '@type': string; retryDelay?: string }[] } };
    assert.equal(error.details.find((d) => d['@type'].endsWith('RetryInfo'))!.retryDelay, '1s');
  });

  it('blocks a prompt with promptFeedback only', async () => {
    const text = await (
      await post(s, stream, { contents: [{ parts: [{ text: 'bad [[block]]' }] }] }, { 'x-goog-api-key': s.apiKey })
    ).text();
    const events = text
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((e) => parseAs<GenerateContentResponse>(e.slice(6)));
    assert.equal(events.length, 1);
    assert.equal(events[0].promptFeedback?.blockReason, 'SAFETY');
    assert.equal(events[0].candidates, undefined);
  });

  it('puts citations on a middle chunk and RECITATION on a content-less last chunk', async () => {
    const text = await (
      await post(
        s,
        stream,
        { contents: [{ parts: [{ text: 'recite the poem [[recitation]]' }] }] },
        { 'x-goog-api-key': s.apiKey },
      )
    ).text();
    const events = text
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((e) => parseAs<GenerateContentResponse>(e.slice(6)));
    const withCitations = events.map((e, i) => (e.candidates?.[0].citationMetadata ? i : -1)).filter((i) => i >= 0);
    assert.equal(withCitations.length, 1);
    assert.ok(withCitations[0] > 0 && withCitations[0] < events.length - 1);
    const last = events[events.length - 1].candidates?.[0];
    assert.ok(last);
    assert.equal(last.finishReason, 'RECITATION');
    assert.equal(last.content, undefined);
    const joined = Buffer.from(events.map((e) => e.candidates?.[0].content?.parts?.[0]?.text ?? '').join(''));
    const sources = events[withCitations[0]].candidates?.[0].citationMetadata?.citationSources;
    assert.ok(sources);
    for (const src of sources) {
      assert.ok(
        src.endIndex !== undefined && (src.startIndex ?? 0) < src.endIndex && src.endIndex <= joined.length,
        'byte offsets inside the text',
      );
    }
  });

  it('honours maxOutputTokens with MAX_TOKENS and stopSequences with STOP', async () => {
    const max = (await (
      await post(
        s,
        '/v1beta/models/gemini-2.5-flash:generateContent',
        { ...PROMPT, generationConfig: { maxOutputTokens: 5 } },
        { 'x-goog-api-key': s.apiKey },
      )
    ).json()) as {
      candidates: { finishReason: string; content: { parts: { text: string }[] } }[];
      usageMetadata: { candidatesTokenCount: number };
    };
    assert.equal(max.candidates[0].finishReason, 'MAX_TOKENS');
    assert.equal(max.usageMetadata.candidatesTokenCount, 5);
    const stop = (await (
      await post(
        s,
        '/v1beta/models/gemini-2.5-flash:generateContent',
        { ...PROMPT, generationConfig: { stopSequences: ['```'] } },
        { 'x-goog-api-key': s.apiKey },
      )
    ).json()) as typeof max;
    assert.equal(stop.candidates[0].finishReason, 'STOP');
    assert.ok(!stop.candidates[0].content.parts[0].text.includes('```'));
  });

  it('returns JSON matching responseSchema in JSON mode', async () => {
    const schema = {
      type: 'OBJECT',
      properties: {
        title: { type: 'STRING' },
        count: { type: 'INTEGER' },
        tags: { type: 'ARRAY', items: { type: 'STRING' } },
        ok: { type: 'BOOLEAN' },
      },
      required: ['title'],
    };
    const r = (await (
      await post(
        s,
        '/v1beta/models/gemini-2.5-flash:generateContent',
        { ...PROMPT, generationConfig: { responseMimeType: 'application/json', responseSchema: schema } },
        { 'x-goog-api-key': s.apiKey },
      )
    ).json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    const value = parseAs<{ title: unknown; count: unknown; tags: unknown; ok: unknown }>(
      r.candidates[0].content.parts[0].text,
    );
    assert.equal(typeof value.title, 'string');
    assert.equal(value.count, 5);
    assert.ok(Array.isArray(value.tags));
    assert.equal(typeof value.ok, 'boolean');
  });

  it('calls a declared function that the prompt names, and answers its functionResponse', async () => {
    const tools = [
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
          },
        ],
      },
    ];
    const ask = { contents: [{ role: 'user', parts: [{ text: 'Use get_weather for city="Oslo"' }] }], tools };
    const first = (await (
      await post(s, '/v1beta/models/gemini-2.5-flash:generateContent', ask, { 'x-goog-api-key': s.apiKey })
    ).json()) as {
      candidates: { content: { parts: { functionCall?: { name: string; args: Record<string, unknown> } }[] } }[];
    };
    assert.deepEqual(first.candidates[0].content.parts[0].functionCall, {
      name: 'get_weather',
      args: { city: 'Oslo' },
    });
    const second = (await (
      await post(
        s,
        '/v1beta/models/gemini-2.5-flash:generateContent',
        {
          tools,
          contents: [
            ...ask.contents,
            first.candidates[0].content,
            { role: 'function', parts: [{ functionResponse: { name: 'get_weather', response: { tempC: 7 } } }] },
          ],
        },
        { 'x-goog-api-key': s.apiKey },
      )
    ).json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    assert.match(second.candidates[0].content.parts[0].text, /get_weather[\s\S]*"tempC": 7/);
  });

  it('lists models (with a tuned one, paged) and counts tokens', async () => {
    const page1 = (await (
      await fetch(`${s.origin}/v1beta/models?pageSize=4`, { headers: { 'x-goog-api-key': s.apiKey } })
    ).json()) as { models: { name: string }[]; nextPageToken: string };
    assert.equal(page1.models.length, 4);
    const page2 = (await (
      await fetch(`${s.origin}/v1beta/models?pageSize=4&pageToken=${page1.nextPageToken}`, {
        headers: { 'x-goog-api-key': s.apiKey },
      })
    ).json()) as { models: { name: string }[]; nextPageToken?: string };
    assert.ok(page2.models.some((m) => m.name.startsWith('tunedModels/')));
    assert.equal(page2.nextPageToken, undefined);
    const count = (await (
      await post(
        s,
        '/v1beta/models/gemini-2.5-flash:countTokens',
        { contents: PROMPT.contents },
        { 'x-goog-api-key': s.apiKey },
      )
    ).json()) as { totalTokens: number };
    assert.equal(count.totalTokens, 5);
    const both = await post(
      s,
      '/v1beta/models/gemini-2.5-flash:countTokens',
      { contents: PROMPT.contents, generateContentRequest: PROMPT },
      { 'x-goog-api-key': s.apiKey },
    );
    assert.equal(both.status, 400);
  });

  it('generates with a tuned model', async () => {
    const r = await post(s, '/v1beta/tunedModels/sandbox-support-bot:streamGenerateContent?alt=sse', PROMPT, {
      'x-goog-api-key': s.apiKey,
    });
    assert.equal(r.status, 200);
    assert.match(await r.text(), /"modelVersion":"sandbox-support-bot"/);
  });

  it('follows the system instruction and sends thoughts with a signature first on [[thinking]]', async () => {
    const r = await post(
      s,
      stream,
      {
        systemInstruction: { parts: [{ text: 'Answer like a pirate.' }] },
        contents: [{ role: 'user', parts: [{ text: 'hello [[thinking]]' }] }],
      },
      { 'x-goog-api-key': s.apiKey },
    );
    const events = (await r.text())
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((e) => parseAs<GenerateContentResponse>(e.slice(6)));
    const first = events[0].candidates?.[0].content?.parts?.[0];
    assert.equal(first?.thought, true);
    assert.ok(typeof first.thoughtSignature === 'string' && first.thoughtSignature.length > 0);
    assert.ok((events[0].usageMetadata?.thoughtsTokenCount ?? 0) > 0);
    const answer = events
      .slice(1)
      .map((e) => e.candidates?.[0].content?.parts?.[0]?.text ?? '')
      .join('');
    assert.match(answer, /System instruction in effect:_ Answer like a pirate\./);
  });

  it('does not call functions when the tool config says NONE, and rejects a bad declaration', async () => {
    const tools = [
      {
        functionDeclarations: [
          { name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } },
        ],
      },
    ];
    const r = (await (
      await post(
        s,
        '/v1beta/models/gemini-2.5-flash:generateContent',
        {
          contents: [{ parts: [{ text: 'get_weather now' }] }],
          tools,
          toolConfig: { functionCallingConfig: { mode: 'NONE' } },
        },
        { 'x-goog-api-key': s.apiKey },
      )
    ).json()) as { candidates: { content: { parts: { text?: string; functionCall?: unknown }[] } }[] };
    assert.equal(r.candidates[0].content.parts[0].functionCall, undefined);
    const bad = await post(
      s,
      '/v1beta/models/gemini-2.5-flash:generateContent',
      { contents: [{ parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name: '1bad name' }] }] },
      { 'x-goog-api-key': s.apiKey },
    );
    assert.equal(bad.status, 400);
  });

  it('rejects topK on a nucleus-only model', async () => {
    const r = await post(
      s,
      '/v1beta/models/gemini-2.0-flash-lite:generateContent',
      { ...PROMPT, generationConfig: { topK: 5 } },
      { 'x-goog-api-key': s.apiKey },
    );
    assert.equal(r.status, 400);
    assert.match(((await r.json()) as { error: { message: string } }).error.message, /top_k/);
  });
});
