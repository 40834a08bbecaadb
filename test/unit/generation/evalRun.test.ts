// The evaluation runner against the generation sandbox: 200 items × 3 models through a 429/503 storm,
// stopped part-way and resumed from its results file. Requests are counted at the sandbox (its request log):
// every cell is done once, and no request is sent again for a cell that was already done.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAssertion } from '../../../src/generation/core/eval/assertions';
import { readEarlierRun, ResultsWriter } from '../../../src/generation/core/eval/outFile';
import { cellKey, runEval, type CellResult, type EvalItem } from '../../../src/generation/core/eval/runner';
import { PromptFile } from '../../../src/generation/core/prompt/promptFile';
import { GenerationControls, type ServedRequest } from '../../../src/sandbox/generation/controls';
import { parseAs } from '../../support/typedJson';
import { startGenerationEmulator, type TestServer } from './emulatorServer';

const PROMPT = [
  '---',
  'model: gemini-2.0-flash',
  'output:',
  '  schema:',
  '    topic: string, what the answer is about',
  '    count: integer',
  '    tags(array): string',
  '---',
  '{{role "system"}}',
  'Answer in JSON.',
  '{{role "user"}}',
  'Tell me about {{topic}}, item {{n}}. [[fast]]',
].join('\n');

const MODELS = ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro'];

