// Renames and moves, found before paths are compared, so a moved file is moved on the other side (its
// bytes stay where they are) instead of deleted there and sent again. On the store an item keeps its id
// through a move; on disk it keeps its inode (and a file its modified time), or failing that, a file is
// known by its checksum when exactly one new file carries it. Shallow paths first: a folder's move
// carries everything below it, and every listing is rewritten as if the move had happened already.
import type { LocalItem } from './localScan';
import { allowed, recordView, type Action, type BaseView, type Listings, type SyncMode } from './model';
import { parentOf, within } from './names';
import type { BaseEntry, FileKey } from './state';

function depth(p: string): number {
  let n = 1;
  for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1)) n++;
  return n;
}

/** Moves `from` (and everything below it) to `to` in a map or record keyed by path. */
function movePrefix<T>(map: Map<string, T>, from: string, to: string): void {
  const moved: [string, T][] = [];
  for (const [k, v] of map) if (within(k, from)) moved.push([to + k.slice(from.length), v]);
  for (const [k] of moved) map.delete(from + k.slice(to.length));
  for (const [k, v] of moved) map.set(k, v);
}

/**
 * Finds the renames of both sides, returns the actions that carry them over and the entries by path as they
 * are after them (`base`, a copy: the state's are left alone), and rewrites the local and store listings of
 * `x` to the state after them.
 */
export function findRenames(
  x: Listings,
  mode: SyncMode,
  blocked: (p: string) => boolean,
): { actions: Action[]; settled: [string, string][]; base: BaseView } {
  // Nothing moved when every entry is at its path on both sides: no index is built (at 100,000 files, each
  // of the five below is 4 MB).
  let still = true;
  for (const p in x.base)
    if (x.store.get(p)?.id !== x.base[p].id || !x.local.has(p)) {
      still = false;
      break;
    }
  if (still) return { actions: [], settled: [], base: recordView(x.base) };
  const actions: Action[] = [];
  /** Moves both sides made already (the same move on both, or a stopped run's): only the state follows. */
  const settled: [string, string][] = [];
  const base = new Map<string, BaseEntry>();
  for (const p of Object.keys(x.base)) base.set(p, x.base[p]);
  const storeIds = new Map<string, string>(); // id → store path, kept up to date as prefixes move
  for (const [p, r] of x.store) storeIds.set(r.id, p);

  const where = new Map<BaseEntry, string>(); // entry → its path, kept up to date as prefixes move
  for (const [p, b] of base) where.set(b, p);
  const rewrite = (from: string, to: string, maps: Map<string, unknown>[]) => {
    for (const m of maps) movePrefix(m, from, to);
    for (const [p, b] of base) if (within(p, to)) where.set(b, p);
    for (const [id, p] of storeIds) if (within(p, from)) storeIds.set(id, to + p.slice(from.length));
  };

  // Every folder on the way to `to` is on disk, or new on the store (made on the way): never one the disk
  // moved or deleted, whose later moves would leave this one pointing at a stale path.
  const baseIds = new Set([...base.values()].map((b) => b.id));
  const landsOnDisk = (to: string): boolean => {
    for (let a = parentOf(to); a !== ''; a = parentOf(a)) {
      if (x.local.get(a)?.folder) continue;
      const r = x.store.get(a);
      if (!r?.folder || baseIds.has(r.id)) return false;
    }
    return true;
  };

  // The store's moves, carried to disk.
  // The entries a loop below can act on (`moves`), shallow paths first. An entry where the loop has nothing to
  // do stays so through every move the loop makes (a move carries both its path and its item's), so a run in
  // which nothing moved sorts nothing (at 100,000 files, 100,000 records made and sorted twice).
  const byDepth = (moves: (p: string, b: BaseEntry) => boolean) => {
    const list: { d: number; p: string; b: BaseEntry }[] = [];
    for (const [p, b] of base) if (moves(p, b)) list.push({ d: depth(p), p, b });
    return list.sort((a, b) => a.d - b.d || (a.p < b.p ? -1 : 1)).map((e) => e.b);
  };
  // An id already where the store has it is done (a second entry of the same id moves nothing).
  const done = new Set<string>();
  for (const [p, b] of base) if (storeIds.get(b.id) === p) done.add(b.id);
  for (const b of byDepth((p, b) => storeIds.has(b.id) && storeIds.get(b.id) !== p)) {
    const from = where.get(b);
    if (from === undefined || done.has(b.id)) continue;
    done.add(b.id);
    const to = storeIds.get(b.id);
    if (to === undefined || to === from || base.has(to) || blocked(from) || blocked(to)) continue;
    if (x.store.get(to)?.folder !== b.folder || x.store.get(to)?.export !== b.export) continue;
    const there = x.local.get(to);
    if (there) {
      // Already moved on disk the same way (both sides did it, or a run stopped after moving it).
      if (there.ino === b.ino && there.folder === b.folder) {
        rewrite(from, to, [base]);
        settled.push([from, to]);
      }
      continue;
    }
    const l = x.local.get(from);
    if (!l || l.ino !== b.ino || l.folder !== b.folder || !allowed(mode, 'rename-local')) continue;
    if (!landsOnDisk(to)) continue;
    actions.push({ kind: 'rename-local', from, to, folder: b.folder });
    rewrite(from, to, [base, x.local]);
  }

  // The local moves, carried to the store.
  const newLocal = new Map<FileKey, string>(); // inode → path of local items no base entry names
  const newByMd5 = new Map<string, string[]>();
  const indexNew = () => {
    newLocal.clear();
    newByMd5.clear();
    for (const [p, l] of x.local) {
      if (base.has(p)) continue;
      newLocal.set(l.ino, p);
      if (!l.folder && l.lmd5) newByMd5.set(l.lmd5, [...(newByMd5.get(l.lmd5) ?? []), p]);
    }
  };
  indexNew();
  const missingByMd5 = new Map<string, number>();
  for (const [p, b] of base)
    if (!b.folder && b.lmd5 && !x.local.has(p)) missingByMd5.set(b.lmd5, (missingByMd5.get(b.lmd5) ?? 0) + 1);
  for (const b of byDepth((p) => !x.local.has(p))) {
    const from = where.get(b);
    // An export is download-only: moved on disk, it is a new local file, and the document stays.
    if (from === undefined || x.local.has(from) || blocked(from) || b.export) continue;
    const to = localTarget(from, b, base, newLocal, newByMd5, missingByMd5, x.local);
    if (to === undefined || blocked(to)) continue;
    const r = x.store.get(from);
    if (!r || r.id !== b.id || x.store.has(to) || !allowed(mode, 'rename-store')) continue;
    const parent = parentOf(to);
    if (parent !== '' && !x.store.get(parent)?.folder) continue; // its new folder is new too: sent as new
    actions.push({ kind: 'rename-store', from, to, id: b.id, folder: b.folder });
    rewrite(from, to, [base, x.store]);
    indexNew();
  }
  return { actions, settled, base };
}

