// What a link remembers between runs, in one hidden folder at the top of the local folder (never
// synced): per path the last-synced facts of both sides, the store items under the linked folder as
// last seen (so the change feed can be applied to them), and the change feed's page token. Written
// whole to a temporary file, flushed and renamed over the old one, so a crash leaves the old state or
// the new one, never half of either.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

/** The hidden folder a link keeps its state, trash and partial downloads in; skipped by every walk. */
export const STATE_DIR = '.api-workbench-sync';

/** Last-synced facts of one path: the store item and the local file as they were when both agreed. */
export interface BaseEntry {
  folder: boolean;
  /** Store item id. */
  id: string;
  /** Store side: content checksum (of an export: the document's version, see exports.ts), size and modified time. */
  smd5?: string;
  ssize?: number;
  smod?: string;
  /** Local side: device:inode, modified time (µs), size and checksum of the file. */
  ino?: string;
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
  modified?: string;
  etag?: string;
  /** A workspace document's export types (the keys of its exportLinks). */
  exports?: string[];
}

export interface SyncState {
  version: 1;
  storeFolderId: string;
  /** Where the next run reads the change feed from; absent before the first full listing. */
  pageToken?: string;
  mirror: Record<string, MirrorItem>;
  base: Record<string, BaseEntry>;
}

export function emptyState(storeFolderId: string): SyncState {
  return { version: 1, storeFolderId, mirror: {}, base: {} };
}

/** One state file per store folder a local folder is linked with. */
export function statePath(localDir: string, storeFolderId: string): string {
  return path.join(localDir, STATE_DIR, `state-${storeFolderId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

function isState(v: unknown, storeFolderId: string): v is SyncState {
  if (!v || typeof v !== 'object') return false;
  const s = v as Partial<SyncState>;
  return (
    s.version === 1 &&
    s.storeFolderId === storeFolderId &&
    typeof s.mirror === 'object' &&
    s.mirror !== null &&
    typeof s.base === 'object' &&
    s.base !== null
  );
}

/** The saved state, or an empty one before the first run; a file that is not a state is an error. */
export async function loadState(localDir: string, storeFolderId: string): Promise<SyncState> {
  const file = statePath(localDir, storeFolderId);
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyState(storeFolderId);
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`The sync state ${file} is not valid JSON; move it away to start over with a full comparison.`);
  }
  if (!isState(parsed, storeFolderId))
    throw new Error(`The sync state ${file} is not a state of this link; move it away to start over.`);
  return parsed;
}

/** Writes the state atomically: temporary file, fsync, rename, fsync of the folder. */
export async function saveState(localDir: string, state: SyncState): Promise<void> {
  const file = statePath(localDir, state.storeFolderId);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fsp.open(tmp, 'w');
  try {
    await handle.writeFile(JSON.stringify(state));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(tmp, file);
  const dir = await fsp.open(path.dirname(file), 'r').catch(() => undefined);
  if (dir) await dir.sync().catch(() => undefined);
  await dir?.close();
}

/**
 * Saves the state while a plan is applied. Each save writes the whole state, so saving after every action
 * would make a run's cost grow with the state's size times its actions, and the transfers would wait on
 * the disk: `soon` asks for a save without waiting for it, and saves are spaced so that writing the state
 * takes at most a tenth of the run (at least a second apart). That loses nothing: the state only records
 * what is true on both sides, and a run that stops before a save sees the work done since as "both sides
 * changed the same way" and records it then. `save` writes now (a save asked for while one runs is folded
 * into the next); a background save's failure is thrown by the next `save`.
 */
export class StateWriter {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastEnd = 0;
  private lastCost = 0;
  private failure: Error | undefined;

  constructor(
    private readonly localDir: string,
    private readonly state: SyncState,
    private readonly minGapMs = 1000,
  ) {}

  /** Saves in the background, soon: at once when the last save is long enough ago, else after a gap. */
  soon(): void {
    if (this.timer) return;
    const gap = Math.max(this.minGapMs, 10 * this.lastCost);
    const wait = Math.max(0, this.lastEnd + gap - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save().catch((e: unknown) => (this.failure ??= e instanceof Error ? e : new Error(String(e))));
    }, wait);
  }

  async save(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const start = Date.now();
        await saveState(this.localDir, this.state);
        this.lastEnd = Date.now();
        this.lastCost = this.lastEnd - start;
      } while (this.again);
    })().finally(() => (this.running = undefined));
    await this.running;
    if (this.failure) {
      const e = this.failure;
      this.failure = undefined;
      throw e;
    }
  }
}
