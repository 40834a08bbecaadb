// What a link remembers between runs, in one hidden folder at the top of the local folder (never
// synced): per path the last-synced facts of both sides, the store items under the linked folder as
// last seen (so the change feed can be applied to them), and the change feed's page token. Written
// whole to a temporary file, flushed and renamed over the old one, so a crash leaves the old state or
// the new one, never half of either.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { dictionary } from '../../../shared/wire/ownKeys';
import { isWorkspaceDocument } from '../../../shared/wire/storage';

/** The hidden folder a link keeps its state, trash and partial downloads in; skipped by every walk. */
export const STATE_DIR = '.api-workbench-sync';

/**
 * What identifies a local file across renames: its inode number when it is on the linked folder's device (a
 * number: at 100,000 files a "device:inode" string each is 8 MB), else "device:inode".
 */
export type FileKey = number | string;

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

export function fileKey(st: { dev: bigint; ino: bigint }, rootDev: bigint): FileKey {
  return st.dev === rootDev && st.ino <= MAX_EXACT ? Number(st.ino) : `${st.dev}:${st.ino}`;
}

/** An older state's "device:inode" of a file on the linked folder's device, as it is kept now (see FileKey). */
export function upgradeFileKeys(state: SyncState, rootDev: bigint): void {
  const prefix = `${rootDev}:`;
  for (const p in state.base) {
    const b = state.base[p];
    if (typeof b.ino === 'string' && b.ino.startsWith(prefix))
      b.ino = fileKey({ dev: rootDev, ino: BigInt(b.ino.slice(prefix.length)) }, rootDev);
  }
}

/** Last-synced facts of one path: the store item and the local file as they were when both agreed. */
export interface BaseEntry {
  folder: boolean;
  /** Store item id. */
  id: string;
  /** Store side: content checksum (of an export: the document's version, see exports.ts) and size. */
  smd5?: string;
  ssize?: number;
  /** Local side: the file's identity (see FileKey), modified time (µs), size and checksum. */
  ino?: FileKey;
  mtime?: number;
  lsize?: number;
  lmd5?: string;
  /**
   * Recorded within seconds of the file's modified time: a write in the same clock tick would leave time
   * and size as they are, so the next walk reads the file again instead of trusting them (as git does).
   */
  racy?: boolean;
  /** The path holds the export of a workspace document to this type: download-only. */
  export?: string;
}

/** A store item below the linked folder as last listed (or as the change feed last reported it). */
export interface MirrorItem {
  id: string;
  title: string;
  /** Parent ids (an item can sit in several folders). */
  parents: string[];
  folder: boolean;
  mimeType: string;
  md5?: string;
  size?: number;
  /** Of a workspace document only (its version, see exports.ts). */
  modified?: string;
  etag?: string;
  /** A workspace document's export types (the keys of its exportLinks). */
  exports?: string[];
}

export interface SyncState {
  version: 2;
  storeFolderId: string;
  /** Where the next run reads the change feed from; absent before the first full listing. */
  pageToken?: string;
  mirror: Record<string, MirrorItem>;
  base: Record<string, BaseEntry>;
}

export function emptyState(storeFolderId: string): SyncState {
  return { version: 2, storeFolderId, mirror: dictionary(), base: dictionary() };
}

