// Folder sync (issue 25), ratios measured in the same run:
// 1. a sync with nothing to do over 10,000 files in 500 folders (in-process emulator) — its store requests
//    against the limit of 5, and its time against a plain stat walk of the same local tree (readdir + lstat);
// 2. the first sync of 1 GB in 1,000 files, upload and download, against the raw transfer of as many bytes
//    through the same StorageClient at the same concurrency (plain uploads of a tree of the same shape into one
//    folder; plain media downloads of the synced items, streamed to files): raw time ÷ sync time, i.e. the
//    sync's share of the raw throughput. The disk is flushed before each side, and odd passes run the raw side
//    first, even passes the sync;
// 3. the peak memory of `api-workbench sync` (dist/cli.js, its own process, launched as its first line says) at
//    100,000 files: a dry-run first plan (100,000 uploads), the first real run (both sides hold the same files:
//    100,000 records) and a run with nothing to do. The figure is the kernel's high-water mark of the process's resident set (ru_maxrss: all
//    of Node included), against 150 MB.
// 2 and 3 run against a sandbox in a child process (its memory is not the client's); all data lives under
// the temporary folder and is removed at the end.
// The throughput rows move by ±30 % from one pass to the next on a shared machine: SYNC_BENCH_REPEAT=N (default
// 3) runs N passes of 2 (new trees of new bytes each time) and reports the median; the no-op rows are the
// median of RUNS passes. Every pass's figure is in the row's detail (`passes`), with the CPU time both
// processes (ours and the sandbox's) spent in the median pass: on 2 cores the transfers keep both busy, so
// what the sync does beyond the raw transfer (checking every download's md5) shows there as time.
import { spawn, spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FOLDER_MIME } from '../../src/shared/wire/storage';
import { StorageClient } from '../../src/storage/core/client';
import { bodyStream } from '../../src/storage/core/download';
import { syncFolder } from '../../src/storage/core/sync/engine';
import { fileSource, upload } from '../../src/storage/core/upload';
import { startStorage } from '../unit/storage/emulatorHarness';
import { startLink } from '../unit/storage/syncHarness';
import { startChildSandbox } from './childSandbox';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';

const FOLDERS = SMOKE ? 25 : 500;
const PER_FOLDER = 20;
const RUNS = SMOKE ? 1 : 5;
/** Passes of the throughput rows (SYNC_BENCH_REPEAT): 3 keeps the whole sync bench near 6 minutes. */
const REPEAT = SMOKE ? 1 : Math.max(1, Number(process.env.SYNC_BENCH_REPEAT ?? 3) || 1);
/** Throughput: files of 1 MiB in folders of 100. */
const BIG_FILES = SMOKE ? 16 : 1000;
const FILE_BYTES = 1024 * 1024;
const CONCURRENCY = 4;
/** Memory: this many files in one folder (the sandbox seeds them in one request). */
const MANY = SMOKE ? 2000 : 100_000;
const MEMORY_LIMIT = 150 * 1024 * 1024;
const ROOT = path.resolve(__dirname, '..', '..');

async function statWalk(dir: string): Promise<number> {
  let n = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of await fsp.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      await fsp.lstat(p, { bigint: true });
      n++;
      if (e.isDirectory()) stack.push(p);
    }
  }
  return n;
}

