// Water-quality data figures, each a ratio measured in this run:
//  1. paging N pages from the emulator under its real 2 requests/s rule ÷ the limit's own (N−1)·0.5 s,
//     with zero rate-limit refusals;
//  2. the same for two clients with different API keys paging at the same time (the front end limits per
//     key, so each must reach the limit on its own): the slower of the two ÷ (N−1)·0.5 s, zero refusals;
//  3. peak memory of streaming 1,000,000 /Records rows to CSV ÷ that of 100,000 rows (constant memory).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createWaterDataEmulatorWith, type WaterEmulatorOptions } from '../../src/sandbox/waterData';
import { WaterClient } from '../../src/waterData/core/client';
import { collectRows } from '../../src/waterData/core/pager';
import { RateLimiter } from '../../src/waterData/core/rateLimiter';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';

const root = resolve(__dirname, '..', '..');
// A typical analysis export (a quarter of the 44 columns) keeps the 1M-row run within the bench time budget.
const EXPORT_COLUMNS = [
  'Id',
  'DOI',
  'MonitoringLocationID',
  'MonitoringLocationLatitude',
  'MonitoringLocationLongitude',
  'ActivityStartDate',
  'ActivityStartTime',
  'CharacteristicName',
  'ResultValue',
  'ResultUnit',
  'ResultDetectionCondition',
];

