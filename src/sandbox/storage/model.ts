// The emulator's state: plain JSON-serialisable records (contents are references into the blob store) so that `--data DIR`
// can persist them and every operation of the API is a function over this one model.
// Files keep parent ids (several allowed); the children index is derived and kept in step.
import { createHash } from 'node:crypto';
import { dictionary } from '../../shared/wire/ownKeys';
import { FOLDER_MIME } from '../../shared/wire/storage';
import type { BlobStore } from './blobs';
import type { StoreState, StoredChange, StoredFile, StoredUpload, StoredUser } from './storedRecords';

export type {
  StoredUser,
  StoredRevision,
  StoredPermission,
  StoredReply,
  StoredComment,
  StoredProperty,
  StoredLabel,
  StoredFile,
  UploadSession,
  StoredUpload,
  StoredDrive,
  StoredChange,
  StoredApp,
  StoreState,
} from './storedRecords';

/** Deterministic id source: the same seed yields the same ids, so sample data is stable across runs. */
export function makeId(seed: string, n: number, length = 33): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const digest = createHash('sha256').update(`${seed}:${n}`).digest();
  let out = '1';
  for (let i = 0; out.length < length; i++) out += alphabet[(digest[i % digest.length] + (i >> 5) * 7) & 63];
  return out;
}

/** The change log keeps at least this many entries; it is cut back to it once it holds CHANGE_LOG_SLACK more. */
export const CHANGE_LOG_KEEP = 50_000;
const CHANGE_LOG_SLACK = 5_000;

/**
 * What changed since the durable layer last took the changes: the records to write again (by id), and the tail
 * of the change log. `whole` means a change too wide to name record by record (a bulk seed): the whole state.
 */
export interface PendingWrites {
  files: Set<string>;
  drives: Set<string>;
  users: Set<string>;
  /** Upload sessions saved or ended. */
  uploads: Set<string>;
  reservedIds: boolean;
  whole: boolean;
  /** Lowest change id pushed or taken back: the log from this id on is written again. */
  changesFrom: number;
  /** The log was cut at its start: entries before this id are gone. */
  trimmedBefore?: number;
}

function noWrites(): PendingWrites {
  return {
    files: new Set(),
    drives: new Set(),
    users: new Set(),
    uploads: new Set(),
    reservedIds: false,
    whole: false,
    changesFrom: Number.POSITIVE_INFINITY,
  };
}

export function writesEmpty(w: PendingWrites): boolean {
  return (
    !w.whole &&
    !w.reservedIds &&
    w.files.size === 0 &&
    w.drives.size === 0 &&
    w.users.size === 0 &&
    w.uploads.size === 0 &&
    w.changesFrom === Number.POSITIVE_INFINITY &&
    w.trimmedBefore === undefined
  );
}

/**
 * The live store: state plus the derived children index and the bookkeeping every mutation needs
 * (version bump, change-log entry, what the durable layer must write).
 */
export class Store {
  private readonly childIndex = new Map<string, Set<string>>();
  /** Bumps on every mutation; list snapshots are cached against it, and a request compares it to know it wrote. */
  generation = 0;
  onMutate: () => void = () => {};
  private writes = noWrites();
  /** Observers of the change log (notification channels). */
  readonly changeListeners = new Set<(change: StoredChange) => void>();
  /** Called after restore(): holders of state derived from it (open upload sessions) take it up again. */
  readonly restoreListeners = new Set<() => void>();
  /** Called once a journal entry is durable, with the upload session records it held (null: a session ended). */
  readonly committedUploadListeners = new Set<(records: Readonly<Record<string, StoredUpload | null>>) => void>();

  constructor(
    readonly state: StoreState,
    readonly blobs: BlobStore,
    readonly now: () => Date = () => new Date(),
  ) {
    // Ids come from URLs: a lookup of `constructor` or `__proto__` must find nothing, not Object's own members.
    state.users = dictionary(state.users);
    state.files = dictionary(state.files);
    state.drives = dictionary(state.drives);
    state.uploads = dictionary(state.uploads);
    this.buildIndex();
  }

