// OpenAPI export (issue 14): converting the largest discovery document ÷ JSON.parse of the same text, goal
// <= 10. The issue names compute.beta; the shared data does not hold it, so the largest document it does
// hold (aiplatform.v1beta1, 4 MB) stands in, as in discovery-host.bench.ts. Each run times JSON.parse and
// parse + conversion back to back (one pair sees the same load); the figure is the median per-run ratio.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { toOpenApi } from '../../src/discovery/core/openapi';
import { SMOKE } from './smoke';
import type { BenchSuite } from './types';

const DATA = process.env.API_WORKBENCH_DATA
  ? join(process.env.API_WORKBENCH_DATA, 'discovery')
  : resolve(__dirname, '../../../shared/data/discovery');
const RUNS = SMOKE ? 1 : 9;
const round = (n: number) => Math.round(n * 100) / 100;

const suite: BenchSuite = () => {
  // BENCH_DISCOVERY_DOCUMENT=<path> converts another document, e.g. compute.beta.json from the peer venv.
  const chosen = process.env.BENCH_DISCOVERY_DOCUMENT;
  const largest = chosen
    ? { f: basename(chosen), size: statSync(chosen).size, path: chosen }
    : readdirSync(DATA)
        .filter((f) => f.endsWith('.json') && f !== 'directory-list.json')
        .map((f) => ({ f, size: statSync(join(DATA, f)).size, path: join(DATA, f) }))
        .sort((a, b) => b.size - a.size)[0];
  const text = readFileSync(largest.path, 'utf8');
  const ratios: number[] = [];
  const detail: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    let t0 = performance.now();
    JSON.parse(text);
    const parseMs = performance.now() - t0;
    t0 = performance.now();
    const { document } = toOpenApi(JSON.parse(text), '3.1');
    const oursMs = performance.now() - t0;
    if (!document.paths) throw new Error('no paths');
    ratios.push(oursMs / parseMs);
    detail.push(`${round(oursMs / parseMs)} (${round(oursMs)}/${round(parseMs)})`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const ratio = round(sorted[sorted.length >> 1]);
  return Promise.resolve([
    {
      name: `openapi: export ${largest.f} (parse + convert) vs JSON.parse`,
      ratio,
      goal: '<= 10',
      met: ratio <= 10,
      detail: { document: largest.f, bytes: largest.size, runs: detail.join(' ') },
    },
  ]);
};

export default suite;
