// Folder sync (issue 25), ratios measured in the same run against the in-process storage emulator:
// a sync with nothing to do over 10,000 files in 500 folders — its store requests against the limit of 5,
// and its time against a plain stat walk of the same local tree (readdir + lstat of every entry).
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { syncFolder } from '../../src/storage/core/sync/engine';
import { startStorage } from '../unit/storage/emulatorHarness';
import { startLink } from '../unit/storage/syncHarness';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';

const FOLDERS = SMOKE ? 25 : 500;
const PER_FOLDER = 20;
const RUNS = SMOKE ? 1 : 5;

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const suite: BenchSuite = async () => {
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
    let requests = 0;
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await statWalk(k.localDir);
      walkMs.push(performance.now() - t);
      const before = k.requests();
      t = performance.now();
      const r = await syncFolder(opts);
      syncMs.push(performance.now() - t);
      requests = Math.max(requests, k.requests() - before);
      if (r.plan.actions.length) throw new Error('a sync with nothing to do planned actions');
    }
    const files = FOLDERS * PER_FOLDER;
    const ratio = median(syncMs) / median(walkMs);
    const results: BenchResult[] = [
      {
        name: `sync: no-op run over ${files} files in ${FOLDERS} folders, store requests vs 5`,
        ratio: requests / 5,
        goal: '<= 1',
        met: requests <= 5,
        detail: { requests },
      },
      {
        name: `sync: no-op run over ${files} files in ${FOLDERS} folders vs a stat walk`,
        ratio,
        goal: '<= 2',
        met: ratio <= 2,
        detail: { syncMs: median(syncMs), walkMs: median(walkMs) },
      },
    ];
    return results;
  } finally {
    await k.close();
    await h.close();
  }
};

export default suite;
