// The storage sandbox's state on disk, kept as a database keeps it: a write is acknowledged only once it is in
// the journal and the journal is synced (group commit: the writes of every request waiting at that moment go in
// one entry, one sync). A snapshot is written in the background when the journal has grown, and start-up reads
// the snapshot and replays the journal after it. A write that cannot be made durable (a full disk) puts the
// state back to the last durable one, so nothing a client was not told about survives and nothing it was told
// about is lost. See ARCHITECTURE.md ("The storage sandbox's durable store") for why this over a database.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CHANGE_LOG_KEEP,
  dictionary,
  liveBlobKeys,
  writesEmpty,
  type PendingWrites,
  type Store,
  type StoreState,
  type StoredDrive,
  type StoredFile,
  type StoredUpload,
  type StoredUser,
} from '../model';
import type { DirectoryBlobStore } from '../blobs';
import {
  applyEntry,
  DamagedStateError,
  encodeLine,
  LEGACY_STATE_FILE,
  metaOf,
  SNAPSHOT_FILE,
  type JournalEntry,
} from './format';
import { JournalWriter, listSegments, readSegment } from './journal';
import { readLegacyState } from './legacy';
import { FaultableDiskIo } from './io';

import { readSnapshot, writeSnapshot, writeSnapshotSync } from './snapshot';

/** The journal is folded into a new snapshot once it outgrows the last snapshot (and at least this). */
const MIN_JOURNAL_BEFORE_SNAPSHOT = 8 * 1024 * 1024;
/** Unreferenced contents are looked for this often (and after each snapshot), only while nothing waits to be written. */
const COLLECT_EVERY_MS = 30_000;

/** A write that could not be made durable; the state is back to the last durable one. */
export class NotDurableError extends Error {
  constructor(
    message: string,
    readonly diskFull: boolean,
  ) {
    super(message);
  }
}

interface Loaded {
  state: StoreState;
  /** Seq of the last entry read. */
  seq: number;
  snapshotBytes: number;
}

export interface DurableOptions {
  /** Sync before acknowledging (default). Off only in the bench's comparison of what durability costs. */
  sync?: boolean;
  /** The sandbox's diskFull fault: while true, writes fail as on a full disk. */
  diskFull?: () => boolean;
}

export class DurableStore {
  readonly io: FaultableDiskIo;
  private store: Store | undefined;
  private writer: JournalWriter;
  private seq: number;
  private snapshotBytes: number;
  private waiting: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  private running = false;
  private snapshotting: Promise<void> | undefined;
  /** Bumps each time the state is put back after a failed write: a request that began before cannot be acknowledged. */
  private epochCounter = 0;
  private collectTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly sync: boolean;

  private constructor(
    readonly dir: string,
    private readonly blobs: DirectoryBlobStore,
    loaded: Loaded,
    opts: DurableOptions,
  ) {
    this.sync = opts.sync !== false;
    this.io = new FaultableDiskIo(opts.diskFull);
    this.state = loaded.state;
    this.seq = loaded.seq;
    this.snapshotBytes = loaded.snapshotBytes;
    const segments = listSegments(dir);
    const last = segments[segments.length - 1];
    this.writer = JournalWriter.open(dir, last ? last.first : this.seq + 1, this.io, this.sync);
  }

  readonly state: StoreState;

