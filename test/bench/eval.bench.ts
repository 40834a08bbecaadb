// Evaluation runner figures, each a ratio measured in this run:
//  1. the runner's cost per cell (render with dotprompt, stream, assertions, a results line appended) ÷ the raw
//     request (the same rendered request streamed by the client alone), against a server that takes 20 ms to
//     answer as a model would (goal: ≤ 1.05);
//  2. the same against a server that answers at once (reported: the runner's own work, exaggerated).
// Run alone: BENCH=eval npm run bench
import * as http from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamGenerateContent } from '../../src/generation/core';
import { parseAssertion } from '../../src/generation/core/eval/assertions';
import { ResultsWriter } from '../../src/generation/core/eval/outFile';
import { runEval, type EvalItem } from '../../src/generation/core/eval/runner';
import { PromptFile } from '../../src/generation/core/prompt/promptFile';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';

const CELLS = SMOKE ? 20 : 200;
const RUNS = SMOKE ? 1 : 3;

const REPLY = [
  { candidates: [{ content: { role: 'model', parts: [{ text: '{"headline": "Clear water at' }] }, index: 0 }] },
  { candidates: [{ content: { role: 'model', parts: [{ text: ' Golden", "level": "normal"}' }] }, index: 0 }] },
  {
    candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 14, totalTokenCount: 54 },
  },
]
  .map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`)
  .join('');

async function serve(delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(REPLY);
      }, delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const PROMPT = [
  '---',
  'model: gemini-2.0-flash',
  'config:',
  '  temperature: 0.2',
  'output:',
  '  schema:',
  '    headline: string',
  '    level(enum): [low, normal, high]',
  '---',
  '{{role "system"}}',
  'You write for the public.',
  '{{role "user"}}',
  'Summarise {{characteristic}} = {{value}} at {{station}}.',
].join('\n');

const round = (n: number) => Math.round(n * 100) / 100;

async function measure(url: string, prompt: PromptFile, items: EvalItem[]): Promise<{ runner: number; raw: number }> {
  const connection = { baseUrl: url, apiKey: 'bench', retry: { maxAttempts: 1 } };
  const variants = [{ name: 'gemini-2.0-flash', model: 'gemini-2.0-flash' }];
  const requests = await Promise.all(items.map((i) => prompt.render(i.input)));
  const raw = async () => {
    const t0 = performance.now();
    for (const r of requests) {
      const res = await streamGenerateContent({ ...connection, model: `models/${r.model}`, request: r.request });
      if (res.error) throw new Error(res.error.message);
    }
    return performance.now() - t0;
  };
  const runner = async () => {
    const writer = await ResultsWriter.open(join(mkdtempSync(join(tmpdir(), 'eval-bench-')), 'out.jsonl'), 0);
    const t0 = performance.now();
    const r = await runEval({ prompt, items, variants, connection, concurrency: 1, onCell: (c) => writer.append(c) });
    const ms = performance.now() - t0;
    await writer.close();
    if (r.cells.some((c) => c.error || !c.assertions.every((a) => a.pass))) throw new Error('a cell failed');
    return ms;
  };
  await raw();
  await runner();
  const raws: number[] = [];
  const runners: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    raws.push(await raw());
    runners.push(await runner());
  }
  return { runner: Math.min(...runners) / items.length, raw: Math.min(...raws) / items.length };
}

const suite: BenchSuite = async () => {
  const { prompt } = await PromptFile.load(PROMPT);
  if (!prompt) throw new Error('the bench prompt does not load');
  const assertions = [
    parseAssertion({ type: 'contains', value: 'headline' }, prompt.outputSchema),
    parseAssertion({ type: 'regex', value: '"level": "(low|normal|high)"' }, prompt.outputSchema),
    parseAssertion({ type: 'json-schema' }, prompt.outputSchema),
  ];
  const items: EvalItem[] = Array.from({ length: CELLS }, (_, i) => ({
    index: i,
    input: { characteristic: 'Dissolved oxygen', value: i / 10, station: `Station ${i}` },
    assertions,
  }));
  const results: BenchResult[] = [];
  for (const delayMs of [20, 0]) {
    const server = await serve(delayMs);
    try {
      const m = await measure(server.url, prompt, items);
      const ratio = m.runner / m.raw;
      results.push({
        name: `eval: runner per cell ÷ raw request (server answers in ${delayMs} ms)`,
        ratio,
        goal: delayMs ? '<= 1.05' : 'report',
        met: delayMs ? ratio <= 1.05 : true,
        detail: { runnerMsPerCell: round(m.runner), rawMsPerCell: round(m.raw), cells: CELLS },
      });
    } finally {
      await server.close();
    }
  }
  return results;
};

export default suite;
