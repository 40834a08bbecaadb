// Synthetic evaluation runs for the results grid's harness: items × variants with Markdown and JSON replies,
// failed assertions, errors, safety ratings and long outputs, generated the same way every time.
import type { RunMeta } from '../../../src/generation/core/eval/grid';
import type { CellResult } from '../../../src/generation/core/eval/runner';
import type { GridInit } from '../../../src/generation/evalGridProtocol';

const STATIONS = ['Golden Gate', 'Lake Tahoe', 'Mono Lake', 'Russian River', 'Klamath', 'Salton Sea', 'Eel River'];

function reply(i: number, v: number, long: boolean): string {
  const station = STATIONS[(i + v) % STATIONS.length];
  if ((i + v) % 5 === 0)
    return JSON.stringify({ headline: `Water at ${station} is clear`, level: ['low', 'normal', 'high'][i % 3] });
  const body = [
    `**${station}**: dissolved oxygen ${(7 + ((i * 13 + v) % 30) / 10).toFixed(1)} mg/L, pH ${(6.8 + ((i + v) % 9) / 10).toFixed(1)}.`,
    '',
    '- temperature within the seasonal range',
    `- turbidity ${(i % 4) + 1} NTU`,
  ];
  if (long)
    for (let k = 0; k < 40; k++)
      body.push(`Paragraph ${k + 1}: the readings at ${station} stayed steady through the week.`);
  return body.join('\n');
}

export function gridRun(items: number, variants: string[], opts: { long?: boolean; running?: boolean } = {}): GridInit {
  const meta: RunMeta = {
    version: 1,
    prompt: 'samples/generation/station-summary.prompt',
    dataset: 'samples/generation/stations.jsonl',
    variants,
    items: Array.from({ length: items }, (_, index) => ({
      index,
      label: `station=${STATIONS[index % STATIONS.length]}, characteristic=pH, value=${(7 + (index % 10) / 10).toFixed(1)}`,
    })),
    startedAt: '2026-11-29T01:00:00.000Z',
    concurrency: 4,
  };
  const cells: CellResult[] = [];
  for (let i = 0; i < items; i++)
    variants.forEach((variant, v) => {
      const failed = (i * 7 + v) % 11 === 0;
      const error = (i * 3 + v) % 37 === 5;
      cells.push({
        item: i,
        variant,
        output: error ? '' : reply(i, v, !!opts.long && i % 3 === 1),
        finishReason: error ? null : (i + v) % 23 === 0 ? 'MAX_TOKENS' : 'STOP',
        usage: error
          ? {}
          : { promptTokenCount: 40 + (i % 9), candidatesTokenCount: 20 + ((i * v) % 30), totalTokenCount: 70 },
        latencyMs: 200 + ((i * 37 + v * 11) % 900),
        ttftMs: error ? null : 60 + ((i * 13 + v) % 200),
        attempts: 1,
        assertions: error
          ? [{ type: 'contains', pass: false, reason: 'no reply (the request failed)' }]
          : [
              { type: 'contains', pass: !failed, reason: failed ? 'does not contain "pH"' : undefined },
              { type: 'max-latency-ms', pass: true },
            ],
        error: error
          ? { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' }
          : null,
        requestHash: 'x',
        ...((i + v) % 29 === 3
          ? { safety: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'LOW' }] }
          : {}),
      });
    });
  return {
    meta,
    cells: opts.running ? cells.slice(0, Math.floor(cells.length / 3)) : cells,
    progress: {
      done: opts.running ? Math.floor(cells.length / 3) : cells.length,
      total: cells.length,
      running: !!opts.running,
    },
    source: '.api-workbench/evals/station-summary/2026-11-29T01-00-00-000Z.jsonl',
    testAcks: false,
  };
}