async function control(s: TestServer, what: string, method = 'GET', body?: unknown): Promise<unknown> {
  const res = await fetch(`${s.origin}/v1beta/__sandbox/${what}`, {
    method,
    headers: { 'x-goog-api-key': s.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as unknown;
}

async function served(s: TestServer): Promise<ServedRequest[]> {
  return parseAs<{ requests: ServedRequest[] }>(JSON.stringify(await control(s, 'requests'))).requests;
}

describe('eval runner: 200 items × 3 models against the sandbox', function () {
  this.timeout(120_000);
  let s: TestServer;
  before(async () => {
    s = await startGenerationEmulator();
  });
  after(async () => s.close());

  it('through a 429/503 storm, stopped and resumed: every cell once, no request again for a finished cell', async () => {
    const { prompt } = await PromptFile.load(PROMPT);
    assert.ok(prompt);
    const assertions = [
      parseAssertion({ type: 'is-json' }, prompt.outputSchema),
      parseAssertion({ type: 'json-schema' }, prompt.outputSchema),
      parseAssertion({ type: 'contains', value: '"count":' }, prompt.outputSchema),
    ];
    const items: EvalItem[] = Array.from({ length: 200 }, (_, i) => ({
      index: i,
      input: { topic: `river number ${i}`, n: i },
      assertions,
    }));
    const variants = MODELS.map((m) => ({ name: m, model: m }));
    // Fast retries: the storm's 429s carry a 1 ms RetryInfo, 503s back off from 1 ms.
    const connection = {
      baseUrl: s.origin,
      apiKey: s.apiKey,
      retry: { maxAttempts: 12, initialDelayMs: 1, maxDelayMs: 50 },
    };
    await control(s, 'requests', 'DELETE');
    await control(s, 'faults', 'POST', {
      storm: { rate: 0.3, statuses: [429, 503], seed: 7, retryDelaySeconds: 0.001 },
    });

    const out = join(mkdtempSync(join(tmpdir(), 'eval-run-')), 'results.jsonl');
    // Run 1: stopped after 250 cells.
    const stop = new AbortController();
    let writer = await ResultsWriter.open(out, 0);
    let saved = 0;
    const first = await runEval({
      prompt,
      items,
      variants,
      connection,
      concurrency: 8,
      signal: stop.signal,
      onCell: async (cell) => {
        await writer.append(cell);
        if (++saved === 250) stop.abort();
      },
    });
    await writer.close();
    assert.equal(first.cancelled, true);
    assert.ok(first.cells.length >= 250 && first.cells.length < 600, String(first.cells.length));
    const logAfterFirst = (await served(s)).length;

    // Run 2: resumed from the file.
    const earlier = await readEarlierRun(out);
    assert.equal(earlier.cells.size, first.cells.length);
    writer = await ResultsWriter.open(out, earlier.validBytes);
    const second = await runEval({
      prompt,
      items,
      variants,
      connection,
      concurrency: 8,
      done: earlier.cells,
      onCell: (cell) => writer.append(cell),
    });
    await writer.close();
    await control(s, 'faults', 'POST', { reset: true });
    assert.equal(second.cancelled, false);
    assert.equal(second.ran, 600 - first.cells.length);
    assert.equal(second.cells.length, 600);

    // The file: every cell exactly once, none failed, every assertion passed.
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 600);
    const cells = lines.map((l) => parseAs<CellResult>(l));
    assert.equal(new Set(cells.map((c) => cellKey(c.item, c.variant))).size, 600);
    assert.deepEqual(
      cells.filter((c) => c.error),
      [],
    );
    assert.ok(cells.every((c) => c.assertions.length === 3 && c.assertions.every((a) => a.pass)));
    assert.ok(
      cells.some((c) => c.attempts > 2),
      'some cell was retried at least twice',
    );

    // At the sandbox: the storm happened, and requests are counted per cell (fingerprint of model + body).
    const log = await served(s);
    const statuses = new Set(log.map((r) => r.status));
    assert.ok(statuses.has(429) && statuses.has(503) && statuses.has(200), [...statuses].join(','));
    const fp = new GenerationControls();
    const doneInFirst = new Set(first.cells.map((c) => cellKey(c.item, c.variant)));
    let inFlightAtStop = 0;
    for (const item of items) {
      for (const v of variants) {
        const r = await prompt.render(item.input, { model: v.model });
        const f = fp.fingerprint(`models/${r.model}`, r.request);
        const mine = log.map((e, i) => ({ ...e, i })).filter((e) => e.fingerprint === f);
        const ok = mine.filter((e) => e.status === 200);
        assert.ok(ok.length >= 1, `item ${item.index} ${v.name} was answered`);
        if (doneInFirst.has(cellKey(item.index, v.name))) {
          // Done in run 1: answered once, and never asked again by run 2.
          assert.equal(ok.length, 1, `item ${item.index} ${v.name}`);
          assert.ok(
            mine.every((e) => e.i < logAfterFirst),
            `item ${item.index} ${v.name} was asked again`,
          );
        } else if (ok.length > 1) {
          // Answered in run 1 while the stop cut the stream: not done, so run 2 asked once more.
          assert.equal(ok.length, 2);
          assert.ok(ok[0].i < logAfterFirst);
          inFlightAtStop++;
        }
      }
    }
    assert.ok(inFlightAtStop <= 8, `${inFlightAtStop} cells were in flight at the stop`);
  });

  it('a request that still fails after its retries is a cell error; the other cells complete', async () => {
    const { prompt } = await PromptFile.load('---\nmodel: gemini-2.0-flash\n---\n{{word}} [[fast]]');
    assert.ok(prompt);
    const items: EvalItem[] = [
      { index: 0, input: { word: 'fine' }, assertions: [] },
      {
        index: 1,
        input: { word: 'broken [[503]]' },
        assertions: [parseAssertion({ type: 'contains', value: 'x' }, undefined)],
      },
    ];
    const r = await runEval({
      prompt,
      items,
      variants: [{ name: 'gemini-2.0-flash', model: 'gemini-2.0-flash' }],
      connection: { baseUrl: s.origin, apiKey: s.apiKey, retry: { maxAttempts: 3, initialDelayMs: 1 } },
    });
    assert.equal(r.cells[0].error, null);
    assert.equal(r.cells[1].error?.code, 503);
    assert.equal(r.cells[1].attempts, 3);
    assert.deepEqual(r.cells[1].assertions, [
      { type: 'contains', pass: false, reason: 'no reply (the request failed)' },
    ]);
  });
});