/** The middle value (of an even count, the mean of the two middle ones). */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Every pass's figure, in the order run, for a row's detail. */
const passes = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Runs `work` over `items`, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function noOpRows(): Promise<BenchResult[]> {
  const h = await startStorage();
  const k = await startLink(h);
  try {
    for (let f = 0; f < FOLDERS; f++) {
      const dir = path.join(k.localDir, `folder ${f}`);
      fs.mkdirSync(dir);
      for (let i = 0; i < PER_FOLDER; i++) fs.writeFileSync(path.join(dir, `file ${i}.txt`), `${f}/${i}\n`);
    }
    const opts = { client: k.client, localDir: k.localDir, storeFolderId: k.folderId, concurrency: 8 };
    const errors: string[] = [];
    const first = await syncFolder({
      ...opts,
      onEvent: (e) => void (e.action === 'error' && errors.push(`${e.path}: ${e.reason}`)),
    });
    if (first.summary.errors) throw new Error(`the first sync had ${first.summary.errors} errors: ${errors[0]}`);
    // Old enough that no entry is "racy" (recorded within 3 s of the file's time): a steady state.
    await new Promise((r) => setTimeout(r, SMOKE ? 0 : 3500));
    await syncFolder(opts);
    const syncMs: number[] = [];
    const walkMs: number[] = [];
    const requests: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await statWalk(k.localDir);
      walkMs.push(performance.now() - t);
      const before = k.requests();
      t = performance.now();
      const r = await syncFolder(opts);
      syncMs.push(performance.now() - t);
      requests.push(k.requests() - before);
      if (r.plan.actions.length) throw new Error('a sync with nothing to do planned actions');
    }
    const files = FOLDERS * PER_FOLDER;
    const most = Math.max(...requests);
    const ratios = syncMs.map((s, i) => s / walkMs[i]);
    const ratio = median(ratios);
    return [
      {
        name: `sync: no-op run over ${files} files in ${FOLDERS} folders, store requests vs 5`,
        ratio: most / 5,
        goal: '<= 1',
        met: most <= 5,
        detail: { requests: most, passes: requests.join(' ') },
      },
      {
        name: `sync: no-op run over ${files} files in ${FOLDERS} folders vs a stat walk`,
        ratio,
        goal: '<= 2',
        met: ratio <= 2,
        detail: { syncMs: median(syncMs), walkMs: median(walkMs), passes: passes(ratios) },
      },
    ];
  } finally {
    await k.close();
    await h.close();
  }
}

