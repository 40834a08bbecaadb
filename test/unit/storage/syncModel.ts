// A model-based run of the sync: random operations on either side between syncs, then one sync, then
// the oracle: (1) both trees equal, (2) every edit made since the last sync (and not undone on its own
// side) is present under its name or in a conflict copy beside it (anywhere in the tree when the other
// side moved things this round), (3) a file deleted on one side whose path the other side did not touch
// is gone from both, and a second sync has nothing to do (no duplicates, no flapping). Shared by the
// unit tier (a few seeds) and the fuzz tier (FUZZ_SECONDS).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FOLDER_MIME } from '../../../src/shared/wire/storage';
import { quote, type StorageClient } from '../../../src/storage/core/client';
import { syncFolder } from '../../../src/storage/core/sync/engine';
import { isConflictCopyOf } from '../../../src/storage/core/sync/names';
import { bufferSource, upload } from '../../../src/storage/core/upload';
import { Random } from '../../fuzz/fuzz';
import type { Harness } from './emulatorHarness';
import { localTree, md5, startLink, storeTree, type Tree } from './syncHarness';

type Side = 'local' | 'store';
const FILE_NAMES = [
  'a.txt',
  'b c.md',
  'ünï cødé.txt',
  '日本語.txt',
  'x y z.bin',
  'notes.md',
  'Q.txt',
  'e.json',
  '__proto__',
];
const FOLDER_NAMES = ['docs', 'sub dir', 'ördner', 'deep', 'Z', 'constructor'];
const NOW = new Date('2026-05-06T07:08:09Z');

interface Index {
  /** path → store id (store side) or '' (local side), folders and files. */
  items: Map<string, { id: string; folder: boolean }>;
}

async function storeIndex(client: StorageClient, folderId: string): Promise<Index> {
  const items = new Map<string, { id: string; folder: boolean }>();
  const walk = async (id: string, rel: string) => {
    const kids = await client.listAllFiles({
      q: `${quote(id)} in parents and trashed = false`,
      maxResults: 1000,
      fields: 'nextPageToken,items(id,title,mimeType)',
    });
    for (const k of kids) {
      const p = rel ? `${rel}/${k.title}` : k.title!;
      const folder = k.mimeType === FOLDER_MIME;
      items.set(p, { id: k.id!, folder });
      if (folder) await walk(k.id!, p);
    }
  };
  await walk(folderId, '');
  return { items };
}

function localIndex(dir: string): Index {
  const items = new Map<string, { id: string; folder: boolean }>();
  for (const [p, v] of Object.entries(localTree(dir))) items.set(p, { id: '', folder: v === 'dir' });
  return { items };
}

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);
const within = (p: string, f: string) => p === f || p.startsWith(`${f}/`);

export interface ModelRun {
  seed: number;
  rounds: number;
  ops: string[];
}