function localTarget(
  from: string,
  b: BaseEntry,
  base: Map<string, BaseEntry>,
  newLocal: Map<FileKey, string>,
  newByMd5: Map<string, string[]>,
  missingByMd5: Map<string, number>,
  local: Map<string, LocalItem>,
): string | undefined {
  const byIno = b.ino ? newLocal.get(b.ino) : undefined;
  if (byIno !== undefined) {
    const l = local.get(byIno)!;
    if (l.folder === b.folder && !b.folder && (l.mtime === b.mtime || l.lmd5 === b.lmd5)) return byIno;
    if (l.folder && b.folder && sameFolder(from, byIno, base, local)) return byIno;
  }
  if (b.folder || !b.lmd5) return undefined;
  const same = newByMd5.get(b.lmd5) ?? [];
  return same.length === 1 && missingByMd5.get(b.lmd5) === 1 ? same[0] : undefined;
}

/**
 * A deleted folder's inode can be given to a new one: a folder counts as moved only if something it held
 * moved with it (a child under the same name and inode), or if it was empty and still is.
 */
function sameFolder(from: string, to: string, base: Map<string, BaseEntry>, local: Map<string, LocalItem>): boolean {
  let children = 0;
  for (const [p, e] of base) {
    if (parentOf(p) !== from) continue;
    children++;
    if (e.ino !== undefined && local.get(to + p.slice(from.length))?.ino === e.ino) return true;
  }
  return children === 0 && ![...local.keys()].some((p) => parentOf(p) === to);
}
