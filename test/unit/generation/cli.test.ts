import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { generateCommand } from '../../../src/cli/generate';
import type { GenerateContentResponse } from '../../../src/shared/wire/generation';
import { parseAs } from '../../support/typedJson';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return {
    stream,
    get text() {
      return text;
    },
  };
}

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out = sink();
  const err = sink();
  const code = await generateCommand(args, {
    stdout: out.stream,
    stderr: err.stream,
    env,
    interrupted: new Promise(() => undefined),
  });
  return { code, stdout: out.text, stderr: err.text };
}

describe('api-workbench generate', () => {
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());
  const base = () => ['--base-url', s.origin, '--model', 'models/gemini-2.5-flash', '--api-key', s.apiKey];

  /** `--json` output: a `{chunk}` line per chunk, then `{response, error}`. */
  interface JsonLine {
    chunk?: GenerateContentResponse;
    response?: GenerateContentResponse;
    error?: { code: number; status: string; message: string } | null;
  }
  function lines(stdout: string) {
    return stdout
      .trim()
      .split('\n')
      .map((l) => parseAs<JsonLine>(l));
  }

  it('--json: a chunk line per chunk, then the aggregated response; exit 0', async () => {
    const r = await cli([...base(), '--prompt', 'hello cli [[fast]]', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const ls = lines(r.stdout);
    const last = ls.pop();
    assert.ok(ls.length >= 4 && ls.every((l) => l.chunk && Object.keys(l).length === 1));
    assert.equal(last?.error, null);
    const joined = ls.map((l) => l.chunk?.candidates?.[0].content?.parts?.[0].text).join('');
    assert.equal(last.response?.candidates?.[0].content?.parts?.[0].text, joined);
    assert.equal(last.response.candidates[0].finishReason, 'STOP');
  });

  it('--json: a blocked prompt is a result (exit 0)', async () => {
    const r = await cli([...base(), '--prompt', 'bad [[block]]', '--json']);
    assert.equal(r.code, 0);
    const last = lines(r.stdout).pop();
    assert.equal(last?.response?.promptFeedback?.blockReason, 'SAFETY');
    assert.equal(last.error, null);
  });

  it('--json: recitation keeps the mid-stream citations', async () => {
    const r = await cli([...base(), '--prompt', 'recite [[recitation]] [[fast]]', '--json']);
    assert.equal(r.code, 0);
    const last = lines(r.stdout).pop();
    assert.equal(last?.response?.candidates?.[0].finishReason, 'RECITATION');
    assert.equal(last.response.candidates[0].citationMetadata?.citationSources?.length, 2);
  });

  it('--json: a mid-stream error keeps the partial reply and exits 1', async () => {
    const r = await cli([...base(), '--prompt', 'hi [[midstream-error]] [[fast]]', '--json']);
    assert.equal(r.code, 1);
    const ls = lines(r.stdout);
    const last = ls.pop();
    assert.equal(ls.length, 2);
    assert.deepEqual(last?.error, {
      code: 503,
      status: 'UNAVAILABLE',
      message: 'The model is overloaded. Please try again later.',
    });
    assert.ok((last.response?.candidates?.[0].content?.parts?.[0].text ?? '').length > 0);
  });

  it('text mode streams the reply text; notices go to stderr', async () => {
    const r = await cli([...base(), '--prompt', 'text please [[fast]]', '--key-in-query']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^\*\*Sandbox reply\*\*[\s\S]*text please/);
    const bare = await cli(['--base-url', s.origin, '--model', 'gemini-2.5-flash', '--prompt', 'x [[fast]]'], {
      GEMINI_API_KEY: s.apiKey,
    });
    assert.equal(bare.code, 0, 'bare model id and key from the environment');
  });

  it('reads a request file and reports a wrong key with exit 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gen-cli-')), 'req.json');
    writeFileSync(
      file,
      JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'from file' }] }],
        generationConfig: { maxOutputTokens: 3 },
      }),
    );
    const ok = await cli([...base(), '--request', file]);
    assert.equal(ok.code, 0);
    assert.match(ok.stderr, /Cut at the token limit/);
    const bad = await cli([
      '--base-url',
      s.origin,
      '--model',
      'models/gemini-2.5-flash',
      '--api-key',
      'wrong',
      '--request',
      file,
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /400 INVALID_ARGUMENT: API key not valid/);
    assert.ok(!bad.stderr.includes('wrong'), 'the key is never printed');
  });

  it('refuses bad usage and rule-breaking requests with exit 2, before sending', async () => {
    assert.equal((await cli(['--model', 'm', '--prompt', 'x', '--api-key', 'k'])).code, 2);
    assert.equal((await cli([...base()])).code, 2);
    assert.equal((await cli([...base(), '--prompt', 'x', '--request', 'f'])).code, 2);
    const dir = await import('node:fs').then((fs) => fs.mkdtempSync('/tmp/gen-cli-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${dir}/r.json`,
      JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { temperature: 5 } }),
    );
    const r = await cli([...base(), '--request', `${dir}/r.json`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /temperature is 5/);
  });
});
