// Water-quality data figures, each a ratio measured in this run:
//  1. paging N pages from the emulator under its real 2 requests/s rule ÷ the limit's own (N−1)·0.5 s,
//     with zero rate-limit refusals;
//  2. the same for two clients with different API keys paging at the same time (the front end limits per
//     key, so each must reach the limit on its own): the slower of the two ÷ (N−1)·0.5 s, zero refusals;
//  3. peak memory of streaming 1,000,000 /Records rows to CSV ÷ that of 100,000 rows (constant memory), the
//     median of alternating runs of each.
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

/** One CSV child's figures: peak resident memory while streaming (VmHWM), and what stays after a GC. */
type CsvSample = {
  peakKb: number;
  baseKb: number;
  retainedKb: number;
  heapRetainedKb: number;
  ms: number;
  lines: number;
};

/**
 * Streams `rows` Records rows to CSV in a child process. The child loads its modules and collects garbage
 * before it resets its peak (/proc/self/clear_refs), so the peak is that of the export alone on top of the
 * same idle process, not of whatever loading the modules left for a later collection; the parent also polls
 * the peak while it runs. Retained memory is read after a final collection.
 */
function csvRun(baseUrl: string, apiKey: string, rows: number): Promise<CsvSample> {
  const code = `
    const { WaterClient } = require(${JSON.stringify(resolve(root, 'src/waterData/core/client.ts'))});
    const { RateLimiter } = require(${JSON.stringify(resolve(root, 'src/waterData/core/rateLimiter.ts'))});
    const { streamCsv, writableSink } = require(${JSON.stringify(resolve(root, 'src/waterData/core/stream.ts'))});
    const fs = require('node:fs');
    const kb = (field) => Number(new RegExp(field + ':\\\\s+(\\\\d+)').exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
    const out = fs.createWriteStream('/dev/null');
    let lines = 0;
    const sink = writableSink(out);
    const counting = { write: (c) => { for (let i = c.indexOf('\\r\\n'); i >= 0; i = c.indexOf('\\r\\n', i + 2)) lines++; return sink.write(c); } };
    const client = new WaterClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(apiKey)}, limiter: new RateLimiter({ minIntervalMs: 0 }) });
    global.gc();
    fs.writeFileSync('/proc/self/clear_refs', '5');
    const baseKb = kb('VmRSS');
    process.stdout.write('STARTED\\n');
    const t0 = Date.now();
    streamCsv(client, { entitySet: 'Records', select: ${JSON.stringify(EXPORT_COLUMNS)} }, counting, { maxRows: ${rows}, partition: false, pageSize: 10000 })
      .then(() => new Promise((r) => out.end(r)))
      .then(() => {
        const ms = Date.now() - t0;
        const peakKb = kb('VmHWM');
        global.gc();
        const retainedKb = kb('VmRSS');
        const heapRetainedKb = process.memoryUsage().heapUsed / 1024;
        process.stdout.write(JSON.stringify({ ms, lines, baseKb, peakKb, retainedKb, heapRetainedKb }) + '\\n');
      });
  `;
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '-e', code], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let polledKb = 0;
    let started = false;
    const poll = setInterval(() => {
      if (!started) return;
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) polledKb = Math.max(polledKb, Number(m[1]));
      } catch {
        /* exited */
      }
    }, 50);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      started ||= out.includes('STARTED\n');
    });
    child.on('exit', (codeNum) => {
      clearInterval(poll);
      if (codeNum !== 0) return reject(new Error(`CSV child exited ${codeNum}`));
      const last = out.trim().split('\n').pop() ?? '';
      const r = JSON.parse(last) as Partial<Record<keyof CsvSample, unknown>> | null;
      const nums = ['ms', 'lines', 'baseKb', 'peakKb', 'retainedKb', 'heapRetainedKb'] as const;
      if (!r || nums.some((k) => typeof r[k] !== 'number')) return reject(new Error(`CSV child said: ${last}`));
      const s = r as CsvSample;
      resolveRun({ ...s, peakKb: Math.max(s.peakKb, polledKb) });
    });
  });
}

const SMALL_ROWS = SMOKE ? 2_000 : 100_000;
const LARGE_ROWS = SMOKE ? 20_000 : 1_000_000;
/** Runs of each size, alternating: one run's peak depends on when its collections happened to fall. */
const CSV_RUNS = SMOKE ? 1 : 3;

async function csvMemory(): Promise<BenchResult> {
  // Rate limit off on both sides: this figure is about memory, not time.
  const s = await serve({ minIntervalMs: 0, latencyMs: 0, observations: LARGE_ROWS + 100_000 });
  try {
    const small: CsvSample[] = [];
    const large: CsvSample[] = [];
    for (let i = 0; i < CSV_RUNS; i++) {
      small.push(await csvRun(s.baseUrl, s.apiKey, SMALL_ROWS));
      large.push(await csvRun(s.baseUrl, s.apiKey, LARGE_ROWS));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const mb = (kb: number) => Math.round(kb / 102.4) / 10;
    const peakSmall = median(small.map((x) => x.peakKb));
    const peakLarge = median(large.map((x) => x.peakKb));
    const ratio = peakLarge / peakSmall;
    const allLines = large.every((x) => x.lines === LARGE_ROWS + 1) && small.every((x) => x.lines === SMALL_ROWS + 1);
    return {
      name: `waterData: Records → CSV (11 columns) peak memory, ${LARGE_ROWS.toLocaleString('en-US')} ÷ ${SMALL_ROWS.toLocaleString('en-US')} rows`,
      ratio,
      goal: '<= 1.2',
      met: ratio <= 1.2 && allLines,
      detail: {
        runs: CSV_RUNS,
        // Medians; every run's peak, start (after a GC) and retained (after the export and a GC), in MB:
        peakMb1M: mb(peakLarge),
        peakMb100k: mb(peakSmall),
        peaks1M: large.map((x) => mb(x.peakKb)).join('/'),
        peaks100k: small.map((x) => mb(x.peakKb)).join('/'),
        startMb: [...small, ...large].map((x) => mb(x.baseKb)).join('/'),
        retainedMb1M: large.map((x) => mb(x.retainedKb)).join('/'),
        retainedMb100k: small.map((x) => mb(x.retainedKb)).join('/'),
        heapRetainedMb1M: large.map((x) => mb(x.heapRetainedKb)).join('/'),
        heapRetainedMb100k: small.map((x) => mb(x.heapRetainedKb)).join('/'),
        ms1M: median(large.map((x) => x.ms)),
        ms100k: median(small.map((x) => x.ms)),
      },
    };
  } finally {
    await s.close();
  }
}

const suite: BenchSuite = async () => [await pagingUnderLimit(), await twoKeysPaging(), await csvMemory()];
export default suite;
