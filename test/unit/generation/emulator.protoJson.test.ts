// The emulator reads requests as proto3 JSON (both field spellings), honours JSON-schema tools, and
// frames a mid-stream error the way clients that read it per network chunk can recognise.
import * as assert from 'node:assert/strict';
import { uploadFile, waitForActive } from '../../../src/generation/core';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

async function post(s: TestServer, path: string, body: unknown, fault = 'fast') {
  return fetch(s.origin + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': s.apiKey, 'x-sandbox-fault': fault },
    body: JSON.stringify(body),
  });
}

interface Reply {
  candidates?: {
    content?: { parts?: { text?: string; functionCall?: { name: string; args?: Record<string, unknown> } }[] };
  }[];
  error?: { code: number; status: string; message: string };
}

const unary = '/v1beta/models/gemini-2.5-flash:generateContent';

describe('generation emulator: proto3 JSON names, JSON-schema tools, mid-stream framing', () => {
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());

  it('accepts snake_case file_data { file_uri, mime_type } as the Python SDK sends it', async () => {
    const up = await uploadFile({
      baseUrl: s.origin,
      apiKey: s.apiKey,
      data: Buffer.from('hello'),
      mimeType: 'text/plain',
      displayName: 'a.txt',
    });
    const ready = await waitForActive({ baseUrl: s.origin, apiKey: s.apiKey, name: up.file!.name, intervalMs: 50 });
    const r = await post(s, unary, {
      contents: [
        {
          role: 'user',
          parts: [{ file_data: { file_uri: ready.file!.uri, mime_type: 'text/plain' } }, { text: 'summarise' }],
        },
      ],
    });
    assert.equal(r.status, 200, await r.clone().text());
    const body = (await r.json()) as Reply;
    assert.match(
      body.candidates![0].content!.parts![0].text!,
      new RegExp(`Attachments received: file ${ready.file!.name} \\(text/plain\\)`),
    );
    const camel = await post(s, unary, {
      contents: [
        {
          role: 'user',
          parts: [{ fileData: { file_uri: ready.file!.uri, mime_type: 'text/plain' } }, { text: 'summarise' }],
        },
      ],
    });
    assert.equal(camel.status, 200, 'mixed spellings too');
  });

  it('accepts inline_data and reads it', async () => {
    const r = await post(s, unary, {
      contents: [
        {
          parts: [
            { inline_data: { mime_type: 'image/png', data: Buffer.from('12345').toString('base64') } },
            { text: 'look' },
          ],
        },
      ],
    });
    assert.equal(r.status, 200);
    assert.match(((await r.json()) as Reply).candidates![0].content!.parts![0].text!, /inline image\/png \(5 bytes\)/);
  });

  it('checks generation_config like generationConfig (temperature 5 is refused)', async () => {
    const r = await post(s, unary, {
      contents: [{ parts: [{ text: 'hi' }] }],
      generation_config: { temperature: 5, max_output_tokens: 0 },
    });
    assert.equal(r.status, 400);
    const { error } = (await r.json()) as Required<Reply>;
    assert.match(error.message, /temperature/);
    assert.match(error.message, /max_output_tokens/);
  });

  it('applies snake_case generation settings (stop_sequences cuts the reply)', async () => {
    const r = await post(s, unary, {
      contents: [{ parts: [{ text: 'hi there' }] }],
      generation_config: { stop_sequences: ['you wrote'] },
    });
    assert.equal(r.status, 200);
    assert.equal(((await r.json()) as Reply).candidates![0].content!.parts![0].text, '**Sandbox reply** — ');
  });

  it('answers 400, not 500, for a fileData part without fileUri', async () => {
    const r = await post(s, unary, { contents: [{ parts: [{ file_data: { mime_type: 'text/plain' } }] }] });
    assert.equal(r.status, 400);
    assert.match(((await r.json()) as Required<Reply>).error.message, /file_uri/);
  });

  it('keeps user keys inside function args and schemas as they are', async () => {
    const r = await post(s, unary, {
      contents: [{ parts: [{ text: 'call it [[call]]' }] }],
      tools: [
        {
          function_declarations: [
            {
              name: 'set_mode',
              parameters: {
                type: 'OBJECT',
                properties: { snake_name: { type: 'STRING', enum: ['a_b', 'c_d'] } },
                required: ['snake_name'],
              },
            },
          ],
        },
      ],
      tool_config: { function_calling_config: { mode: 'ANY' } },
    });
    assert.equal(r.status, 200);
    const call = ((await r.json()) as Reply).candidates![0].content!.parts![0].functionCall!;
    assert.deepEqual(call, { name: 'set_mode', args: { snake_name: 'a_b' } });
  });

  it('honours parametersJsonSchema: required properties of the right type, enums, nesting, $ref', async () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'the city' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        detailed: { type: ['boolean', 'null'] },
        at: { $ref: '#/$defs/point' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        optional: { type: 'number' },
      },
      required: ['city', 'unit', 'days', 'detailed', 'at', 'tags'],
      $defs: {
        point: {
          type: 'object',
          properties: { lat: { type: 'number' }, lng: { type: 'number' } },
          required: ['lat', 'lng'],
        },
      },
    };
    const r = await post(s, unary, {
      contents: [{ parts: [{ text: 'What is the weather? city="Oslo" [[call]]' }] }],
      tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: schema }] }],
    });
    assert.equal(r.status, 200);
    const call = ((await r.json()) as Reply).candidates![0].content!.parts![0].functionCall!;
    assert.equal(call.name, 'get_weather');
    const a = call.args!;
    assert.equal(a.city, 'Oslo');
    assert.equal(a.unit, 'celsius');
    assert.ok(Number.isInteger(a.days) && (a.days as number) >= 1 && (a.days as number) <= 7, `days ${String(a.days)}`);
    assert.equal(typeof a.detailed, 'boolean');
    const at = a.at as { lat: unknown; lng: unknown };
    assert.equal(typeof at.lat, 'number');
    assert.equal(typeof at.lng, 'number');
    assert.ok(Array.isArray(a.tags) && a.tags.length >= 2 && a.tags.every((t) => typeof t === 'string'));
    assert.ok(!('optional' in a), 'optional properties stay out unless the prompt names them');
  });

  it('refuses parameters and parametersJsonSchema together', async () => {
    const r = await post(s, unary, {
      contents: [{ parts: [{ text: 'x' }] }],
      tools: [
        {
          functionDeclarations: [
            { name: 'f', parameters: { type: 'OBJECT' }, parametersJsonSchema: { type: 'object' } },
          ],
        },
      ],
    });
    assert.equal(r.status, 400);
  });

  it('sends the mid-stream error as a network read of its own, after CRLF-framed events', async () => {
    const r = await post(
      s,
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      { contents: [{ parts: [{ text: 'hello [[midstream-error]]' }] }] },
      'slow:5',
    );
    assert.equal(r.status, 200);
    const reader = r.body!.getReader();
    const decoder = new TextDecoder();
    const reads: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads.push(decoder.decode(value, { stream: true }));
    }
    const last = reads[reads.length - 1];
    const parsed = JSON.parse(last) as Required<Reply>;
    assert.equal(parsed.error.code, 503);
    assert.ok(last.startsWith('{\n  "error": {'), 'pretty-printed');
    const before = reads.slice(0, -1).join('');
    assert.equal(before.split('\r\n\r\n').filter(Boolean).length, 2);
    assert.ok(before.endsWith('\r\n\r\n'));
  });
});

describe('generation emulator: snake_case query parameters', () => {
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());

  it('pages models.list with page_size / page_token as with pageSize / pageToken', async () => {
    const get = async (q: string) =>
      (await (await fetch(`${s.origin}/v1beta/models?${q}`, { headers: { 'x-goog-api-key': s.apiKey } })).json()) as {
        models: { name: string }[];
        nextPageToken?: string;
      };
    const camel = await get('pageSize=2');
    const snake = await get('page_size=2');
    assert.equal(snake.models.length, 2);
    assert.deepEqual(snake, camel);
    const next = await get(`page_size=2&page_token=${snake.nextPageToken!}`);
    assert.notEqual(next.models[0].name, snake.models[0].name);
  });
});
