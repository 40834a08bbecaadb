// Interrupted runs: the same two phases of changes are synced once without interruption (in process)
// and once through the CLI killed (SIGKILL) right after a random number of its actions, again and
// again, then run to the end. Both links must end with the same trees, equal on both sides, and a run
// after that has nothing to do: a stopped run loses no change and leaves no duplicate.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { syncFolder } from '../../../src/storage/core/sync/engine';
import { Random } from '../../fuzz/fuzz';
import type { Harness } from './emulatorHarness';
import { localTree, putLocal, putStore, startLink, storeItem, storeTree, type Link } from './syncHarness';

const bytes = (tag: string, size = 200) => Buffer.concat([Buffer.from(`${tag}\n`), Buffer.alloc(size, tag.length)]);

async function phase1(k: Link) {
  for (let d = 0; d < 4; d++)
    for (let f = 0; f < 10; f++) putLocal(k.localDir, `dir ${d}/file ${f}.txt`, bytes(`l${d}.${f}`));
  putLocal(k.localDir, 'big.bin', bytes('big', 6 * 1024 * 1024));
  for (let f = 0; f < 10; f++) await putStore(k.client, k.folderId, `store ü/s${f}.md`, bytes(`s${f}`));
  for (let f = 0; f < 10; f++) await putStore(k.client, k.folderId, `store ü/deeper/t${f}.md`, bytes(`t${f}`));
}

async function phase2(k: Link) {
  for (let f = 0; f < 5; f++) putLocal(k.localDir, `dir 0/file ${f}.txt`, bytes(`l0.${f} local edit`));
  for (let f = 3; f < 8; f++) await putStore(k.client, k.folderId, `dir 0/file ${f}.txt`, bytes(`l0.${f} store edit`));
  for (let f = 0; f < 3; f++) fs.rmSync(path.join(k.localDir, `dir 1/file ${f}.txt`));
  await putStore(k.client, k.folderId, 'dir 1/file 2.txt', bytes('store edit of a file deleted locally'));
  for (const f of ['s0.md', 's1.md'])
    await k.client.call('files.trash', { fileId: (await storeItem(k.client, k.folderId, `store ü/${f}`))!.id! });
  putLocal(k.localDir, 'store ü/s1.md', bytes('local edit of a file trashed on the store'));
  fs.renameSync(path.join(k.localDir, 'dir 2'), path.join(k.localDir, 'dir two'));
  fs.renameSync(path.join(k.localDir, 'dir 3/file 0.txt'), path.join(k.localDir, 'dir 3/FILE 0.txt'));
  const t = await storeItem(k.client, k.folderId, 'store ü/deeper/t0.md');
  await k.client.call('files.patch', { fileId: t!.id! }, { title: 't0 renamed.md' });
  putLocal(k.localDir, 'new local/n.txt', bytes('new'));
}

/** Runs the CLI; kills it `delayMs` after its `killAfter`-th action line. Resolves with its exit code, or 'killed'. */
function cli(h: Harness, k: Link, killAfter: number | undefined, delayMs = 0): Promise<number | 'killed'> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'sync', '--json', '--max-delete', '100', k.localDir, k.folderId],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, API_WORKBENCH_STORAGE_BASE_URL: h.origin, API_WORKBENCH_STORAGE_TOKEN: h.token },
    },
  );
  let lines = 0;
  let killed = false;
  createInterface({ input: child.stdout }).on('line', () => {
    if (++lines === killAfter)
      setTimeout(() => {
        killed = child.exitCode === null;
        child.kill('SIGKILL');
      }, delayMs);
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      if (!killed && code !== 0) console.error(err);
      resolve(killed ? 'killed' : (code ?? 1));
    }),
  );
}

export async function runKills(
  h: Harness,
  seed: number,
  killsPerPhase: number,
  log: (line: string) => void,
): Promise<void> {
  const r = new Random(seed);
  const calm = await startLink(h);
  const hit = await startLink(h);
  const moments: string[] = [];
  try {
    for (const phase of [phase1, phase2]) {
      await phase(calm);
      await phase(hit);
      await syncFolder({
        client: calm.client,
        localDir: calm.localDir,
        storeFolderId: calm.folderId,
        maxDeletePercent: 100,
      });
      for (let i = 0; i < killsPerPhase; i++) {
        const after = 1 + r.int(12);
        const delay = r.int(40);
        moments.push(`${after}+${delay}ms`);
        if ((await cli(h, hit, after, delay)) !== 'killed') break; // it finished before that moment
      }
      assert.equal(await cli(h, hit, undefined), 0, 'the run after the kills finishes');
      const calmTree = localTree(calm.localDir);
      assert.deepEqual(localTree(hit.localDir), await storeTree(hit.client, hit.folderId), 'both sides equal');
      assert.deepEqual(localTree(hit.localDir), calmTree, 'the same result as a run never stopped');
      const again = await syncFolder({
        client: hit.client,
        localDir: hit.localDir,
        storeFolderId: hit.folderId,
        dryRun: true,
      });
      assert.deepEqual(again.plan.actions, [], 'nothing left to do');
    }
    log(`seed ${seed}: killed after actions ${moments.join(', ')}`);
  } finally {
    await calm.close();
    await hit.close();
  }
}