  /** Resumable upload sessions by id. */
  get uploads(): Record<string, StoredUpload> {
    return (this.state.uploads ??= dictionary());
  }

  /**
   * Keeps a session's record: written with the request's other writes before its answer (a 308 that reports
   * bytes, the final chunk's file), so what a client was told survives a crash. Not a change of the drive:
   * lists and the change log are not touched.
   */
  saveUpload(record: StoredUpload): void {
    this.uploads[record.id] = record;
    this.writes.uploads.add(record.id);
  }

  dropUpload(id: string): void {
    delete this.uploads[id];
    this.writes.uploads.add(id);
  }

  private buildIndex(): void {
    this.childIndex.clear();
    for (const f of Object.values(this.state.files)) for (const p of f.parents) this.indexChild(p, f.id);
  }

  /** Hands the changes made since the last call to the durable layer. */
  takeWrites(): PendingWrites {
    const w = this.writes;
    this.writes = noWrites();
    return w;
  }

  get hasWrites(): boolean {
    return !writesEmpty(this.writes);
  }

  /**
   * Puts the store back to `state` (the last durable state, after a write that could not be made durable):
   * the same state object is refilled so every holder of it sees the change.
   */
  restore(state: StoreState): void {
    Object.assign(this.state, state);
    this.state.users = dictionary(state.users);
    this.state.files = dictionary(state.files);
    this.state.drives = dictionary(state.drives);
    this.state.uploads = dictionary(state.uploads);
    this.buildIndex();
    this.writes = noWrites();
    this.generation += 1;
    for (const l of this.restoreListeners) l();
  }

  /** A change too wide to track record by record (bulk seeding): the durable layer writes the whole state. */
  wholeStateChanged(): void {
    this.writes.whole = true;
    this.mutated();
  }

  addUser(user: StoredUser): void {
    this.state.users[user.permissionId] = user;
    this.writes.users.add(user.permissionId);
    this.mutated();
  }

  /** Ids handed out by generateIds, kept until used (at most 10,000, the oldest dropped first). */
  reserveIds(ids: string[]): void {
    const r = this.state.reservedIds;
    r.push(...ids);
    if (r.length > 10_000) r.splice(0, r.length - 10_000);
    this.writes.reservedIds = true;
    this.mutated();
  }

  /** Takes a reserved id for a new file; false when it was never handed out (or already used). */
  useReservedId(id: string): boolean {
    const i = this.state.reservedIds.indexOf(id);
    if (i < 0) return false;
    this.state.reservedIds.splice(i, 1);
    this.writes.reservedIds = true;
    return true;
  }

  get me(): StoredUser {
    return this.state.users[this.state.meId];
  }

  user(id: string): StoredUser {
    return this.state.users[id] ?? { permissionId: id, displayName: 'Unknown user', emailAddress: '' };
  }

  nowIso(): string {
    return this.now().toISOString();
  }

  newId(): string {
    this.state.idCounter += 1;
    return makeId('store', this.state.idCounter);
  }

  /** Resolves the `root` alias. */
  resolveId(id: string): string {
    return id === 'root' ? this.state.rootId : id;
  }

  file(id: string): StoredFile | undefined {
    return this.state.files[this.resolveId(id)];
  }

  childIds(folderId: string): string[] {
    return [...(this.childIndex.get(this.resolveId(folderId)) ?? [])];
  }

  addFile(file: StoredFile): void {
    this.state.files[file.id] = file;
    for (const p of file.parents) this.indexChild(p, file.id);
    this.recordFileChange(file.id, false);
  }

  setParents(file: StoredFile, parents: string[]): void {
    for (const p of file.parents) this.childIndex.get(p)?.delete(file.id);
    file.parents = [...new Set(parents)];
    for (const p of file.parents) this.indexChild(p, file.id);
  }

  removeFile(id: string): void {
    const file = this.state.files[id];
    if (!file) return;
    for (const p of file.parents) this.childIndex.get(p)?.delete(id);
    this.childIndex.delete(id);
    delete this.state.files[id];
    this.recordFileChange(id, true, file.driveId);
  }