  /**
   * Opens (or creates with `seed`) the store of `dir`. Synchronous: it runs before the sandbox answers.
   * A damaged file is a DamagedStateError naming it.
   */
  static open(dir: string, blobs: DirectoryBlobStore, seed: () => StoreState, opts: DurableOptions = {}): DurableStore {
    for (const name of fs.readdirSync(dir)) if (name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
    const loaded = load(dir, blobs.dir, seed);
    // The sample contents are the same bytes at every start: written again if a crash lost them before they were
    // synced, so the first start need not wait for 170 syncs.
    seed();
    return new DurableStore(dir, blobs, loaded, opts);
  }

  /** Starts tracking `store` (built over this.state). */
  attach(store: Store): void {
    this.store = store;
    this.collectTimer = setInterval(() => this.collectIfIdle(), COLLECT_EVERY_MS);
    this.collectTimer.unref();
  }

  get epoch(): number {
    return this.epochCounter;
  }

  /**
   * Resolves once every write made so far is durable. Rejects with NotDurableError when it could not be made
   * durable, or when the state was put back since `epoch` (the caller's write was undone).
   */
  async commit(epoch: number): Promise<void> {
    if (this.store?.hasWrites || this.running) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.push({ resolve, reject });
        if (!this.running) void this.loop();
      });
    }
    if (epoch !== this.epochCounter)
      throw new NotDurableError(
        'The sandbox could not store a change made at the same time durably and undid it; nothing was changed. Retry.',
        false,
      );
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0);
        try {
          await this.writeOnce();
          for (const w of batch) w.resolve();
        } catch (e) {
          const err = this.undo(e);
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
    this.maybeSnapshot();
  }

  /** One group commit: the writes pending now, as one journal entry (or a whole snapshot for a bulk change). */
  private async writeOnce(): Promise<void> {
    const store = this.store!;
    const writes = store.takeWrites();
    if (writesEmpty(writes)) return;
    await this.blobs.syncPending();
    if (writes.whole) {
      if (this.snapshotting) await this.snapshotting.catch(() => undefined);
      await this.snapshot();
      return;
    }
    if (this.writer.damaged) this.rotate();
    const seq = this.seq + 1;
    const entry = this.entryOf(writes, seq);
    await this.writer.append(encodeLine(entry));
    this.seq = seq;
    if (entry.uploads) for (const l of store.committedUploadListeners) l(entry.uploads);
  }

  private entryOf(w: PendingWrites, seq: number): JournalEntry {
    const s = this.state;
    const e: JournalEntry = { seq, meta: metaOf(s) };
    if (w.reservedIds) e.reservedIds = [...s.reservedIds];
    if (w.users.size) {
      e.users = dictionary<StoredUser>();
      for (const id of w.users) if (s.users[id]) e.users[id] = s.users[id];
    }
    // A shared drive and its root folder share an id and change together (organisers follow the folder's
    // permissions; the folder is made and removed with the drive): either being written writes both.
    const drives = new Set(w.drives);
    const files = new Set(w.files);
    for (const id of w.files) if (s.drives[id]) drives.add(id);
    for (const id of w.drives) files.add(id);
    if (files.size) {
      e.files = dictionary<StoredFile | null>();
      for (const id of files) e.files[id] = s.files[id] ?? null;
    }
    if (drives.size) {
      e.drives = dictionary<StoredDrive | null>();
      for (const id of drives) e.drives[id] = s.drives[id] ?? null;
    }
    if (w.uploads.size) {
      e.uploads = dictionary<StoredUpload | null>();
      for (const id of w.uploads) e.uploads[id] = s.uploads?.[id] ?? null;
    }
    if (w.changesFrom !== Number.POSITIVE_INFINITY || w.trimmedBefore !== undefined) {
      const log = s.changes;
      let i = log.length;
      while (i > 0 && log[i - 1].id >= w.changesFrom) i--;
      e.changes = { from: Math.min(w.changesFrom, s.nextChangeId), append: log.slice(i) };
      if (w.trimmedBefore !== undefined) e.changes.trimmedBefore = w.trimmedBefore;
    }
    return e;
  }

  /** The write failed: back to the last durable state, read from disk. */
  private undo(cause: unknown): NotDurableError {
    const code = (cause as NodeJS.ErrnoException).code;
    const diskFull = code === 'ENOSPC' || code === 'EDQUOT';
    this.epochCounter++;
    try {
      const loaded = load(this.dir, this.blobs.dir, () => {
        throw new DamagedStateError(this.dir, 'the snapshot is gone');
      });
      this.seq = loaded.seq;
      this.store!.restore(loaded.state);
    } catch (e) {
      // The disk cannot even be read back: keep serving what is in memory, and say so.
      return new NotDurableError(`The sandbox cannot read its storage back (${(e as Error).message}).`, false);
    }
    return new NotDurableError(
      diskFull
        ? `No space left on the device holding the sandbox's data (${this.dir}): the change was not stored. Free some space and retry.`
        : `The sandbox could not store the change durably (${code ?? (cause as Error).message}); nothing was changed. Retry.`,
      diskFull,
    );
  }

  /** The next entry goes to a new segment (named by its seq); the current one is kept if it holds nothing yet. */
  private rotate(): void {
    if (this.writer.first === this.seq + 1) {
      if (!this.writer.damaged) return;
      // Its only line is the torn one that could not be cut back.
      this.writer.close();
      fs.truncateSync(this.writer.file, 0);
      this.writer = JournalWriter.open(this.dir, this.seq + 1, this.io, this.sync);
      return;
    }
    const next = JournalWriter.open(this.dir, this.seq + 1, this.io, this.sync);
    this.writer.close();
    this.writer = next;
  }

  /** Folds the journal into a new snapshot when it has outgrown the last one. Never blocks a commit. */
  private maybeSnapshot(): void {
    if (this.snapshotting || this.closed) return;
    if (this.writer.bytes < Math.max(MIN_JOURNAL_BEFORE_SNAPSHOT, this.snapshotBytes)) return;
    this.snapshotting = this.snapshot()
      .catch(() => undefined)
      .finally(() => (this.snapshotting = undefined));
  }

  /**
   * A new journal segment starts at the next entry, the snapshot is written from the live state as of the last
   * entry (later writes in it are replayed whole from the new segment), then the older segments go.
   */
  private async snapshot(): Promise<void> {
    this.rotate();
    const seq = this.seq;
    const epoch = this.epochCounter;
    this.snapshotBytes = await writeSnapshot(this.dir, SNAPSHOT_FILE, this.state, seq, this.io, {
      sync: this.sync,
      stillWanted: () => epoch === this.epochCounter && !this.closed,
    });
    for (const s of listSegments(this.dir)) if (s.first < this.writer.first) fs.rmSync(s.file, { force: true });
    this.collectIfIdle();
  }

  /** Contents nothing refers to go, but only while the state in memory is the durable one. */
  private collectIfIdle(): void {
    if (this.running || this.store?.hasWrites) return;
    this.blobs.collect(liveBlobKeys(this.state));
  }

  async close(): Promise<void> {
    if (this.store?.hasWrites) await this.commit(this.epochCounter).catch(() => undefined);
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 5));
    this.closed = true;
    if (this.snapshotting) await this.snapshotting;
    if (this.collectTimer) clearInterval(this.collectTimer);
    this.writer.close();
  }
}