/** One state file per store folder a local folder is linked with. */
export function statePath(localDir: string, storeFolderId: string): string {
  return path.join(localDir, STATE_DIR, `state-${storeFolderId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Strings that repeat across items (types, parent ids) and between an item and its entry (id, checksum,
 * time) are kept once: at 100,000 files the state is most of a run's memory.
 */
class Interner {
  private readonly strings = new Map<string, string>();
  get(s: string): string;
  get(s: string | undefined): string | undefined;
  get(s: string | undefined): string | undefined {
    if (s === undefined) return undefined;
    const had = this.strings.get(s);
    if (had !== undefined) return had;
    this.strings.set(s, s);
    return s;
  }
}

/**
 * Strings and lists the state's records share: an entry takes its mirror item's strings (id, checksum, time),
 * and the mirror's items one list of parents per set of parents (the lists are never changed in place: an
 * item the change feed reports comes with lists of its own). Used on each record as it is read, so that the
 * copies a line's parse made die young instead of being kept until the whole file is read.
 */
export class Sharing {
  private readonly common = new Interner();
  private readonly lists = new Map<string, string[]>();

  constructor(private readonly mirror: Record<string, MirrorItem>) {}

  item(read: MirrorItem): MirrorItem {
    // An older state kept every item's modified time and etag: read no more (a `delete` would make a slow, larger
    // object).
    let m = read;
    if ((m.modified !== undefined || m.etag !== undefined) && !isWorkspaceDocument(m)) {
      const { modified: _modified, etag: _etag, ...rest } = m;
      m = rest;
    }
    m.mimeType = this.common.get(m.mimeType);
    const key = m.parents.join('/');
    const had = this.lists.get(key);
    if (had && had.length === m.parents.length) m.parents = had;
    else {
      m.parents = m.parents.map((p) => this.common.get(p));
      this.lists.set(key, m.parents);
    }
    return m;
  }

  entry(read: BaseEntry & { smod?: string }): BaseEntry {
    // An older state kept the store's modified time of every entry, never read.
    let b: BaseEntry = read;
    if (read.smod !== undefined) {
      const { smod: _dropped, ...rest } = read;
      b = rest;
    }
    const m = this.mirror[b.id];
    if (!m) return b;
    b.id = m.id;
    if (b.smd5 !== undefined && b.smd5 === m.md5) b.smd5 = m.md5;
    if (b.lmd5 !== undefined && b.lmd5 === b.smd5) b.lmd5 = b.smd5;
    return b;
  }
}

/** Makes the state's entries share the strings of its mirror (after a full listing, or a version 1 file). */
export function shareStrings(state: SyncState): void {
  const sharing = new Sharing(state.mirror);
  for (const id of Object.keys(state.mirror)) state.mirror[id] = sharing.item(state.mirror[id]);
  shareEntries(state);
}

/** Makes the state's entries share the strings of its mirror items (after a full listing, which shares its items). */
export function shareEntries(state: SyncState): void {
  const sharing = new Sharing(state.mirror);
  for (const p of Object.keys(state.base)) state.base[p] = sharing.entry(state.base[p]);
}

/**
 * The file: one JSON value per line — a head `{version, storeFolderId, pageToken}`, then `["m", item]` per
 * mirror item and `["b", path, entry]` per entry, then `["end", items, entries]`. Written and read a line
 * at a time, so neither needs the whole text in memory (a single JSON text of 100,000 files is 50 MB, held
 * twice while written and read). A version 1 file (the whole state as one JSON object) is still read.
 */
export async function loadState(localDir: string, storeFolderId: string): Promise<SyncState> {
  const file = statePath(localDir, storeFolderId);
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyState(storeFolderId);
    throw e;
  }
  const bad = (why: string) =>
    new Error(`The sync state ${file} ${why}; move it away to start over with a full comparison.`);
  const state = emptyState(storeFolderId);
  let head = true;
  let ended = false;
  let items = 0;
  let entries = 0;
  /** A version 1 file: read whole, its strings shared at the end. */
  let whole = false;
  const sharing = new Sharing(state.mirror);
  try {
    const lines = readline.createInterface({ input: handle.createReadStream({ encoding: 'utf8' }), crlfDelay: 1 });
    for await (const line of lines) {
      if (ended) throw bad('goes on after its end');
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        throw bad('is not valid JSON');
      }
      if (head) {
        head = false;
        if (!isObject(v) || v.storeFolderId !== storeFolderId || (v.version !== 1 && v.version !== 2))
          throw bad('is not a state of this link');
        if (typeof v.pageToken === 'string') state.pageToken = v.pageToken;
        if (v.version === 1) {
          // The whole state in this one line.
          if (!isObject(v.mirror) || !isObject(v.base)) throw bad('is not a state of this link');
          state.mirror = dictionary(v.mirror as Record<string, MirrorItem>);
          state.base = dictionary(v.base as Record<string, BaseEntry>);
          ended = whole = true;
        }
        continue;
      }
      if (!Array.isArray(v)) throw bad('holds a line that is not a state record');
      if (v[0] === 'm' && isObject(v[1]) && typeof v[1].id === 'string') {
        const m = sharing.item(v[1] as unknown as MirrorItem);
        if (!Object.hasOwn(state.mirror, m.id)) items++;
        state.mirror[m.id] = m;
      } else if (v[0] === 'b' && typeof v[1] === 'string' && isObject(v[2]) && typeof v[2].id === 'string') {
        if (!Object.hasOwn(state.base, v[1])) entries++;
        state.base[v[1]] = sharing.entry(v[2] as unknown as BaseEntry);
      } else if (v[0] === 'end') {
        if (v[1] !== items || v[2] !== entries) throw bad('does not hold what its end says');
        ended = true;
      } else throw bad('holds a line that is not a state record');
    }
  } finally {
    await handle.close();
  }
  if (!ended) throw bad(head ? 'is empty' : 'is cut short');
  if (whole) shareStrings(state);
  return state;
}

/** Lines per write: about 300 KB. */
const LINES_PER_WRITE = 1000;

/**
 * Writes the state atomically (temporary file, fsync, rename, fsync of the folder), a slice of lines at a
 * time. The lists of ids and paths are taken first; an item or entry changed while the file is written is
 * written as it is when its line is made, and one added meanwhile waits for the next save (every entry is
 * true on its own, which is all a run relies on: see engine.ts).
 */
/**
 * Writes the state: to a temporary file, synced, then renamed over the old one. `beforeCommit` runs after the
 * temporary file is written and before the rename: what must be durable before the state that names it.
 */
export async function saveState(localDir: string, state: SyncState, beforeCommit?: () => Promise<void>): Promise<void> {
  const file = statePath(localDir, state.storeFolderId);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fsp.open(tmp, 'w');
  try {
    const { storeFolderId, pageToken } = state;
    let lines = [JSON.stringify({ version: 2, storeFolderId, ...(pageToken ? { pageToken } : {}) })];
    const flush = async (force = false) => {
      if (!force && lines.length < LINES_PER_WRITE) return;
      await handle.write(`${lines.join('\n')}\n`);
      lines = [];
    };
    let items = 0;
    for (const id of Object.keys(state.mirror)) {
      const m = state.mirror[id];
      if (!m) continue;
      lines.push(JSON.stringify(['m', m]));
      items++;
      await flush();
    }
    let entries = 0;
    for (const p of Object.keys(state.base)) {
      const b = state.base[p];
      if (!b) continue;
      lines.push(JSON.stringify(['b', p, b]));
      entries++;
      await flush();
    }
    lines.push(JSON.stringify(['end', items, entries]));
    await flush(true);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await beforeCommit?.();
  await fsp.rename(tmp, file);
  const dir = await fsp.open(path.dirname(file), 'r').catch(() => undefined);
  if (dir) await dir.sync().catch(() => undefined);
  await dir?.close();
}