/** CPU time (ms) of this process and of the sandbox's, whose figures only Linux gives (`/proc`); 0 elsewhere. */
function cpuMs(childPid: number | undefined): number {
  const own = process.cpuUsage();
  let child = 0;
  try {
    // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second on Linux).
    const fields = fs.readFileSync(`/proc/${childPid}/stat`, 'utf8').split(') ')[1].split(' ');
    child = (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    // Not Linux, or the sandbox has gone: its share is left out.
  }
  return (own.user + own.system) / 1000 + child;
}

async function newFolder(client: StorageClient, title: string): Promise<string> {
  const f = await client.call('files.insert', {}, { title, mimeType: FOLDER_MIME, parents: [{ id: 'root' }] });
  return f.id!;
}

/** Writes back every dirty page (ours and the sandbox's) so that no pass pays for the one before it. */
function flushDisk(): void {
  spawnSync('sync');
}

/** One pass: raw and sync upload, raw and sync download, each of a tree of new bytes. */
async function throughputPass(client: StorageClient, work: string, pass: number, cpu: () => number) {
  // Two trees of the same shape with different bytes: the sandbox keeps contents by checksum, so sending the
  // same bytes twice would let the second pass skip writing them.
  const tree = (name: string) => {
    const dir = path.join(work, name);
    const block = Buffer.alloc(FILE_BYTES);
    const files: string[] = [];
    for (let i = 0; i < BIG_FILES; i++) {
      const rel = `part ${Math.floor(i / 100)}/file ${i}.bin`;
      fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), randomFillSync(block));
      files.push(rel);
    }
    return { dir, files };
  };
  const raw = tree('raw upload');
  const src = tree('upload');

  // Each side's time and CPU from a flushed disk. Odd passes run the raw transfer first, even passes the sync:
  // neither always follows the other's writes.
  interface Side {
    before?: () => void;
    run: () => Promise<void>;
    /** Untimed: removes what the side wrote. */
    after?: () => void;
  }
  const timed = async (side: Side) => {
    side.before?.();
    flushDisk();
    const c = cpu();
    const t = performance.now();
    await side.run();
    const took = { ms: performance.now() - t, cpu: cpu() - c };
    side.after?.();
    return took;
  };
  const bothWays = async (rawSide: Side, syncSide: Side) => {
    if (pass % 2) {
      const r = await timed(rawSide);
      return { raw: r, sync: await timed(syncSide) };
    }
    const y = await timed(syncSide);
    return { raw: await timed(rawSide), sync: y };
  };

  // Up: plain uploads of one tree's files into one folder, and the first sync of the other tree.
  const rawFolder = await newFolder(client, `bench raw upload ${pass}`);
  const syncFolderId = await newFolder(client, `bench sync ${pass}`);
  const up = await bothWays(
    {
      run: () =>
        pool(raw.files, CONCURRENCY, async (rel) => {
          await upload(client, fileSource(path.join(raw.dir, rel)), {
            metadata: { title: path.basename(rel), parents: [{ id: rawFolder }] },
          });
        }),
    },
    {
      run: async () => {
        const r = await syncFolder({
          client,
          localDir: src.dir,
          storeFolderId: syncFolderId,
          concurrency: CONCURRENCY,
        });
        if (r.summary.errors || r.summary.counts.upload !== BIG_FILES)
          throw new Error(`the first sync uploaded ${r.summary.counts.upload} files with ${r.summary.errors} errors`);
      },
    },
  );

  // Down, the same items both ways: plain media downloads streamed to files, and the first sync of the store
  // folder into an empty local folder. What the first side wrote is removed before the second runs.
  const items: { id: string; rel: string }[] = [];
  for (const part of await client.listAllFiles({
    q: `'${syncFolderId}' in parents and trashed = false`,
    fields: 'nextPageToken,items(id,title)',
  }))
    for (const f of await client.listAllFiles({
      q: `'${part.id!}' in parents and trashed = false`,
      maxResults: 1000,
      fields: 'nextPageToken,items(id,title)',
    }))
      items.push({ id: f.id!, rel: `${part.title!}/${f.title!}` });
  if (items.length !== BIG_FILES) throw new Error(`listed ${items.length} synced files`);
  const rawDir = path.join(work, 'raw download');
  const dst = path.join(work, 'download');
  const down = await bothWays(
    {
      before: () => {
        for (const part of new Set(items.map((i) => path.dirname(i.rel))))
          fs.mkdirSync(path.join(rawDir, part), { recursive: true });
      },
      run: () =>
        pool(items, CONCURRENCY, async (f) => {
          const res = await client.media(f.id);
          await pipeline(bodyStream(res), fs.createWriteStream(path.join(rawDir, f.rel)));
        }),
      after: () => fs.rmSync(rawDir, { recursive: true, force: true }),
    },
    {
      before: () => fs.mkdirSync(dst),
      run: async () => {
        const r = await syncFolder({ client, localDir: dst, storeFolderId: syncFolderId, concurrency: CONCURRENCY });
        if (r.summary.errors || r.summary.counts.download !== BIG_FILES)
          throw new Error(
            `the first sync downloaded ${r.summary.counts.download} files with ${r.summary.errors} errors`,
          );
      },
      after: () => fs.rmSync(dst, { recursive: true, force: true }),
    },
  );
  for (const d of [raw.dir, src.dir]) fs.rmSync(d, { recursive: true, force: true });

  return {
    rawUpMs: up.raw.ms,
    syncUpMs: up.sync.ms,
    rawDownMs: down.raw.ms,
    syncDownMs: down.sync.ms,
    rawUpCpu: up.raw.cpu,
    syncUpCpu: up.sync.cpu,
    rawDownCpu: down.raw.cpu,
    syncDownCpu: down.sync.cpu,
  };
}

