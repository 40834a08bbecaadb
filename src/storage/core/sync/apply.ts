// Carries out a plan. Each action checks that what it is about to replace, move or delete on disk is
// still what the scan saw (an edit made during the run is left for the next run, never overwritten),
// updates the state for what it did, and has the state saved; so a run stopped anywhere leaves a state
// from which the next run's plan finishes the job. Downloads land in the state folder first and are
// renamed into place once their checksum is right; creations on the store use reserved ids, so a
// retried request cannot make a second item.
import { randomUUID } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { FOLDER_MIME, type File } from '../../../shared/wire/storage';
import type { StorageClient } from '../client';
import { StorageError } from '../errors';
import { guessType } from '../storeItems';
import { fileSource, upload } from '../upload';
import type { LocalItem } from './localScan';
import { entryOf, type Action } from './model';
import { baseName, parentOf, within } from './names';
import { fetchBytes } from './fetchBytes';
import { NewIds } from './newIds';
import { untrashInPlace } from './untrash';
import { pool, Slots } from './pool';
import { fileKey, STATE_DIR, type BaseEntry, type SyncState } from './state';
import { syncBytes, type StateWriter } from './stateWriter';
import { ITEM_FIELDS as FILE_FIELDS, mirrorItem, type StoreItem } from './storeScan';
import { versionIfUnchanged } from './storeVersion';

export interface SyncEvent {
  action: Action['kind'] | 'skip' | 'error';
  path: string;
  to?: string;
  bytes?: number;
  reason?: string;
  /** A skip because the item changed during the run: the next run does it. */
  deferred?: true;
  /** A download that is the export of a workspace document to this type. */
  export?: string;
}

export interface ApplyContext {
  client: StorageClient;
  root: string;
  state: SyncState;
  writer: StateWriter;
  local: Map<string, LocalItem>;
  store: Map<string, StoreItem>;
  concurrency: number;
  runId: string;
  signal?: AbortSignal;
  onEvent: (e: SyncEvent) => void;
}

class Changed extends Error {}
const storeChanged = (p: string) =>
  new Changed(`${p} changed on the store during the run; the next run takes it into account`);
/** Left as it is, and said why: not an error, and no later run changes it by itself. */
class Reported extends Error {}

