// The official @google/genai client, unchanged, against a fresh in-process sandbox: only its
// httpOptions.baseUrl points elsewhere. Every call here is one a user's script would make.
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ApiError, FileState, FunctionCallingConfigMode, GoogleGenAI, Type, createPartFromUri } from '@google/genai';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { runScript } from './runScript';

const MODEL = 'gemini-2.5-flash';

describe('peer: @google/genai against the sandbox', () => {
  let sandbox: RunningSandbox;
  let ai: GoogleGenAI;
  before(async () => {
    sandbox = await startSandbox();
    ai = new GoogleGenAI({ apiKey: sandbox.apiKey, httpOptions: { baseUrl: sandbox.generation } });
  });
  after(async () => sandbox.close());

  it('streams: several chunks, text that echoes the prompt, STOP and usage on the last', async () => {
    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'Explain streams in two words' });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    const text = chunks.map((c) => c.text ?? '').join('');
    assert.match(text, /Explain streams in two words/);
    const last = chunks[chunks.length - 1];
    assert.equal(last.candidates?.[0].finishReason, 'STOP');
    assert.ok((last.usageMetadata?.totalTokenCount ?? 0) > (last.usageMetadata?.promptTokenCount ?? 0));
  });

  it('unary generateContent gives the same text as the stream', async () => {
    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'Same words twice' });
    let streamed = '';
    for await (const c of stream) streamed += c.text ?? '';
    const r = await ai.models.generateContent({ model: MODEL, contents: 'Same words twice' });
    assert.equal(r.text, streamed);
    assert.equal(r.candidates?.[0].finishReason, 'STOP');
  });

  it('counts tokens', async () => {
    const r = await ai.models.countTokens({ model: MODEL, contents: 'one two three four' });
    assert.ok((r.totalTokens ?? 0) >= 4, JSON.stringify(r));
  });

  it('chats: history grows by turns, streamed and unary', async () => {
    const chat = ai.chats.create({ model: MODEL });
    const first = await chat.sendMessage({ message: 'My name is Ada' });
    assert.match(first.text ?? '', /My name is Ada/);
    const stream = await chat.sendMessageStream({ message: 'What did I say?' });
    let second = '';
    for await (const c of stream) second += c.text ?? '';
    assert.match(second, /What did I say\?/);
    // The SDK keeps each streamed chunk as its own model content; the turns alternate.
    const turns = chat
      .getHistory()
      .map((h) => h.role)
      .filter((role, i, all) => role !== all[i - 1]);
    assert.deepEqual(turns, ['user', 'model', 'user', 'model']);
  });

  for (const form of ['parameters', 'parametersJsonSchema'] as const) {
    it(`function calling with ${form}: required arguments present and typed, then the function's answer`, async () => {
      const declaration =
        form === 'parameters'
          ? {
              name: 'get_weather',
              parameters: {
                type: Type.OBJECT,
                properties: {
                  city: { type: Type.STRING },
                  unit: { type: Type.STRING, enum: ['celsius', 'fahrenheit'] },
                  days: { type: Type.INTEGER },
                },
                required: ['city', 'unit', 'days'],
              },
            }
          : {
              name: 'get_weather',
              parametersJsonSchema: {
                type: 'object',
                properties: {
                  city: { type: 'string' },
                  unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
                  days: { type: 'integer', minimum: 1 },
                },
                required: ['city', 'unit', 'days'],
              },
            };
      const config = {
        tools: [{ functionDeclarations: [declaration] }],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
      };
      const r = await ai.models.generateContent({ model: MODEL, contents: 'What is the weather in Oslo?', config });
      const call = r.functionCalls?.[0];
      assert.equal(call?.name, 'get_weather');
      assert.equal(call?.args?.city, 'Oslo');
      assert.equal(call?.args?.unit, 'celsius');
      assert.ok(Number.isInteger(call?.args?.days) && (call?.args?.days as number) >= 1, JSON.stringify(call?.args));
      const answer = await ai.models.generateContent({
        model: MODEL,
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather in Oslo?' }] },
          { role: 'model', parts: [{ functionCall: call }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 7 } } }] },
        ],
        config: { tools: config.tools },
      });
      assert.match(answer.text ?? '', /get_weather[\s\S]*"temperature": 7/);
    });
  }

  it('uploads a file, gets it until ACTIVE, and uses it as fileData', async () => {
    const file = await ai.files.upload({
      file: new Blob(['hello sandbox'], { type: 'text/plain' }),
      config: { mimeType: 'text/plain', displayName: 'note.txt' },
    });
    assert.match(file.name ?? '', /^files\//);
    assert.equal(file.sizeBytes, '13');
    let got = await ai.files.get({ name: file.name! });
    for (let i = 0; i < 50 && got.state === FileState.PROCESSING; i++) {
      await new Promise((r) => setTimeout(r, 100));
      got = await ai.files.get({ name: file.name! });
    }
    assert.equal(got.state, 'ACTIVE');
    assert.equal(got.displayName, 'note.txt');
    const r = await ai.models.generateContent({
      model: MODEL,
      contents: [createPartFromUri(got.uri!, got.mimeType!), 'Describe the attachment'],
    });
    assert.match(r.text ?? '', new RegExp(`Attachments received: file ${got.name!} \\(text/plain\\)`));
  });

  const status = async (p: Promise<unknown>): Promise<number> => {
    try {
      await p;
    } catch (e) {
      assert.ok(e instanceof ApiError, String(e));
      return e.status;
    }
    return 200;
  };

  it("errors reach the caller as ApiError with the service's status: 400, 404, 429", async () => {
    assert.equal(
      await status(ai.models.generateContent({ model: MODEL, contents: 'hi', config: { temperature: 5 } })),
      400,
    );
    assert.equal(await status(ai.models.generateContent({ model: 'gemini-0-none', contents: 'hi' })), 404);
    assert.equal(await status(ai.models.generateContent({ model: MODEL, contents: 'hi [[429]]' })), 429);
    assert.equal(await status(ai.models.generateContentStream({ model: MODEL, contents: 'hi [[429]]' })), 429);
  });

  it('a mid-stream error ends the stream with ApiError 503 after the chunks before it', async () => {
    const stream = await ai.models.generateContentStream({
      model: MODEL,
      contents: 'tell me more [[midstream-error]]',
    });
    let received = 0;
    let caught: unknown;
    try {
      for await (const c of stream) if (c.text) received++;
    } catch (e) {
      caught = e;
    }
    assert.equal(received, 2);
    assert.ok(caught instanceof ApiError, `got ${String(caught)}`);
    assert.equal(caught.status, 503);
    assert.match(caught.message, /UNAVAILABLE/);
  });

  it("the README's Node snippet runs as printed", async () => {
    // Asynchronously: the sandbox answering it lives in this process.
    const r = await runScript(process.execPath, [resolve(__dirname, 'snippets/genai-node.mjs')], {
      SANDBOX_URL: sandbox.url,
      SANDBOX_API_KEY: sandbox.apiKey,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Hello from Node/);
    assert.match(r.stdout, /\[\{"name":"get_weather","args":\{"city":"Oslo"\}\}\]/);
  });
});
