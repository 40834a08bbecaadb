// The plan's vocabulary: what a run does, per path, and the three listings it compares.
import type { LocalItem, Skipped } from './localScan';
import type { BaseEntry } from './state';
import type { StoreItem } from './storeScan';

export type SyncMode = 'two-way' | 'upload' | 'download';

export type Action =
  /** The store moved or renamed an item: the same move on disk. */
  | { kind: 'rename-local'; from: string; to: string; folder: boolean }
  /** The item was moved or renamed on disk: the same move on the store (the item keeps its id). */
  | { kind: 'rename-store'; from: string; to: string; id: string; folder: boolean }
  | { kind: 'mkdir-local'; path: string }
  | { kind: 'mkdir-store'; path: string }
  /** Local bytes to the store: a new item, or new content of `id`. */
  | { kind: 'upload'; path: string; id?: string; size: number; md5: string }
  /** Store bytes to disk; with `export`, the export of a workspace document to that type. */
  | { kind: 'download'; path: string; id: string; size: number; md5: string; export?: string }
  /**
   * Both sides changed the file differently. Two-way: the local version becomes `copy` on both sides and
   * the store's takes the name. Upload mode: the local bytes go to the store as `copy`. Download mode: the
   * store's bytes come to disk as `copy`. Nothing is overwritten.
   */
  | { kind: 'conflict'; path: string; copy: string; mode: SyncMode }
  /** To the folder's trash inside the state folder; `files` counts the files it holds. */
  | { kind: 'delete-local'; path: string; folder: boolean; files: number }
  /** To the store's trash. */
  | { kind: 'delete-store'; path: string; id: string; folder: boolean; files: number }
  /**
   * A store item the store deleted, taken back from its trash where the local one is kept (a restored deletion):
   * the same item, with its id and sharing. One that cannot come back as it was goes up as a new item.
   */
  | { kind: 'untrash-store'; path: string; id: string; folder: boolean };

export type ActionKind = Action['kind'];
export type Deletion = Extract<Action, { kind: 'delete-store' | 'delete-local' }>;

export const isDeletion = (a: Action): a is Deletion => a.kind === 'delete-store' || a.kind === 'delete-local';

/** Actions that change the store (allowed in two-way and upload mode). */
export const TO_STORE = new Set<ActionKind>(['rename-store', 'mkdir-store', 'upload', 'delete-store', 'untrash-store']);
/** Actions that change the local folder (allowed in two-way and download mode). */
export const TO_LOCAL = new Set<ActionKind>(['rename-local', 'mkdir-local', 'download', 'delete-local']);

export function allowed(mode: SyncMode, kind: ActionKind): boolean {
  if (TO_STORE.has(kind)) return mode !== 'download';
  if (TO_LOCAL.has(kind)) return mode !== 'upload';
  return true;
}

export interface Listings {
  /** The last-synced entries (the state's own: read, never changed). */
  base: Readonly<Record<string, BaseEntry>>;
  local: Map<string, LocalItem>;
  store: Map<string, StoreItem>;
}

/** The last-synced entries by path, as the plan reads them. */
export type BaseView = Pick<ReadonlyMap<string, BaseEntry>, 'get' | 'has' | 'keys' | 'values'>;

/** The state's own entries, read in place (no copy). */
export function recordView(rec: Readonly<Record<string, BaseEntry>>): BaseView {
  return {
    get: (p) => (Object.hasOwn(rec, p) ? rec[p] : undefined),
    has: (p) => Object.hasOwn(rec, p),
    keys: () => Object.keys(rec)[Symbol.iterator](),
    values: () => Object.values(rec)[Symbol.iterator](),
  };
}

export interface Plan {
  actions: Action[];
  /** Moves both sides have made already: the state's entries move (from, to), in this order, before `records`. */
  settled: [string, string][];
  /** Base entries to write (or drop) at once: both sides agree already, nothing to transfer. */
  records: Map<string, BaseEntry | undefined>;
  skipped: Skipped[];
  /** Files the plan deletes (both sides) and files in the last-synced listing, for the max-delete guard. */
  deletes: number;
  baseFiles: number;
}

/** How close to its modified time a file's entry is recorded before its time and size are not trusted. */
const RACY_US = 3_000_000;

export function entryOf(l: LocalItem, r: StoreItem): BaseEntry {
  if (l.folder) return { folder: true, id: r.id, ino: l.ino };
  // A new item of the walk's own shape (every field in the literal: see scanLocal), made the entry.
  const { ino, mtime, lsize, lmd5 } = l;
  return recordOf({ folder: false, ino, mtime, lsize, lmd5, id: undefined, smd5: undefined, ssize: undefined }, r);
}

/**
 * entryOf for the plan, without a second object per file: a file item the walk made becomes the entry itself
 * (at 100,000 files, 9 MB less on a first run). A state entry the walk handed on as unchanged (it has an id) is
 * the state's own and is never changed here: it gets a new entry.
 */
export function recordOf(l: LocalItem, r: StoreItem): BaseEntry {
  if (l.folder || l.id !== undefined) return entryOf(l, r);
  const e = l as LocalItem & BaseEntry;
  e.id = r.id;
  e.smd5 = r.export ? r.version : r.md5;
  e.ssize = r.size;
  if (l.lmd5 === r.md5) e.lmd5 = r.md5; // one string for both when they agree
  // The two rare fields are added after (a spread would make a temporary object per entry).
  if (Date.now() * 1000 - l.mtime < RACY_US) e.racy = true;
  if (r.export) e.export = r.export;
  return e;
}