/** What a restart would read from `dir` now, without changing anything there (tests compare it with the live state). */
export function readDurableState(dir: string): StoreState {
  return load(
    dir,
    path.join(dir, 'blobs'),
    () => {
      throw new DamagedStateError(dir, 'there is no snapshot');
    },
    false,
  ).state;
}

/** The last durable state of `dir`: the snapshot, then every journal entry after it. */
function load(dir: string, blobDir: string, seed: () => StoreState, repair = true): Loaded {
  const snapshotFile = path.join(dir, SNAPSHOT_FILE);
  let state: StoreState;
  let seq: number;
  let snapshotBytes: number;
  if (fs.existsSync(snapshotFile)) {
    ({ state, seq } = readSnapshot(snapshotFile));
    snapshotBytes = fs.statSync(snapshotFile).size;
  } else {
    const legacy = path.join(dir, LEGACY_STATE_FILE);
    const hadLegacy = fs.existsSync(legacy);
    state = hadLegacy ? readLegacyState(legacy, blobDir) : seed();
    seq = 0;
    if (listSegments(dir).length)
      throw new DamagedStateError(snapshotFile, 'it is missing while journal files are present');
    snapshotBytes = writeSnapshotSync(dir, SNAPSHOT_FILE, state, seq);
    if (hadLegacy) fs.rmSync(legacy, { force: true });
  }
  const segments = listSegments(dir);
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const read = readSegment(seg.file);
    for (const e of read.entries) {
      if (e.seq <= seq) continue;
      if (e.seq !== seq + 1)
        throw new DamagedStateError(seg.file, `entry ${e.seq} follows entry ${seq}: entries are missing`);
      applyEntry(state, e);
      seq = e.seq;
    }
    // A torn last line is an append the crash interrupted, never acknowledged: cut it off.
    if (read.torn && repair) fs.truncateSync(seg.file, read.goodBytes);
  }
  if (state.changes.length > CHANGE_LOG_KEEP * 2)
    throw new DamagedStateError(snapshotFile, 'the change log is longer than the sandbox ever keeps');
  return { state, seq, snapshotBytes };
}