  /** Every change to a file goes through here so version, etag and the change log stay consistent. */
  touchFile(file: StoredFile, opts: { modified?: boolean; byMe?: boolean } = {}): void {
    file.version += 1;
    if (opts.modified) {
      file.modifiedDate = this.nowIso();
      if (opts.byMe !== false) {
        file.modifiedByMeDate = file.modifiedDate;
        file.lastModifyingUserId = this.state.meId;
      }
    }
    this.recordFileChange(file.id, false, file.driveId);
  }

  recordFileChange(targetId: string, removed: boolean, driveId?: string): void {
    this.writes.files.add(targetId);
    this.pushChange({
      id: this.state.nextChangeId++,
      changeType: 'file',
      targetId,
      driveId,
      removed,
      time: this.nowIso(),
    });
  }

  recordDriveChange(driveId: string, removed: boolean): void {
    this.writes.drives.add(driveId);
    this.pushChange({
      id: this.state.nextChangeId++,
      changeType: 'drive',
      targetId: driveId,
      driveId,
      removed,
      time: this.nowIso(),
    });
  }

  private pushChange(c: StoredChange): void {
    // Consecutive changes of one item collapse into the latest, as the service reports them.
    const log = this.state.changes;
    const last = log[log.length - 1];
    const w = this.writes;
    if (last && last.targetId === c.targetId && last.changeType === c.changeType && !last.removed) {
      log.pop();
      w.changesFrom = Math.min(w.changesFrom, last.id);
    }
    log.push(c);
    w.changesFrom = Math.min(w.changesFrom, c.id);
    // Cut in steps, not one entry per change: shifting 50,000 entries on every write would cost with the log's size.
    if (log.length > CHANGE_LOG_KEEP + CHANGE_LOG_SLACK) {
      log.splice(0, log.length - CHANGE_LOG_KEEP);
      w.trimmedBefore = log[0].id;
    }
    this.mutated();
    for (const l of this.changeListeners) l(c);
  }

  private mutated(): void {
    this.generation += 1;
    this.onMutate();
  }

  /** Folder ids on the path from `id` up (excluding itself); guards against cycles. */
  ancestors(id: string): Set<string> {
    const seen = new Set<string>();
    const queue = [...(this.state.files[id]?.parents ?? [])];
    while (queue.length) {
      const p = queue.pop()!;
      if (seen.has(p)) continue;
      seen.add(p);
      queue.push(...(this.state.files[p]?.parents ?? []));
    }
    return seen;
  }

  /** All descendants of a folder (each once, even when reachable through several parents). */
  descendants(id: string): StoredFile[] {
    const out: StoredFile[] = [];
    const seen = new Set<string>([id]);
    const queue = [id];
    while (queue.length) {
      const cur = queue.pop()!;
      for (const c of this.childIds(cur)) {
        if (seen.has(c)) continue;
        seen.add(c);
        const f = this.state.files[c];
        if (!f) continue;
        out.push(f);
        if (f.mimeType === FOLDER_MIME) queue.push(c);
      }
    }
    return out;
  }

  private indexChild(parentId: string, childId: string): void {
    let set = this.childIndex.get(parentId);
    if (!set) this.childIndex.set(parentId, (set = new Set()));
    set.add(childId);
  }
}

/** Keys of every blob the state refers to (head contents and revisions): what the blob store must keep. */
export function liveBlobKeys(state: StoreState): Set<string> {
  const live = new Set<string>();
  for (const f of Object.values(state.files)) {
    if (f.content) live.add(f.content.key);
    for (const r of f.revisions) live.add(r.content.key);
  }
  return live;
}

/** A record keyed by outside input (the shared helper, kept here for the store's modules). */
export { dictionary };

export function etagOf(kind: string, id: string, version: number): string {
  const h = createHash('sha1').update(`${kind}:${id}:${version}`).digest('base64url').slice(0, 27);
  return `"${h}"`;
}
