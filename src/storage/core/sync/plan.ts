// The three-way comparison: for every path, the local side now, the store now and the last-synced
// entry. A side changed a file when its checksum differs from the one it had at the last sync. One side
// changed: its version goes to the other (a deletion included). Both changed: the same bytes are simply
// recorded, a deletion against an edit keeps the edit, two different versions are both kept (the
// conflict copy). A folder is deleted only when nothing below it on that side is kept.
import type { LocalItem, Skipped } from './localScan';
import { allowed, entryOf, isDeletion, recordOf, type Action, type Listings, type Plan, type SyncMode } from './model';
import { conflictPath, within } from './names';
import { findRenames } from './renames';
import type { BaseEntry } from './state';
import type { StoreItem } from './storeScan';

export interface PlanOptions {
  mode: SyncMode;
  now: Date;
  /** Paths of items reported and skipped (a store title the disk cannot hold, duplicate titles, links). */
  skipped: Skipped[];
}

export function planSync(x: Listings, opts: PlanOptions): Plan {
  const { mode, now } = opts;
  const skipped = [...opts.skipped];
  const blockedPaths = skipped.map((s) => s.path);
  const blocked = (p: string) => blockedPaths.some((b) => within(p, b));
  const { actions: renames, settled, base } = findRenames(x, mode, blocked);
  const { local, store } = x;
  const actions: Action[] = [...renames];
  const records = new Map<string, BaseEntry | undefined>();
  const claimed = new Set<string>();
  const deleteLocal = new Set<string>();
  const deleteStore = new Set<string>();
  const folderGoneFromStore: string[] = []; // folders the store deleted and the disk still has
  const folderGoneFromLocal: string[] = [];

  const add = (a: Action) => {
    if (allowed(mode, a.kind)) actions.push(a);
  };
  const copyName = (p: string, side: 'local' | 'store', md5: string | undefined): string | undefined => {
    for (let n = 1; ; n++) {
      const c = conflictPath(p, side, now, n);
      const l = local.get(c);
      const r = store.get(c);
      // A run that stopped after making the copy: it is there, with these bytes, on the side it was sent to.
      if (mode === 'upload' && !l && r && r.md5 === md5) return undefined;
      if (mode === 'download' && l && !r && l.lmd5 === md5) return undefined;
      if (!l && !r && !base.has(c) && !claimed.has(c)) {
        claimed.add(c);
        return c;
      }
    }
  };

  // Every path of the three listings, once (an array, not a set of 100,000 paths).
  const paths = [...base.keys()];
  for (const p of local.keys()) if (!base.has(p)) paths.push(p);
  for (const p of store.keys()) if (!base.has(p) && !local.has(p)) paths.push(p);
  paths.sort();
  for (const p of paths) {
    if (blocked(p)) continue;
    const b = base.get(p);
    const l = local.get(p);
    const r = store.get(p);
    const folder = b?.folder ?? l?.folder ?? r?.folder;
    if ((b && b.folder !== folder) || (l && l.folder !== folder) || (r && r.folder !== folder)) {
      skipped.push({
        path: p,
        side: l && b && l.folder !== b.folder ? 'local' : 'store',
        reason: 'a file on one side, a folder on the other',
      });
      continue;
    }
    if (folder) {
      if (l && r) {
        if (!b || b.id !== r.id || b.ino !== l.ino) records.set(p, entryOf(l, r));
      } else if (!l && !r) {
        if (b) records.set(p, undefined);
      } else if (l) {
        if (b) folderGoneFromStore.push(p);
        else add({ kind: 'mkdir-store', path: p });
      } else if (b) folderGoneFromLocal.push(p);
      else add({ kind: 'mkdir-local', path: p });
      continue;
    }
    fileStep(p, b, l, r);
  }

  function fileStep(p: string, b: BaseEntry | undefined, l: LocalItem | undefined, r: StoreItem | undefined) {
    if (r?.export) return exportStep(p, b, l, r);
    if (!l && !r) {
      if (b) records.set(p, undefined);
      return;
    }
    if (l && r && l.lmd5 === r.md5) {
      if (
        !b ||
        b.id !== r.id ||
        b.lmd5 !== l.lmd5 ||
        b.smd5 !== r.md5 ||
        b.ino !== l.ino ||
        b.mtime !== l.mtime ||
        b.racy
      )
        records.set(p, recordOf(l, r));
      return;
    }
    const lch = !b ? !!l : !l || l.lmd5 !== b.lmd5;
    const rch = !b ? !!r : !r || r.md5 !== b.smd5;
    if (!lch && !rch) return;
    if (lch && rch && l && r) {
      const side = mode === 'download' ? 'store' : 'local';
      const copy = copyName(p, side, side === 'local' ? l.lmd5 : r.md5);
      if (copy === undefined) records.set(p, recordOf(l, r));
      else actions.push({ kind: 'conflict', path: p, copy, mode });
      return;
    }
    if (lch && !rch) {
      // Changed (or deleted) here, unchanged there.
      if (l) add({ kind: 'upload', path: p, id: r?.id, size: l.lsize, md5: l.lmd5 ?? '' });
      else if (allowed(mode, 'delete-store')) deleteStore.add(p);
    } else if (!lch && rch) {
      if (r) add({ kind: 'download', path: p, id: r.id, size: r.size ?? 0, md5: r.md5 ?? '' });
      else if (allowed(mode, 'delete-local')) deleteLocal.add(p);
    } else if (l) {
      // Edited here, deleted there: the edit is kept, as a new item.
      add({ kind: 'upload', path: p, size: l.lsize, md5: l.lmd5 ?? '' });
    } else if (r) add({ kind: 'download', path: p, id: r.id, size: r.size ?? 0, md5: r.md5 ?? '' });
  }

  /**
   * A document's export is download-only: a new or changed document is exported (over the local file only
   * when that is as last synced); a local edit or deletion is reported, never sent.
   */
  function exportStep(p: string, b: BaseEntry | undefined, l: LocalItem | undefined, r: StoreItem) {
    if (mode === 'upload') return;
    const download = () => add({ kind: 'download', path: p, id: r.id, size: r.size ?? 0, md5: '', export: r.export });
    // No entry: exported; a local file already there is compared with the export when it comes (apply).
    if (!b || b.export !== r.export) return download();
    const rch = b.smd5 !== r.version;
    if (l && l.lmd5 !== b.lmd5)
      skipped.push({
        path: p,
        side: 'local',
        reason: `this export of a workspace document was edited here; an export is download-only: the edit is not sent${rch ? ', and the changed document is not exported over it' : ''}`,
      });
    else if (rch) download();
    else if (!l)
      skipped.push({
        path: p,
        side: 'local',
        reason: 'this export of a workspace document was deleted here; an export is download-only: the document stays',
      });
  }

  // Folders: deleted on the other side only when everything below them there goes too.
  const settleFolders = (
    gone: string[],
    side: Map<string, LocalItem | StoreItem>,
    deletes: Set<string>,
    remake: 'mkdir-store' | 'mkdir-local',
    del: 'delete-local' | 'delete-store',
  ) => {
    const candidates = new Set(gone);
    const taken = new Set<string>();
    for (const f of [...gone].sort((a, b) => a.split('/').length - b.split('/').length)) {
      if ([...taken].some((t) => within(f, t))) continue;
      let all = allowed(mode, del);
      let files = 0;
      for (const [q, item] of side) {
        if (q === f || !within(q, f)) continue;
        if (item.folder ? !candidates.has(q) : !deletes.has(q)) all = false;
        if (!item.folder) files++;
        if (!all) break;
      }
      if (all) {
        taken.add(f);
        for (const q of [...deletes]) if (within(q, f)) deletes.delete(q);
        const r = store.get(f);
        actions.push(
          del === 'delete-store'
            ? { kind: 'delete-store', path: f, id: r!.id, folder: true, files }
            : { kind: 'delete-local', path: f, folder: true, files },
        );
      } else add({ kind: remake, path: f });
    }
  };
  settleFolders(folderGoneFromStore, local, deleteLocal, 'mkdir-store', 'delete-local');
  settleFolders(folderGoneFromLocal, store, deleteStore, 'mkdir-local', 'delete-store');
  for (const p of deleteLocal) actions.push({ kind: 'delete-local', path: p, folder: false, files: 1 });
  for (const p of deleteStore)
    actions.push({ kind: 'delete-store', path: p, id: store.get(p)!.id, folder: false, files: 1 });

  let deletes = 0;
  for (const a of actions) if (isDeletion(a)) deletes += a.files;
  let baseFiles = 0;
  for (const b of base.values()) if (!b.folder) baseFiles++;
  return { actions, settled, records, skipped, deletes, baseFiles };
}
