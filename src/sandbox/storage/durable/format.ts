// The storage sandbox's files on disk: a snapshot (JSON Lines, one record a line) and journal segments (one
// entry a line). Every line carries a checksum of its text, so a torn or damaged line is told from a good one.
// Records are checked on load: a damaged file stops start-up with one line naming it, never a stack trace.
import { createHash } from 'node:crypto';
import type {
  StoreState,
  StoredApp,
  StoredChange,
  StoredDrive,
  StoredFile,
  StoredRevision,
  StoredUpload,
  StoredUser,
} from '../model';
import type { BlobRef } from '../blobs';

export const SNAPSHOT_FILE = 'snapshot.jsonl';
export const LEGACY_STATE_FILE = 'state.json';
export const JOURNAL_PREFIX = 'journal-';
export const JOURNAL_SUFFIX = '.log';
export const SNAPSHOT_FORMAT = 'api-workbench-storage-snapshot';

/** The scalars of the state, written whole in every entry (they are small). */
export interface StateMeta {
  rootId: string;
  meId: string;
  nextChangeId: number;
  idCounter: number;
  quotaBytesTotal: number;
}

/** One group commit: the records written since the previous entry, whole (replaying an entry twice is harmless). */
export interface JournalEntry {
  seq: number;
  meta: StateMeta;
  reservedIds?: string[];
  users?: Record<string, StoredUser>;
  /** null: the record is gone. */
  files?: Record<string, StoredFile | null>;
  drives?: Record<string, StoredDrive | null>;
  uploads?: Record<string, StoredUpload | null>;
  changes?: { from: number; append: StoredChange[]; trimmedBefore?: number };
}

export interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: 1;
  /** The last journal entry whose writes the snapshot holds; replay starts after it. */
  seq: number;
  meta: StateMeta;
  apps: StoredApp[];
  reservedIds: string[];
  users: Record<string, StoredUser>;
}

/** A file of the store that cannot be read as written: start-up names it and says how to start over. */
export class DamagedStateError extends Error {
  constructor(
    readonly file: string,
    readonly why: string,
  ) {
    super(`The sandbox's storage file ${file} is damaged (${why}).`);
    this.name = 'DamagedStateError';
  }
}

const CHECK_LENGTH = 16;

function checksum(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, CHECK_LENGTH);
}

