// The storage sandbox's durable store, measured against itself at another size or without durability, and
// against the other candidate design (rewriting the whole state at each commit), in the same run:
// 1. PATCH p50 with 20,000 files ÷ with 500 files (a write costs the change, not the store);
// 2. GET p99 while 10 clients write, 20,000 files, ÷ 100 ms;
// 3. acknowledged writes per second from 10 clients ÷ the same with durability off (single-client latency beside);
// 4. one commit at 20,000 files: the journal (PATCH p50) ÷ writing the whole state and syncing it (the candidate).
// The sandbox runs in a child process with its own data folder, as `api-workbench sandbox --data` does.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';
import { readDurableState } from '../../src/sandbox/storage/durable/durableStore';
import { writeSnapshotSync } from '../../src/sandbox/storage/durable/snapshot';

const BIG = SMOKE ? 2_000 : 20_000;
const SMALL = 500;
const PATCHES = SMOKE ? 40 : 300;
const LOAD_SECONDS = SMOKE ? 1 : 5;
const WRITERS = 10;

interface Child {
  url: string;
  token: string;
  dir: string;
  child: ChildProcess;
}

async function startChild(durability: 'fsync' | 'off'): Promise<Child> {
  const root = path.resolve(__dirname, '..', '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-store-'));
  const code = `const { startSandbox } = require(${JSON.stringify(path.join(root, 'src/sandbox/server.ts'))});
startSandbox({ dataDir: ${JSON.stringify(dir)}, durability: ${JSON.stringify(durability)} }).then((s) =>
  console.log(JSON.stringify({ url: s.url, token: s.accessToken })));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--max-old-space-size=4096', '-e', code], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { url: string; token: string });
    });
    child.once('exit', (c) => reject(new Error(`sandbox exited with ${c}`)));
  });
  return { ...info, dir, child };
}

async function stop(c: Child): Promise<void> {
  const exited = new Promise((resolve) => c.child.once('exit', resolve));
  c.child.kill('SIGTERM');
  await exited;
  fs.rmSync(c.dir, { recursive: true, force: true });
}

async function call(c: Child, method: string, p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(c.url + p, {
    method,
    headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A folder of `count` files, and ids of files to write to (one per writer). */
async function seed(c: Child, count: number): Promise<string[]> {
  await call(c, 'POST', '/store/v2/__sandbox/seedFolder', { title: 'bench', count });
  const ids: string[] = [];
  for (let i = 0; i < WRITERS; i++)
    ids.push((await call(c, 'POST', '/store/v2/files', { title: `w${i}` })).id as string);
  return ids;
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function patchLatencies(c: Child, id: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(c, 'PATCH', `/store/v2/files/${id}`, { description: `d${i}` });
    out.push(performance.now() - t);
  }
  return out;
}

/** Writers PATCH as fast as they are answered for `seconds`; a reader GETs meanwhile. */
async function load(c: Child, ids: string[], seconds: number, reader: boolean) {
  const end = performance.now() + seconds * 1000;
  let writes = 0;
  const reads: number[] = [];
  const loops = ids.map(async (id) => {
    while (performance.now() < end) {
      await call(c, 'PATCH', `/store/v2/files/${id}`, { description: `x${writes}` });
      writes++;
    }
  });
  if (reader)
    loops.push(
      (async () => {
        while (performance.now() < end) {
          const t = performance.now();
          await call(c, 'GET', `/store/v2/files/${ids[0]}?fields=id,title,description`);
          reads.push(performance.now() - t);
        }
      })(),
    );
  await Promise.all(loops);
  return { writesPerSecond: writes / seconds, reads };
}

const suite: BenchSuite = async () => {
  const results: BenchResult[] = [];

  const small = await startChild('fsync');
  const smallIds = await seed(small, SMALL);
  await patchLatencies(small, smallIds[0], 20);
  const smallP50 = quantile(await patchLatencies(small, smallIds[0], PATCHES), 0.5);
  await stop(small);

  const big = await startChild('fsync');
  const bigIds = await seed(big, BIG);
  await patchLatencies(big, bigIds[0], 20);
  const bigLat = await patchLatencies(big, bigIds[0], PATCHES);
  const bigP50 = quantile(bigLat, 0.5);
  results.push({
    name: `sandbox store: PATCH p50 at ${BIG.toLocaleString('en-US')} files ÷ at ${SMALL} files`,
    ratio: bigP50 / smallP50,
    goal: '<= 2',
    met: bigP50 / smallP50 <= 2,
    detail: { bigP50Ms: +bigP50.toFixed(2), smallP50Ms: +smallP50.toFixed(2), patches: PATCHES },
  });

  const loaded = await load(big, bigIds, LOAD_SECONDS, true);
  const p99 = quantile(loaded.reads, 0.99);
  results.push({
    name: `sandbox store: GET p99 while ${WRITERS} clients write, ${BIG.toLocaleString('en-US')} files ÷ 100 ms`,
    ratio: p99 / 100,
    goal: '<= 1',
    met: p99 <= 100,
    detail: {
      p99Ms: +p99.toFixed(1),
      p50Ms: +quantile(loaded.reads, 0.5).toFixed(1),
      reads: loaded.reads.length,
      writesPerSecond: Math.round(loaded.writesPerSecond),
    },
  });

  const durable = await load(big, bigIds, LOAD_SECONDS, false);
  // The other candidate: each commit writes the whole state and syncs it (what a design without a journal does).
  const state = readDurableState(path.join(big.dir, 'storage'));
  await stop(big);
  const rewriteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-rewrite-'));
  const rewrites: number[] = [];
  for (let i = 0; i < (SMOKE ? 2 : 7); i++) {
    const t = performance.now();
    writeSnapshotSync(rewriteDir, 'state.jsonl', state, i);
    rewrites.push(performance.now() - t);
  }
  fs.rmSync(rewriteDir, { recursive: true, force: true });
  const rewriteMs = quantile(rewrites, 0.5);
  results.push({
    name: `sandbox store: one commit at ${BIG.toLocaleString('en-US')} files, journal (PATCH p50) ÷ rewriting the whole state`,
    ratio: bigP50 / rewriteMs,
    goal: '<= 0.25',
    met: bigP50 / rewriteMs <= 0.25,
    detail: { journalPatchP50Ms: +bigP50.toFixed(2), wholeStateRewriteMs: +rewriteMs.toFixed(1) },
  });

  const off = await startChild('off');
  const offIds = await seed(off, BIG);
  const single = quantile(await patchLatencies(off, offIds[0], PATCHES), 0.5);
  const notDurable = await load(off, offIds, LOAD_SECONDS, false);
  await stop(off);
  results.push({
    name: `sandbox store: writes/s from ${WRITERS} clients, durable ÷ durability off (bench-only switch)`,
    ratio: durable.writesPerSecond / notDurable.writesPerSecond,
    goal: '>= 0.5',
    met: durable.writesPerSecond / notDurable.writesPerSecond >= 0.5,
    detail: {
      durablePerSecond: Math.round(durable.writesPerSecond),
      offPerSecond: Math.round(notDurable.writesPerSecond),
      singleClientP50DurableMs: +bigP50.toFixed(2),
      singleClientP50OffMs: +single.toFixed(2),
    },
  });
  return results;
};

export default suite;
