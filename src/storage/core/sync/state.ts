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
  /** Store side: content checksum, size and modified time of the item. */
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
 * Saves after each applied action without queueing one write per action: a save asked for while one
 * is running is folded into the next, which writes the state as it is then.
 */
export class StateWriter {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly localDir: string,
    private readonly state: SyncState,
  ) {}

  save(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await saveState(this.localDir, this.state);
      } while (this.again);
    })().finally(() => (this.running = undefined));
    return this.running;
  }
}