/** REPEAT passes of the first sync up and down; each row is the median pass, with every pass's ratio. */
async function throughputRows(client: StorageClient, work: string, cpu: () => number): Promise<BenchResult[]> {
  const runs: Awaited<ReturnType<typeof throughputPass>>[] = [];
  for (let pass = 1; pass <= REPEAT; pass++) runs.push(await throughputPass(client, work, pass, cpu));
  const total = BIG_FILES * FILE_BYTES;
  const row = (
    dir: string,
    times: { rawMs: number; syncMs: number; rawCpu: number; syncCpu: number }[],
  ): BenchResult => {
    const ratios = times.map((t) => t.rawMs / t.syncMs);
    const ratio = median(ratios);
    const mid = times[ratios.indexOf(ratio)] ?? times[0];
    const syncMs = median(times.map((t) => t.syncMs));
    const rawMs = median(times.map((t) => t.rawMs));
    return {
      name: `sync: first sync ${dir} of ${mb(total)} MB in ${BIG_FILES} files, throughput ÷ raw ${dir}s`,
      ratio,
      goal: '>= 0.8',
      met: ratio >= 0.8,
      detail: {
        passes: passes(ratios),
        syncMs: Math.round(syncMs),
        rawMs: Math.round(rawMs),
        syncMBps: Math.round(mb(total) / (syncMs / 1000)),
        rawMBps: Math.round(mb(total) / (rawMs / 1000)),
        ...(ratios.length % 2 ? { syncCpuMs: Math.round(mid.syncCpu), rawCpuMs: Math.round(mid.rawCpu) } : {}),
        concurrency: CONCURRENCY,
      },
    };
  };
  return [
    row(
      'upload',
      runs.map((r) => ({ rawMs: r.rawUpMs, syncMs: r.syncUpMs, rawCpu: r.rawUpCpu, syncCpu: r.syncUpCpu })),
    ),
    row(
      'download',
      runs.map((r) => ({ rawMs: r.rawDownMs, syncMs: r.syncDownMs, rawCpu: r.rawDownCpu, syncCpu: r.syncDownCpu })),
    ),
  ];
}

interface Peak {
  maxRss: number;
  heapPeak: number;
  heapTotalPeak: number;
  externalPeak: number;
  ms: number;
  stdout: string;
}

/**
 * How the built CLI's first line runs it (`#!/usr/bin/env -S VAR=value node --flag…`): the variables it sets and
 * Node's flags, so the bench measures the process a user's `api-workbench` is.
 */
