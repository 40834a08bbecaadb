// The snapshot: the whole state as JSON Lines (a header, then one record a line, then a closing count line),
// written to a temporary file, synced, renamed over the last one and the folder synced: a crash leaves the old
// snapshot or the new one, never half of one. It is written a slice at a time between requests ("fuzzy"): a
// record changed while it is written is also in a journal entry after the snapshot's `seq`, and replaying that
// entry writes the record whole again, so the state read back is the state at the end of the journal.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  dictionary,
  type StoreState,
  type StoredChange,
  type StoredDrive,
  type StoredFile,
  type StoredUpload,
} from '../model';
import {
  DamagedStateError,
  decodeLine,
  encodeLine,
  isSnapshotHeader,
  isStoredChange,
  isStoredDrive,
  isStoredFile,
  isStoredUpload,
  metaOf,
  SNAPSHOT_FORMAT,
  type SnapshotHeader,
} from './format';
import { fsyncDir, writeAllSync, type DiskIo } from './io';

const CHANGES_PER_LINE = 1000;
/** Records serialised between two yields to the event loop while a snapshot is written in the background. */
const RECORDS_PER_SLICE = 400;

interface Closing {
  end: true;
  files: number;
  drives: number;
  changes: number;
  /** Absent in snapshots written before upload sessions were kept. */
  uploads?: number;
}

type Line = { f: StoredFile } | { d: StoredDrive } | { u: StoredUpload } | { c: StoredChange[] } | Closing;

function header(state: StoreState, seq: number): SnapshotHeader {
  return {
    format: SNAPSHOT_FORMAT,
    version: 1,
    seq,
    meta: metaOf(state),
    apps: state.apps,
    reservedIds: [...state.reservedIds],
    users: state.users,
  };
}

/** The lines of a snapshot of `state`, produced lazily so the writer can pause between slices. */
function* snapshotLines(state: StoreState, seq: number): Generator<string> {
  yield encodeLine(header(state, seq));
  let files = 0;
  let drives = 0;
  // Ids are taken now; a record deleted meanwhile is skipped (its deletion is in the journal after `seq`).
  for (const id of Object.keys(state.files)) {
    const f = state.files[id];
    if (!f) continue;
    files++;
    yield encodeLine({ f } satisfies Line);
  }
  for (const id of Object.keys(state.drives)) {
    const d = state.drives[id];
    if (!d) continue;
    drives++;
    yield encodeLine({ d } satisfies Line);
  }
  let uploads = 0;
  const sessions = state.uploads ?? {};
  for (const id of Object.keys(sessions)) {
    const u = sessions[id];
    if (!u) continue;
    uploads++;
    yield encodeLine({ u } satisfies Line);
  }
  const changes = [...state.changes];
  for (let i = 0; i < changes.length; i += CHANGES_PER_LINE)
    yield encodeLine({ c: changes.slice(i, i + CHANGES_PER_LINE) } satisfies Line);
  yield encodeLine({ end: true, files, drives, changes: changes.length, uploads } satisfies Line);
}

/** A snapshot written to `tmp` (and synced) takes the place of `target`; the folder is synced so the rename holds. */
function replaceWith(fd: number, tmp: string, target: string): void {
  fs.closeSync(fd);
  fs.renameSync(tmp, target);
  fsyncDir(path.dirname(target));
}

/** A snapshot that could not be written whole: the last one stays. */
function abandon(fd: number, tmp: string): void {
  fs.closeSync(fd);
  fs.rmSync(tmp, { force: true });
}

/**
 * Writes a snapshot of `state` holding the journal up to `seq`, cut into slices with a turn of the event loop
 * between them, so requests go on being answered while a big store is written. It gives up (and leaves the last
 * snapshot as it was) as soon as `stillWanted` says the state it reads is no longer the one to keep.
 */
