// Saving the state while a plan is applied: spaced in the background so transfers never wait on the disk,
// and ordered after the files it records are durable (see StateWriter.placed).
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pool } from './pool';
import { saveState, type SyncState } from './state';

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
  /** Files put in place since the last save: made durable before the state that records them (see `placed`). */
  private unsynced = new Set<string>();
  /** Folders of files whose bytes were synced by whoever placed them. */
  private unsyncedFolders = new Set<string>();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastEnd = 0;
  private lastCost = 0;
  private failure: Error | undefined;
  /** Asked to save (soon) since the last save began, or that save failed: the file may not hold the state. */
  private changed = true;

  constructor(
    private readonly localDir: string,
    private readonly state: SyncState,
    private readonly minGapMs = 1000,
  ) {}

  /**
   * A file was written or moved into place. Its bytes and its name are synced before a state that could record
   * it replaces the old one: after a power cut the state never says "synced" of a file the disk lost or holds
   * only in part (the next run would take the loss for a local edit, or a deletion, and send it to the store).
   * Synced in a batch at the next save rather than one by one, so transfers never wait on the disk.
   */
  placed(file: string, bytesSynced = false): void {
    if (bytesSynced) this.unsyncedFolders.add(path.dirname(file));
    else this.unsynced.add(file);
  }

  /** Every file placed so far (the state file's content was written before this runs), then their folders. */
  private async syncPlaced(): Promise<void> {
    const files = [...this.unsynced];
    const folders = new Set([...files.map((f) => path.dirname(f)), ...this.unsyncedFolders]);
    this.unsynced = new Set();
    this.unsyncedFolders = new Set();
    try {
      await pool(files, 8, (f) => syncPath(f, false));
      await pool([...folders], 8, (d) => syncPath(d, true));
    } catch (e) {
      // The state is not replaced; the next save syncs them again.
      for (const f of files) this.unsynced.add(f);
      for (const d of folders) this.unsyncedFolders.add(d);
      throw e;
    }
  }

  /** Saves in the background, soon: at once when the last save is long enough ago, else after a gap. */
  soon(): void {
    this.changed = true;
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
        this.changed = false;
        const start = Date.now();
        await saveState(this.localDir, this.state, () => this.syncPlaced()).catch((e: unknown) => {
          this.changed = true;
          throw e;
        });
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

  /**
   * Saves unless nothing asked for a save since the last one began (the end of a run that applied nothing
   * after its last save: at 100,000 files, one more 56 MB file written, and as much garbage made).
   */
  async saveIfChanged(): Promise<void> {
    if (this.changed || this.timer || this.running || this.failure) await this.save();
  }
}

/** Syncs a file's bytes. */
export const syncBytes = (file: string) => syncPath(file, false);

/** Syncs a file's bytes (or a folder's names); a file gone since (moved or removed by the user) has nothing to keep. */
async function syncPath(p: string, folder: boolean): Promise<void> {
  let h: fsp.FileHandle;
  try {
    h = await fsp.open(p, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    await (folder ? h.sync() : h.datasync());
  } finally {
    await h.close();
  }
}