function launchOf(cli: string): { env: Record<string, string>; flags: string[] } {
  const first = fs.readFileSync(cli, 'utf8').split('\n', 1)[0];
  const words = first
    .replace(/^#!\s*\S*env\s+(-S\s+)?/, '')
    .trim()
    .split(/\s+/);
  const env: Record<string, string> = {};
  for (let w = words[0]; w !== undefined && /^[A-Za-z_]\w*=/.test(w); w = words[0]) {
    words.shift();
    env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  }
  if (words.shift() !== 'node') throw new Error(`dist/cli.js does not start Node: ${first}`);
  return { env, flags: words };
}

/** Runs the built CLI in its own process, as its first line does, and reads its peak memory. */
async function cliPeak(args: string[], env: Record<string, string>, work: string): Promise<Peak> {
  const file = path.join(work, `peak-${Math.random().toString(36).slice(2)}.json`);
  const cli = path.join(ROOT, 'dist/cli.js');
  const launch = launchOf(cli);
  const child = spawn(
    process.execPath,
    [
      ...launch.flags,
      ...(process.env.CLI_FLAGS ? process.env.CLI_FLAGS.split(' ') : []),
      '--require',
      path.join(ROOT, 'test/bench/peakMemory.cjs'),
      cli,
      ...args,
    ],
    { env: { ...process.env, ...launch.env, ...env, PEAK_MEMORY_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  // Only the last lines are kept: a dry run prints one line per planned action.
  child.stdout.on('data', (d: Buffer) => (stdout = (stdout + d.toString()).slice(-4096)));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const t = performance.now();
  const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  const ms = performance.now() - t;
  if (code !== 0) throw new Error(`api-workbench ${args.join(' ')} exited ${code}: ${stderr.slice(0, 2000)}`);
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<Peak, 'ms' | 'stdout'>;
  return { ...parsed, ms, stdout };
}

function summaryOf(stdout: string): { counts: Record<string, number>; errors: number } {
  const last = stdout.trim().split('\n').pop() ?? '';
  return (JSON.parse(last) as { summary: { counts: Record<string, number>; errors: number } }).summary;
}

async function memoryRows(client: StorageClient, origin: string, token: string, work: string): Promise<BenchResult[]> {
  const seeded = await client.transport.json<{ id: string }>({
    method: 'POST',
    url: `${origin}/store/v2/__sandbox/seedFolder`,
    json: { title: 'bench sync many', count: MANY },
  });
  // The same files on disk as the sandbox seeds: item-NNNNNN.txt holding its own name and a newline.
  const local = path.join(work, 'many');
  fs.mkdirSync(local);
  for (let i = 1; i <= MANY; i++) {
    const name = `item-${String(i).padStart(6, '0')}.txt`;
    fs.writeFileSync(path.join(local, name), `${name}\n`);
  }
  // Not "racy" (recorded within 3 s of the files' times): the first run records every file as settled.
  await new Promise((r) => setTimeout(r, 3500));
  const env = { API_WORKBENCH_STORAGE_BASE_URL: origin, API_WORKBENCH_STORAGE_TOKEN: token };
  const empty = await newFolder(client, 'bench sync empty');
  const baseline = await cliPeak(['sync', '--help'], env, work);
  const plan = await cliPeak(['sync', '--json', '--dry-run', local, empty], env, work);
  const planned = summaryOf(plan.stdout);
  if (planned.counts.upload !== MANY) throw new Error(`the first plan uploads ${planned.counts.upload} files`);
  const first = await cliPeak(['sync', '--json', local, seeded.id], env, work);
  const firstSummary = summaryOf(first.stdout);
  if (Object.keys(firstSummary.counts).length || firstSummary.errors)
    throw new Error(`the first run over equal sides did ${JSON.stringify(firstSummary)}`);
  const noop = await cliPeak(['sync', '--json', local, seeded.id], env, work);
  const noopSummary = summaryOf(noop.stdout);
  if (Object.keys(noopSummary.counts).length || noopSummary.errors)
    throw new Error(`the no-op run did ${JSON.stringify(noopSummary)}`);
  const row = (what: string, p: Peak): BenchResult => ({
    name: `sync: peak RSS of api-workbench sync at ${MANY} files, ${what} ÷ 150 MB`,
    ratio: p.maxRss / MEMORY_LIMIT,
    goal: '<= 1',
    met: p.maxRss <= MEMORY_LIMIT,
    detail: {
      maxRssMB: mb(p.maxRss),
      heapPeakMB: mb(p.heapPeak),
      heapTotalPeakMB: mb(p.heapTotalPeak),
      externalPeakMB: mb(p.externalPeak),
      ms: Math.round(p.ms),
      nodeRssMB: mb(baseline.maxRss),
    },
  });
  return [row('first plan (dry run)', plan), row('first run, sides equal', first), row('no-op run', noop)];
}

/** `SYNC_BENCH=throughput,memory` runs only those parts (noop, throughput, memory); default all. */
const PARTS = new Set((process.env.SYNC_BENCH ?? 'noop,throughput,memory').split(','));

const suite: BenchSuite = async () => {
  const results = PARTS.has('noop') ? await noOpRows() : [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-sync-bench-'));
  const { info, child } = await startChildSandbox({ blobDir: path.join(work, 'blobs') });
  try {
    const client = new StorageClient({ baseUrl: info.storage, auth: { token: () => info.accessToken } });
    if (!fs.existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/cli.js is missing: npm run build first');
    if (PARTS.has('throughput')) results.push(...(await throughputRows(client, work, () => cpuMs(child.pid))));
    if (PARTS.has('memory')) results.push(...(await memoryRows(client, info.storage, info.accessToken, work)));
    return results;
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
};

export default suite;