export async function writeSnapshot(
  dir: string,
  name: string,
  state: StoreState,
  seq: number,
  io: DiskIo,
  opts: { sync: boolean; stillWanted: () => boolean },
): Promise<number> {
  const target = path.join(dir, name);
  const tmp = `${target}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  let bytes = 0;
  try {
    let batch: string[] = [];
    let n = 0;
    const flush = () => {
      if (!batch.length) return;
      const buf = Buffer.from(batch.join(''));
      batch = [];
      io.beforeWrite();
      writeAllSync(fd, buf);
      bytes += buf.length;
    };
    for (const line of snapshotLines(state, seq)) {
      batch.push(line);
      if (++n % RECORDS_PER_SLICE === 0) {
        flush();
        await new Promise((resolve) => setImmediate(resolve));
        if (!opts.stillWanted()) throw new Error('snapshot abandoned');
      }
    }
    flush();
    if (opts.sync) {
      io.beforeSync();
      await new Promise<void>((resolve, reject) => fs.fsync(fd, (e) => (e ? reject(e) : resolve())));
    }
    if (!opts.stillWanted()) throw new Error('snapshot abandoned');
  } catch (e) {
    abandon(fd, tmp);
    throw e;
  }
  replaceWith(fd, tmp, target);
  return bytes;
}

/** Reads a snapshot back; any damage is a DamagedStateError naming the file. */
export function readSnapshot(file: string): { state: StoreState; seq: number } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new DamagedStateError(file, `cannot be read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] !== '') throw new DamagedStateError(file, 'it ends in the middle of a line');
  lines.pop();
  const damaged = (i: number, why: string) => new DamagedStateError(file, `line ${i + 1}: ${why}`);
  const head = lines.length ? decodeLine(lines[0]) : undefined;
  if (!isSnapshotHeader(head)) throw damaged(0, lines.length ? 'not a snapshot header' : 'the file is empty');
  const state: StoreState = {
    rootId: head.meta.rootId,
    meId: head.meta.meId,
    nextChangeId: head.meta.nextChangeId,
    idCounter: head.meta.idCounter,
    quotaBytesTotal: head.meta.quotaBytesTotal,
    users: dictionary(head.users),
    files: dictionary<StoredFile>(),
    drives: dictionary<StoredDrive>(),
    uploads: dictionary<StoredUpload>(),
    changes: [],
    apps: head.apps,
    reservedIds: head.reservedIds,
  };
  let closed: Closing | undefined;
  for (let i = 1; i < lines.length; i++) {
    if (closed) throw damaged(i, 'text after the closing line');
    const v = decodeLine(lines[i]) as Partial<Record<'f' | 'd' | 'u' | 'c', unknown>> & Partial<Closing>;
    if (v === undefined || typeof v !== 'object' || v === null) throw damaged(i, 'checksum or JSON does not match');
    if ('f' in v) {
      if (!isStoredFile(v.f)) throw damaged(i, 'not a file record');
      state.files[v.f.id] = v.f;
    } else if ('d' in v) {
      if (!isStoredDrive(v.d)) throw damaged(i, 'not a shared drive record');
      state.drives[v.d.id] = v.d;
    } else if ('u' in v) {
      if (!isStoredUpload(v.u)) throw damaged(i, 'not an upload session record');
      state.uploads![v.u.id] = v.u;
    } else if ('c' in v) {
      if (!Array.isArray(v.c) || !v.c.every(isStoredChange)) throw damaged(i, 'not a list of changes');
      state.changes.push(...v.c);
    } else if (v.end === true) {
      closed = v as Closing;
    } else throw damaged(i, 'unknown line');
  }
  if (!closed) throw new DamagedStateError(file, 'it is cut short (no closing line)');
  const counts = [Object.keys(state.files).length, Object.keys(state.drives).length, state.changes.length];
  const uploads = Object.keys(state.uploads!).length;
  if (
    counts[0] !== closed.files ||
    counts[1] !== closed.drives ||
    counts[2] !== closed.changes ||
    uploads !== (closed.uploads ?? 0)
  )
    throw new DamagedStateError(file, 'its record counts do not match its closing line');
  if (!state.users[state.meId]) throw new DamagedStateError(file, 'the current user is missing');
  return { state, seq: head.seq };
}

/** The same as writeSnapshot, all at once: at start-up, before the sandbox answers anything. */
export function writeSnapshotSync(dir: string, name: string, state: StoreState, seq: number): number {
  const target = path.join(dir, name);
  const tmp = `${target}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  const buf = Buffer.from([...snapshotLines(state, seq)].join(''));
  try {
    writeAllSync(fd, buf);
    fs.fsyncSync(fd);
  } catch (e) {
    abandon(fd, tmp);
    throw e;
  }
  replaceWith(fd, tmp, target);
  return buf.length;
}