export async function applyPlan(ctx: ApplyContext, actions: Action[]): Promise<number> {
  const { state } = ctx;
  const folderIds = new Map<string, string>([['', state.storeFolderId]]);
  for (const [p, r] of ctx.store) if (r.folder) folderIds.set(p, r.id);
  const ids = new NewIds(
    ctx.client,
    actions.filter(
      (a) =>
        a.kind === 'mkdir-store' ||
        a.kind === 'untrash-store' ||
        (a.kind === 'upload' && !a.id) ||
        (a.kind === 'conflict' && a.mode !== 'download'),
    ).length,
    ctx.signal,
  );
  const newId = () => ids.next();
  let errors = 0;
  /** Transfers on the wire at a time (the run's concurrency). */
  const network = new Slots(ctx.concurrency);
  const abs = (p: string) => path.join(ctx.root, ...p.split('/'));

  const setBase = (p: string, e: BaseEntry | undefined) => {
    if (e) state.base[p] = e;
    else delete state.base[p];
  };
  const moveBase = (from: string, to: string) => {
    for (const [k, v] of Object.entries(state.base))
      if (within(k, from)) {
        delete state.base[k];
        state.base[to + k.slice(from.length)] = v;
      }
  };
  const dropBase = (p: string) => {
    for (const k of Object.keys(state.base)) if (within(k, p)) delete state.base[k];
  };
  const remember = (f: File): StoreItem => {
    const m = mirrorItem(f)!;
    state.mirror[m.id] = m;
    const { folder, id, mimeType, md5, size, modified, etag } = m;
    return { folder, id, mimeType, md5, size, modified, etag };
  };
  let rootDev: bigint | undefined;
  const statOf = async (p: string): Promise<LocalItem | undefined> => {
    const st = await fsp.lstat(abs(p), { bigint: true }).catch(() => undefined);
    if (!st) return undefined;
    return {
      folder: st.isDirectory(),
      ino: fileKey(st, (rootDev ??= (await fsp.stat(ctx.root, { bigint: true })).dev)),
      mtime: Number(st.mtimeNs / 1000n),
      lsize: st.isDirectory() ? 0 : Number(st.size),
    };
  };
  /** The file on disk is as scanned (or absent, as scanned); otherwise it changed during the run. */
  const unchanged = async (p: string, scanned: LocalItem | undefined) => {
    const now = await statOf(p);
    if (!now && !scanned) return;
    if (
      now &&
      scanned &&
      (scanned.folder || (now.ino === scanned.ino && now.mtime === scanned.mtime && now.lsize === scanned.lsize))
    )
      return;
    throw new Changed(`${p} changed on disk during the run; the next run takes it into account`);
  };

  const uploadFile = async (p: string, from: string, scanned: LocalItem, over?: StoreItem): Promise<StoreItem> => {
    const id = over?.id;
    await unchanged(from, scanned);
    const parentId = folderIds.get(parentOf(p));
    if (!parentId) throw new Error(`the store folder of ${p} is missing`);
    const title = baseName(p);
    const metadata = id ? {} : { id: await newId(), title, parents: [{ id: parentId }] };
    const listed = id ? ctx.state.mirror[id] : undefined;
    if (id && !listed) throw storeChanged(p);
    const version = listed ? await network.hold(() => versionIfUnchanged(ctx.client, listed, ctx.signal)) : {};
    if (version === 'changed') throw storeChanged(p);
    const sent = network.hold(() =>
      upload(ctx.client, fileSource(abs(from)), {
        fileId: id,
        metadata,
        contentType: guessType(title),
        ifMatch: version.etag,
        query: { supportsAllDrives: true, fields: FILE_FIELDS },
        signal: ctx.signal,
      }),
    );
    const f = await sent.catch((e: unknown) => {
      if (e instanceof StorageError && e.status === 412) throw storeChanged(p);
      throw e;
    });
    return remember(f);
  };

  /**
   * Store bytes (or a document's export) to `p`. With `compare`, a file already at `p` is kept: the same bytes
   * are recorded, other bytes are reported (an export never replaces a file it did not write).
   */
  const tmpDir = path.join(ctx.root, STATE_DIR, 'tmp');
  let tmpReady: Promise<unknown> | undefined;
  const download = async (
    p: string,
    r: StoreItem,
    scanned: LocalItem | undefined,
    compare = false,
  ): Promise<LocalItem> => {
    await (tmpReady ??= fsp.mkdir(tmpDir, { recursive: true }));
    const tmp = path.join(tmpDir, randomUUID());
    let placed = false;
    try {
      const md5 = await network.hold(() => fetchBytes(ctx.client, r, tmp, ctx.signal));
      // The bytes are synced in this transfer's lane after it gives up its network slot, so the next transfer
      // starts while the disk catches up (waiting for every file at the next state save instead made the first
      // download of 1 GB a third slower; syncing while holding the slot left the network idle meanwhile).
      await syncBytes(tmp);
      if (!r.export && r.md5 && md5 !== r.md5) throw new Changed(`${p} changed on the store during the run`);
      await unchanged(p, scanned);
      if (compare && scanned) {
        if (scanned.lmd5 === md5)
          return { folder: scanned.folder, ino: scanned.ino, mtime: scanned.mtime, lsize: scanned.lsize, lmd5: md5 };
        throw new Reported(
          "a local file has the name of this document's export and other bytes; an export never replaces it: move it away to sync the export",
        );
      }
      await fsp.mkdir(path.dirname(abs(p)), { recursive: true });
      await fsp.rename(tmp, abs(p));
      placed = true;
      ctx.writer.placed(abs(p), true);
      const st = (await statOf(p))!;
      return { ...st, lmd5: md5 };
    } finally {
      if (!placed) await fsp.rm(tmp, { force: true });
    }
  };

  const trashLocal = async (p: string) => {
    const target = path.join(ctx.root, STATE_DIR, 'trash', ctx.runId, ...p.split('/'));
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(abs(p), target);
  };

  const renameLocal = async (from: string, to: string) => {
    await fsp.mkdir(path.dirname(abs(to)), { recursive: true });
    if (from.toLowerCase() === to.toLowerCase()) {
      // Case-only: through a temporary name, which a case-insensitive disk needs.
      const tmp = `${abs(from)}.${randomUUID()}`;
      await fsp.rename(abs(from), tmp);
      await fsp.rename(tmp, abs(to));
    } else await fsp.rename(abs(from), abs(to));
    // Both folders' names change: synced with the state that records the move.
    ctx.writer.placed(abs(from));
    ctx.writer.placed(abs(to));
  };

  const run = async (a: Action): Promise<void> => {
    switch (a.kind) {
      case 'rename-local': {
        await unchanged(a.from, ctx.local.get(a.to));
        await renameLocal(a.from, a.to);
        moveBase(a.from, a.to);
        ctx.onEvent({ action: a.kind, path: a.from, to: a.to });
        return;
      }
      case 'rename-store': {
        const oldParent = folderIds.get(parentOf(a.from));
        const newParent = folderIds.get(parentOf(a.to));
        const moved = oldParent !== newParent;
        const f = await ctx.client.call(
          'files.patch',
          {
            fileId: a.id,
            supportsAllDrives: true,
            fields: FILE_FIELDS,
            ...(moved ? { addParents: newParent, removeParents: oldParent } : {}),
          },
          { title: baseName(a.to) },
          { signal: ctx.signal },
        );
        remember(f);
        if (a.folder)
          for (const [k, v] of [...folderIds])
            if (within(k, a.from)) {
              folderIds.delete(k);
              folderIds.set(a.to + k.slice(a.from.length), v);
            }
        moveBase(a.from, a.to);
        ctx.onEvent({ action: a.kind, path: a.from, to: a.to });
        return;
      }
      case 'mkdir-store': {
        const parentId = folderIds.get(parentOf(a.path));
        if (!parentId) throw new Error(`the store folder of ${a.path} is missing`);
        const id = await newId();
        const f = await ctx.client.call(
          'files.insert',
          { supportsAllDrives: true, fields: FILE_FIELDS },
          { ...(id ? { id } : {}), title: baseName(a.path), mimeType: FOLDER_MIME, parents: [{ id: parentId }] },
          { signal: ctx.signal },
        );
        const r = remember(f);
        folderIds.set(a.path, r.id);
        const l = await statOf(a.path);
        if (l) setBase(a.path, entryOf(l, r));
        ctx.onEvent({ action: a.kind, path: a.path });
        return;
      }
      case 'untrash-store': {
        const l = ctx.local.get(a.path)!;
        const parentId = folderIds.get(parentOf(a.path));
        const got = await network.hold(() => untrashInPlace(ctx.client, a, parentId, ctx.signal));
        // Gone from the trash (or back elsewhere, so trashed again): the local one goes up as a new item.
        if (got === 'gone')
          return run(
            a.folder
              ? { kind: 'mkdir-store', path: a.path }
              : { kind: 'upload', path: a.path, size: l.lsize, md5: l.lmd5 ?? '' },
          );
        const r = remember(got.back);
        if (a.folder) folderIds.set(a.path, r.id);
        // Other bytes than the local file's: no entry, so the next run keeps both (as a file made on both sides).
        if (!a.folder && r.md5 !== l.lmd5) dropBase(a.path);
        else setBase(a.path, entryOf(l, r));
        ctx.onEvent({ action: a.kind, path: a.path });
        return;
      }
      case 'mkdir-local': {
        await fsp.mkdir(abs(a.path), { recursive: true });
        setBase(a.path, entryOf((await statOf(a.path))!, ctx.store.get(a.path)!));
        ctx.onEvent({ action: a.kind, path: a.path });
        return;
      }
      case 'upload': {
        const l = ctx.local.get(a.path)!;
        const r = await uploadFile(a.path, a.path, l, a.id ? ctx.store.get(a.path) : undefined);
        // A new file is hashed by the store as it is sent (see scanLocal): its checksum of what came is the file's.
        setBase(a.path, entryOf(l.lmd5 ? l : { ...l, lmd5: r.md5 }, r));
        ctx.onEvent({ action: a.kind, path: a.path, bytes: a.size });
        return;
      }
      case 'download': {
        const r = ctx.store.get(a.path)!;
        const scanned = ctx.local.get(a.path);
        const b = state.base[a.path];
        // An export goes over a local file only when that is the export last synced there.
        const compare = !!a.export && !!scanned && !(b?.export === a.export && scanned.lmd5 === b.lmd5);
        const l = await download(a.path, r, scanned, compare);
        setBase(a.path, entryOf(l, r));
        ctx.onEvent({
          action: a.kind,
          path: a.path,
          bytes: a.export ? l.lsize : a.size,
          ...(a.export ? { export: a.export } : {}),
        });
        return;
      }
      case 'conflict':
        return conflict(a);
      case 'delete-local': {
        if (!a.folder) await unchanged(a.path, ctx.local.get(a.path));
        await trashLocal(a.path);
        dropBase(a.path);
        ctx.onEvent({ action: a.kind, path: a.path });
        return;
      }
      case 'delete-store': {
        await ctx.client.call('files.trash', { fileId: a.id, supportsAllDrives: true, fields: 'id' }, undefined, {
          signal: ctx.signal,
        });
        delete state.mirror[a.id];
        dropBase(a.path);
        ctx.onEvent({ action: a.kind, path: a.path });
        return;
      }
    }
  };

  const conflict = async (a: Extract<Action, { kind: 'conflict' }>) => {
    const l = ctx.local.get(a.path)!;
    const r = ctx.store.get(a.path)!;
    if (a.mode === 'upload') {
      await uploadFile(a.copy, a.path, l);
      setBase(a.path, entryOf(l, r));
    } else if (a.mode === 'download') {
      await download(a.copy, r, undefined);
      setBase(a.path, entryOf(l, r));
    } else {
      await unchanged(a.path, l);
      await renameLocal(a.path, a.copy);
      const copyStat = (await statOf(a.copy))!;
      const copied = await uploadFile(a.copy, a.copy, { ...copyStat, lmd5: l.lmd5 });
      setBase(a.copy, entryOf({ ...copyStat, lmd5: l.lmd5 }, copied));
      ctx.writer.soon();
      const got = await download(a.path, r, undefined);
      setBase(a.path, entryOf(got, r));
    }
    ctx.onEvent({ action: 'conflict', path: a.path, to: a.copy });
  };

  const attempt = async (a: Action) => {
    try {
      await run(a);
    } catch (e) {
      if (ctx.signal?.aborted) throw e;
      if (e instanceof Changed) ctx.onEvent({ action: 'skip', path: pathOf(a), reason: e.message, deferred: true });
      else if (e instanceof Reported) ctx.onEvent({ action: 'skip', path: pathOf(a), reason: e.message });
      else {
        errors++;
        ctx.onEvent({ action: 'error', path: pathOf(a), reason: (e as Error).message });
      }
    }
    ctx.writer.soon();
  };

  const phase = (kinds: Action['kind'][]) => actions.filter((a) => kinds.includes(a.kind));
  for (const a of phase(['rename-store', 'rename-local'])) await attempt(a);
  // Folders taken back from the store's trash are made with the others, shallow first; files with the transfers.
  const mkdirs = actions
    .filter((a) => a.kind === 'mkdir-store' || a.kind === 'mkdir-local' || (a.kind === 'untrash-store' && a.folder))
    .sort((x, y) => depth(pathOf(x)) - depth(pathOf(y)));
  for (const a of mkdirs) await attempt(a);
  // Twice as many lanes as network slots: a lane whose file is being synced to disk does not hold one.
  const transfers = actions.filter(
    (a) => ['upload', 'download', 'conflict'].includes(a.kind) || (a.kind === 'untrash-store' && !a.folder),
  );
  await pool(transfers, 2 * ctx.concurrency, attempt);
  await pool(phase(['delete-local', 'delete-store']), ctx.concurrency, attempt);
  return errors;
}

function pathOf(a: Action): string {
  return 'path' in a ? a.path : a.from;
}

function depth(p: string): number {
  return p.split('/').length;
}

/** Runs `work` over `items`, at most `limit` at a time, in order of start. */