/** `<checksum> <json>\n` */
export function encodeLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${checksum(json)} ${json}\n`;
}

/** The value of a line (without its newline), or undefined when its checksum does not match its text. */
export function decodeLine(line: string): unknown {
  if (line.length < CHECK_LENGTH + 2 || line[CHECK_LENGTH] !== ' ') return undefined;
  const json = line.slice(CHECK_LENGTH + 1);
  if (checksum(json) !== line.slice(0, CHECK_LENGTH)) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

export function metaOf(state: StoreState): StateMeta {
  return {
    rootId: state.rootId,
    meId: state.meId,
    nextChangeId: state.nextChangeId,
    idCounter: state.idCounter,
    quotaBytesTotal: state.quotaBytesTotal,
  };
}

// Shape checks: enough that every record the sandbox reads has the fields its code relies on. What a client
// stored inside a record (properties, restrictions…) is data and is never interpreted here.
type Check = (v: unknown) => boolean;
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const arrayOf =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(item);
const objects: Check = arrayOf(isObject);

function has(v: unknown, fields: Record<string, Check>, optional: Record<string, Check> = {}): boolean {
  if (!isObject(v)) return false;
  for (const [k, check] of Object.entries(fields)) if (!check(v[k])) return false;
  for (const [k, check] of Object.entries(optional)) if (v[k] !== undefined && !check(v[k])) return false;
  return true;
}

export const isBlobRef = (v: unknown): v is BlobRef =>
  has(v, {
    key: (k) => typeof k === 'string' && /^[0-9a-f]{64}$/.test(k),
    size: num,
    md5: str,
    sha1: str,
    sha256: str,
  });

const isRevision = (v: unknown): v is StoredRevision =>
  has(v, { id: str, mimeType: str, modifiedDate: str, content: isBlobRef });

export const isStoredFile = (v: unknown): v is StoredFile =>
  has(
    v,
    {
      id: str,
      title: str,
      mimeType: str,
      parents: arrayOf(str),
      version: num,
      ownerId: str,
      createdDate: str,
      modifiedDate: str,
      trashed: bool,
      revisions: arrayOf(isRevision),
      properties: objects,
      permissions: objects,
      comments: objects,
      labels: objects,
      spaces: arrayOf(str),
    },
    { content: isBlobRef },
  );

export const isStoredDrive = (v: unknown): v is StoredDrive =>
  has(v, { id: str, name: str, createdDate: str, organizerIds: arrayOf(str), restrictions: isObject });

export const isStoredUpload = (v: unknown): v is StoredUpload =>
  has(
    v,
    {
      id: str,
      kind: (k) => k === 'insert' || k === 'update',
      metadata: isObject,
      received: num,
      partialName: (n) => typeof n === 'string' && /^[0-9a-f]{24}$/.test(n),
      query: str,
      created: num,
      tokenHash: str,
    },
    { fileId: str, contentType: str, total: num, ifMatch: str, result: (r) => has(r, { status: num }) },
  );

export const isStoredUser = (v: unknown): v is StoredUser =>
  has(v, { permissionId: str, displayName: str, emailAddress: str });

export const isStoredChange = (v: unknown): v is StoredChange =>
  has(v, { id: num, targetId: str, removed: bool, time: str }) &&
  ((v as StoredChange).changeType === 'file' || (v as StoredChange).changeType === 'drive');

export const isMeta = (v: unknown): v is StateMeta =>
  has(v, { rootId: str, meId: str, nextChangeId: num, idCounter: num, quotaBytesTotal: num });

const recordsOf =
  (check: Check): Check =>
  (v) =>
    isObject(v) && Object.values(v).every(check);

export const isSnapshotHeader = (v: unknown): v is SnapshotHeader =>
  has(v, {
    seq: num,
    meta: isMeta,
    apps: objects,
    reservedIds: arrayOf(str),
    users: recordsOf(isStoredUser),
  }) && (v as SnapshotHeader).format === SNAPSHOT_FORMAT;

const recordOrNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);

export const isJournalEntry = (v: unknown): v is JournalEntry =>
  has(
    v,
    { seq: num, meta: isMeta },
    {
      reservedIds: arrayOf(str),
      users: recordsOf(isStoredUser),
      files: recordsOf(recordOrNull(isStoredFile)),
      drives: recordsOf(recordOrNull(isStoredDrive)),
      uploads: recordsOf(recordOrNull(isStoredUpload)),
      changes: (c) => has(c, { from: num, append: arrayOf(isStoredChange) }, { trimmedBefore: num }),
    },
  );

/** Applies an entry to a state (in order, after the snapshot it follows). */
export function applyEntry(state: StoreState, e: JournalEntry): void {
  Object.assign(state, e.meta);
  if (e.reservedIds) state.reservedIds = e.reservedIds;
  if (e.users) Object.assign(state.users, e.users);
  for (const [id, f] of Object.entries(e.files ?? {})) {
    if (f) state.files[id] = f;
    else delete state.files[id];
  }
  for (const [id, d] of Object.entries(e.drives ?? {})) {
    if (d) state.drives[id] = d;
    else delete state.drives[id];
  }
  if (e.uploads) {
    const uploads = (state.uploads ??= Object.create(null) as Record<string, StoredUpload>);
    for (const [id, u] of Object.entries(e.uploads)) {
      if (u) uploads[id] = u;
      else delete uploads[id];
    }
  }
  if (e.changes) {
    const log = state.changes;
    const { from, append, trimmedBefore } = e.changes;
    while (log.length && log[log.length - 1].id >= from) log.pop();
    log.push(...append);
    if (trimmedBefore !== undefined) {
      let cut = 0;
      while (cut < log.length && log[cut].id < trimmedBefore) cut++;
      if (cut) log.splice(0, cut);
    }
  }
}