async function serve(options: Partial<WaterEmulatorOptions>) {
  const apiKey = 'bench-key';
  const otherKey = 'bench-key-2';
  let origin = '';
  const emulator = createWaterDataEmulatorWith({ extraApiKeys: [otherKey], ...options })({
    apiKey,
    accessToken: '',
    origin: () => origin,
  });
  const server = http.createServer(
    (req, res) => void Promise.resolve(emulator.handle(req, res, new URL(req.url ?? '/', origin))),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1/odata/v4`,
    apiKey,
    otherKey,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function pagingUnderLimit(): Promise<BenchResult> {
  const PAGES = SMOKE ? 3 : 24;
  const s = await serve({});
  try {
    // Warm the emulator's generated world with another limiter, then leave it the required pause.
    await collectRows(
      new WaterClient({ baseUrl: s.baseUrl, apiKey: s.apiKey, limiter: new RateLimiter() }),
      `${s.baseUrl}/Observations`,
      { maxRows: 1, pageSize: 1 },
    );
    await new Promise((r) => setTimeout(r, 600));
    let refusals = 0;
    const client = new WaterClient({
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
      limiter: new RateLimiter(),
      onRetry: () => refusals++,
    });
    const t0 = performance.now();
    const r = await collectRows(client, `${s.baseUrl}/Observations`, { maxRows: PAGES * 1000, pageSize: 1000 });
    const ms = performance.now() - t0;
    const limitMs = (PAGES - 1) * 500;
    const ratio = ms / limitMs;
    return {
      name: `waterData: paging ${PAGES} pages × 1000 rows under 2 req/s ÷ (N−1)·0.5 s`,
      ratio,
      goal: '<= 1.05, 0 refusals',
      met: ratio <= 1.05 && refusals === 0 && r.pages === PAGES,
      detail: { totalMs: ms, limitMs, pages: r.pages, rows: r.rows.length, refusals },
    };
  } finally {
    await s.close();
  }
}

export async function twoKeysPaging(): Promise<BenchResult> {
  const PAGES = SMOKE ? 3 : 24;
  const s = await serve({});
  try {
    await collectRows(
      new WaterClient({ baseUrl: s.baseUrl, apiKey: s.apiKey, limiter: new RateLimiter() }),
      `${s.baseUrl}/Observations`,
      { maxRows: 1, pageSize: 1 },
    );
    await new Promise((r) => setTimeout(r, 600));
    let refusals = 0;
    // Two users, two processes in real life: each has its own key and its own limiter.
    const runOne = async (apiKey: string) => {
      const client = new WaterClient({
        baseUrl: s.baseUrl,
        apiKey,
        limiter: new RateLimiter(),
        onRetry: () => refusals++,
      });
      const t0 = performance.now();
      const r = await collectRows(client, `${s.baseUrl}/Observations`, { maxRows: PAGES * 1000, pageSize: 1000 });
      return { ms: performance.now() - t0, pages: r.pages };
    };
    const [a, b] = await Promise.all([runOne(s.apiKey), runOne(s.otherKey)]);
    const limitMs = (PAGES - 1) * 500;
    const ratio = Math.max(a.ms, b.ms) / limitMs;
    return {
      name: `waterData: two keys paging ${PAGES} pages each at once, slower ÷ (N−1)·0.5 s`,
      ratio,
      goal: '<= 1.05, 0 refusals',
      met: ratio <= 1.05 && refusals === 0 && a.pages === PAGES && b.pages === PAGES,
      detail: { aMs: a.ms, bMs: b.ms, limitMs, refusals },
    };
  } finally {
    await s.close();
  }
}

/** Streams `rows` Records rows to CSV in a child process; returns its peak resident memory (VmHWM). */
function csvPeak(
  baseUrl: string,
  apiKey: string,
  rows: number,
): Promise<{ peakKb: number; ms: number; lines: number }> {
  const code = `
    const { WaterClient } = require(${JSON.stringify(resolve(root, 'src/waterData/core/client.ts'))});
    const { RateLimiter } = require(${JSON.stringify(resolve(root, 'src/waterData/core/rateLimiter.ts'))});
    const { streamCsv, writableSink } = require(${JSON.stringify(resolve(root, 'src/waterData/core/stream.ts'))});
    const fs = require('node:fs');
    const out = fs.createWriteStream('/dev/null');
    let lines = 0;
    const sink = writableSink(out);
    const counting = { write: (c) => { lines += c.split('\\r\\n').length - 1; return sink.write(c); } };
    const client = new WaterClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(apiKey)}, limiter: new RateLimiter({ minIntervalMs: 0 }) });
    const t0 = Date.now();
    streamCsv(client, { entitySet: 'Records', select: ${JSON.stringify(EXPORT_COLUMNS)} }, counting, { maxRows: ${rows}, partition: false, pageSize: 10000 })
      .then(() => { process.stdout.write(JSON.stringify({ ms: Date.now() - t0, lines }) + '\\n'); out.end(); });
  `;
  return new Promise((resolvePeak, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let peakKb = 0;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        /* exited */
      }
    }, 50);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (codeNum) => {
      clearInterval(poll);
      if (codeNum !== 0) return reject(new Error(`CSV child exited ${codeNum}`));
      const last = out.trim().split('\n').pop() ?? '';
      const r: unknown = JSON.parse(last);
      const { ms, lines } = (r ?? {}) as { ms?: unknown; lines?: unknown };
      if (typeof ms !== 'number' || typeof lines !== 'number') return reject(new Error(`CSV child said: ${last}`));
      resolvePeak({ peakKb, ms, lines });
    });
  });
}

const SMALL_ROWS = SMOKE ? 2_000 : 100_000;
const LARGE_ROWS = SMOKE ? 20_000 : 1_000_000;

async function csvMemory(): Promise<BenchResult> {
  // Rate limit off on both sides: this figure is about memory, not time.
  const s = await serve({ minIntervalMs: 0, latencyMs: 0, observations: LARGE_ROWS + 100_000 });
  try {
    const small = await csvPeak(s.baseUrl, s.apiKey, SMALL_ROWS);
    const large = await csvPeak(s.baseUrl, s.apiKey, LARGE_ROWS);
    const ratio = large.peakKb / small.peakKb;
    return {
      name: `waterData: Records → CSV (11 columns) peak memory, ${LARGE_ROWS.toLocaleString('en-US')} ÷ ${SMALL_ROWS.toLocaleString('en-US')} rows`,
      ratio,
      goal: '<= 1.2',
      met: ratio <= 1.2 && large.lines === LARGE_ROWS + 1 && small.lines === SMALL_ROWS + 1,
      detail: { peakMb1M: large.peakKb / 1024, peakMb100k: small.peakKb / 1024, ms1M: large.ms, ms100k: small.ms },
    };
  } finally {
    await s.close();
  }
}

const suite: BenchSuite = async () => [await pagingUnderLimit(), await twoKeysPaging(), await csvMemory()];
export default suite;