export async function runModel(
  h: Harness,
  seed: number,
  rounds: number,
  log: (line: string) => void,
): Promise<ModelRun> {
  const r = new Random(seed);
  const k = await startLink(h);
  const ops: string[] = [];
  let counter = 0;
  let bigLeft = 1; // one multi-megabyte file per run (a resumable upload and a streamed download)
  /** Unique bytes, except that a new file is sometimes empty (an edit is never: it would change nothing). */
  const content = (fresh: boolean): Buffer => {
    counter++;
    const tag = Buffer.from(`seed ${seed} #${counter}\n`);
    if (fresh && r.chance(0.1)) return Buffer.alloc(0);
    if (bigLeft > 0 && r.chance(0.15)) {
      bigLeft--;
      const big = Buffer.alloc(5 * 1024 * 1024 + r.int(300_000));
      tag.copy(big);
      for (let i = tag.length; i < big.length; i += 997) big[i] = r.int(256);
      return big;
    }
    return Buffer.concat([tag, Buffer.from('x'.repeat(r.int(2000)))]);
  };
  try {
    for (let round = 1; round <= rounds; round++) {
      const pending: Record<Side, Map<string, string>> = { local: new Map(), store: new Map() };
      const deleted: Record<Side, Set<string>> = { local: new Set(), store: new Set() };
      const touched: Record<Side, string[]> = { local: [], store: [] };
      const moved: Record<Side, boolean> = { local: false, store: false };
      const idx = { local: localIndex(k.localDir), store: await storeIndex(k.client, k.folderId) };
      const synced = [...idx.local.items].filter(([p, v]) => !v.folder && idx.store.items.get(p)?.folder === false);

      const act = async (side: Side, op: string, p: string, q?: string) => {
        ops.push(`r${round} ${side} ${op} ${p}${q ? ` -> ${q}` : ''}`);
        touched[side].push(p, ...(q ? [q] : []));
        const items = idx[side].items;
        if (op === 'write') {
          const bytes = content(!items.has(p));
          if (side === 'local') {
            fs.mkdirSync(path.join(k.localDir, parentOf(p)), { recursive: true });
            fs.writeFileSync(path.join(k.localDir, p), bytes);
          } else {
            const at = items.get(p);
            if (at) await upload(k.client, bufferSource(bytes), { fileId: at.id });
            else {
              const f = await upload(k.client, bufferSource(bytes), {
                metadata: {
                  title: p.slice(p.lastIndexOf('/') + 1),
                  parents: [{ id: items.get(parentOf(p))?.id ?? k.folderId }],
                },
              });
              items.set(p, { id: f.id!, folder: false });
            }
          }
          items.set(p, items.get(p) ?? { id: '', folder: false });
          pending[side].set(p, md5(bytes));
          deleted[side].delete(p);
        } else if (op === 'mkdir') {
          if (side === 'local') fs.mkdirSync(path.join(k.localDir, p));
          else {
            const f = await k.client.call(
              'files.insert',
              {},
              {
                title: p.slice(p.lastIndexOf('/') + 1),
                mimeType: FOLDER_MIME,
                parents: [{ id: items.get(parentOf(p))?.id ?? k.folderId }],
              },
            );
            items.set(p, { id: f.id!, folder: true });
          }
          items.set(p, items.get(p) ?? { id: '', folder: true });
          deleted[side].delete(p);
        } else if (op === 'delete') {
          if (side === 'local') fs.rmSync(path.join(k.localDir, p), { recursive: true });
          else if (r.chance(0.8)) await k.client.call('files.trash', { fileId: items.get(p)!.id });
          else await k.client.call('files.delete', { fileId: items.get(p)!.id });
          for (const x of [...items.keys()])
            if (within(x, p)) {
              items.delete(x);
              if (pending[side].delete(x) === false) deleted[side].add(x);
            }
          for (const x of [...pending[side].keys()]) if (within(x, p)) pending[side].delete(x);
        } else if (op === 'move') {
          moved[side] = true;
          if (side === 'local') {
            if (p.toLowerCase() === q!.toLowerCase()) {
              fs.renameSync(path.join(k.localDir, p), path.join(k.localDir, `${p}.tmp`));
              fs.renameSync(path.join(k.localDir, `${p}.tmp`), path.join(k.localDir, q!));
            } else fs.renameSync(path.join(k.localDir, p), path.join(k.localDir, q!));
          } else {
            const from = parentOf(p);
            const to = parentOf(q!);
            await k.client.call(
              'files.patch',
              {
                fileId: items.get(p)!.id,
                ...(from !== to
                  ? { addParents: items.get(to)?.id ?? k.folderId, removeParents: items.get(from)?.id ?? k.folderId }
                  : {}),
              },
              { title: q!.slice(q!.lastIndexOf('/') + 1) },
            );
          }
          const rename = (m: Map<string, string> | Map<string, { id: string; folder: boolean }>) => {
            for (const [x, v] of [...m])
              if (within(x, p)) {
                m.delete(x);
                (m as Map<string, unknown>).set(q! + x.slice(p.length), v);
              }
          };
          rename(items);
          rename(pending[side]);
        }
      };

      const randomOp = async (side: Side) => {
        const items = idx[side].items;
        const folders = ['', ...[...items].filter(([, v]) => v.folder).map(([p]) => p)];
        const files = [...items].filter(([, v]) => !v.folder).map(([p]) => p);
        const roll = r.int(100);
        if (roll < 30 || files.length === 0) {
          const p = join(r.pick(folders), r.pick(FILE_NAMES));
          if (!items.get(p)?.folder) await act(side, 'write', p);
        } else if (roll < 45) await act(side, 'write', r.pick(files));
        else if (roll < 55) await act(side, 'delete', r.pick(files));
        else if (roll < 70) {
          const p = r.pick(files);
          const caseOnly = r.chance(0.3);
          const name = p.slice(p.lastIndexOf('/') + 1);
          const q = caseOnly
            ? join(
                parentOf(p),
                name[0] === name[0].toUpperCase()
                  ? name[0].toLowerCase() + name.slice(1)
                  : name[0].toUpperCase() + name.slice(1),
              )
            : join(r.pick(folders), r.pick(FILE_NAMES));
          if (q !== p && ![...items.keys()].some((x) => x.toLowerCase() === q.toLowerCase()))
            await act(side, 'move', p, q);
        } else if (roll < 80) {
          const p = join(r.pick(folders), r.pick(FOLDER_NAMES));
          if (!items.has(p) && p.split('/').length <= 3) await act(side, 'mkdir', p);
        } else if (roll < 88 && folders.length > 1) {
          await act(side, 'delete', r.pick(folders.slice(1)));
        } else if (folders.length > 1) {
          const p = r.pick(folders.slice(1));
          const q = join(r.pick(folders.filter((f) => !within(f, p))), r.pick(FOLDER_NAMES));
          if (!items.has(q) && q.split('/').length <= 4) await act(side, 'move', p, q);
        }
      };

      // Now and then the same synced file on both sides: edit/edit, delete/edit, edit/delete.
      if (synced.length && r.chance(0.6)) {
        const [p] = r.pick(synced);
        const pair = r.pick([
          ['write', 'write'],
          ['delete', 'write'],
          ['write', 'delete'],
        ]);
        await act('local', pair[0], p);
        await act('store', pair[1], p);
      }
      for (let i = r.int(5) + 1; i > 0; i--) await randomOp(r.chance(0.5) ? 'local' : 'store');

      const result = await syncFolder({
        client: k.client,
        localDir: k.localDir,
        storeFolderId: k.folderId,
        maxDeletePercent: 100,
        now: () => NOW,
        onEvent: (e) =>
          ops.push(
            `r${round} sync ${e.action} ${e.path}${e.to ? ` -> ${e.to}` : ''}${e.reason ? ` (${e.reason})` : ''}`,
          ),
      });
      assert.equal(result.summary.errors, 0, `an action failed: ${ops.join('\n  ')}`);
      const local = localTree(k.localDir);
      const store = await storeTree(k.client, k.folderId);
      const where = `seed ${seed}, round ${round}; ops:\n  ${ops.join('\n  ')}`;
      assert.deepEqual(local, store, `trees differ after ${where}`);
      checkEdits(local, pending, moved, where);
      for (const side of ['local', 'store'] as const) {
        const other = side === 'local' ? 'store' : 'local';
        for (const p of deleted[side]) {
          const touchedThere = touched[other].some((t) => within(p, t) || within(t, p));
          const recreated = touched[side].some((t) => within(t, p) && pending[side].has(t));
          if (!touchedThere && !recreated && !moved[other] && !moved[side])
            assert.ok(!Object.hasOwn(local, p), `${p} deleted on ${side} came back after ${where}`);
        }
      }
      const again = await syncFolder({
        client: k.client,
        localDir: k.localDir,
        storeFolderId: k.folderId,
        maxDeletePercent: 100,
        now: () => NOW,
      });
      assert.deepEqual(again.plan.actions, [], `a second sync still had work after ${where}`);
    }
    log(`seed ${seed}: ${rounds} rounds, ${ops.length} operations`);
    return { seed, rounds, ops };
  } finally {
    await k.close();
  }
}

function checkEdits(
  tree: Tree,
  pending: Record<Side, Map<string, string>>,
  moved: Record<Side, boolean>,
  where: string,
) {
  const all = new Set(Object.values(tree));
  for (const side of ['local', 'store'] as const) {
    const other = side === 'local' ? 'store' : 'local';
    for (const [p, sum] of pending[side]) {
      if (moved[other] || moved[side]) {
        assert.ok(all.has(sum), `the ${side} edit of ${p} is lost after ${where}`);
        continue;
      }
      const here =
        (Object.hasOwn(tree, p) && tree[p] === sum) ||
        Object.entries(tree).some(([q, s]) => s === sum && isConflictCopyOf(q, p));
      assert.ok(here, `the ${side} edit of ${p} is neither under its name nor in a conflict copy after ${where}`);
    }
  }
}
