// File contents live outside the state, in a blob store: uploads stream into it (a 100 MB upload costs
// a few chunks of memory, not 100 MB), downloads stream out of it, and the state only holds a small,
// JSON-serialisable reference. Blobs are content-addressed (named by SHA-256), so copies and unchanged
// revisions share one file and the state on disk (durable/) only names them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BodyTooLargeError } from '../http';
import { fsyncDir, ownerOnlyFolder } from './durable/io';

/** What the state keeps of a content: where it is and what the service reports about it. */
export interface BlobRef {
  /** SHA-256 hex of the bytes: the blob's name in the store. */
  readonly key: string;
  readonly size: number;
  readonly md5: string;
  readonly sha1: string;
  readonly sha256: string;
}

/** A blob the state names but the folder does not hold whole (deleted or cut short outside the sandbox). */
export class BlobUnreadableError extends Error {
  override readonly name = 'BlobUnreadableError';
}

/** Bytes being received over several requests (a resumable upload session). */
export interface PartialBlob {
  /** The file's name under the contents' `partial` folder: a session's record names it. */
  readonly name: string;
  /** Bytes written so far. */
  readonly size: number;
  append(chunk: Uint8Array): Promise<void>;
  /** Drops everything after the first `size` bytes (bytes a real server would not have kept). */
  truncate(size: number): Promise<void>;
  /** Makes the bytes written so far durable (before a 308 reports them). */
  sync(): Promise<void>;
  /**
   * Turns the bytes into a blob. In a kept folder the partial file stays, as a second name of the blob's file,
   * until `dropPartial` (the session's answer is durable by then): a crash before that finds the session's bytes.
   */
  complete(): Promise<BlobRef>;
  /** Closes the file and keeps it (the sandbox stops; the session goes on at the next start). */
  close(): Promise<void>;
  discard(): Promise<void>;
}

/** Where contents are kept. One implementation today (a directory); persistence under an extension's storage reuses it. */
export interface BlobStore {
  /** Stores bytes already in memory (seed data, small generated content). */
  putBytes(bytes: Uint8Array): BlobRef;
  /** Streams bytes into a new blob, hashing as they pass; refuses more than `limit` bytes. */
  putStream(source: AsyncIterable<Uint8Array>, limit?: number): Promise<BlobRef>;
  startPartial(): Promise<PartialBlob>;
  /** The partial blob `name` of a session kept from an earlier run, or undefined when it lacks `size` bytes. */
  resumePartial(name: string, size: number): PartialBlob | undefined;
  /** Deletes the partial blobs no session names (sessions that ended while the sandbox was down or crashed). */
  keepPartials(names: ReadonlySet<string>): void;
  /** Removes the partial file of a session whose answer is durable (its bytes live on as a blob). */
  dropPartial(name: string): void;
  /**
   * The bytes `start..end` (inclusive) of a blob, as a stream; refused with BlobUnreadableError, before a byte
   * is read, when the blob is missing or not of the size the state says (so no status line promises bytes
   * that are not there).
   */
  open(ref: BlobRef, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * The whole blob in memory, for operations that need it (conversion, export, full-text search) on small
   * contents; BlobUnreadableError when it is missing or not of its recorded size.
   */
  readAll(ref: BlobRef): Buffer;
  /** Deletes the blobs not named in `live` (blobs written in the last minute are kept: an upload may not be in the state yet). */
  collect(live: ReadonlySet<string>): void;
  /** Makes the blobs added since the last call durable: bytes put from memory, and every new name. */
  syncPending(): Promise<void>;
  close(): Promise<void>;
}

const TMP = 'partial';
/** Errors of a file system that cannot make hard links. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);
const SYNC_TOGETHER = 64;
const FRESH_MS = 60_000;

class Hashes {
  private readonly md5: Hash = createHash('md5');
  private readonly sha1: Hash = createHash('sha1');
  private readonly sha256: Hash = createHash('sha256');
  size = 0;

  update(chunk: Uint8Array): void {
    this.md5.update(chunk);
    this.sha1.update(chunk);
    this.sha256.update(chunk);
    this.size += chunk.length;
  }

  ref(): BlobRef {
    const sha256 = this.sha256.digest('hex');
    return { key: sha256, size: this.size, md5: this.md5.digest('hex'), sha1: this.sha1.digest('hex'), sha256 };
  }
}

function unreadable(ref: BlobRef, why: string): BlobUnreadableError {
  return new BlobUnreadableError(`The stored content ${ref.key.slice(0, 12)}… cannot be read (${why}).`);
}

export function blobRefOf(bytes: Uint8Array): BlobRef {
  const h = new Hashes();
  h.update(bytes);
  return h.ref();
}

/** A directory of blobs named by SHA-256, with partial uploads in a subdirectory. */
export class DirectoryBlobStore implements BlobStore {
  private readonly written = new Map<string, number>();
  private namesToSync = false;
  /** Blobs put from memory and not synced yet: synced together (in parallel) by the next commit. */
  private unsynced: string[] = [];

  private constructor(
    readonly dir: string,
    private readonly removeOnClose: boolean,
    /** Sync each blob's bytes before it is named (off only for the bench's durability-off comparison). */
    private readonly durable: boolean,
  ) {
    // Contents are the user's files: owner-only, whatever mode the folder was made with (older versions: 0755).
    if (ownerOnlyFolder(dir, 'a folder of contents'))
      for (const name of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, name), name === TMP ? 0o700 : 0o600);
    ownerOnlyFolder(path.join(dir, TMP), 'a folder of contents');
  }

  /** A store in `dir` (kept), or in a fresh temporary directory removed on close. */
  static open(dir?: string, durable = true): DirectoryBlobStore {
    if (dir) return new DirectoryBlobStore(dir, false, durable);
    return new DirectoryBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'api-workbench-blobs-')), true, false);
  }

  private file(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not a blob key: ${key}`);
    return path.join(this.dir, key);
  }

  private tmpFile(): string {
    return path.join(this.dir, TMP, randomBytes(12).toString('hex'));
  }

  /** Names `tmp`'s bytes as the blob `ref`; `keepSource` leaves `tmp` as a second name of the same file. */
  private adopt(tmp: string, ref: BlobRef, keepSource = false): BlobRef {
    const target = this.file(ref.key);
    if (fs.existsSync(target)) {
      if (!keepSource) fs.rmSync(tmp, { force: true });
    } else {
      if (keepSource) this.linkOrCopy(tmp, target);
      else fs.renameSync(tmp, target);
      this.namesToSync = true;
    }
    this.written.set(ref.key, Date.now());
    return ref;
  }

  putBytes(bytes: Uint8Array): BlobRef {
    const ref = blobRefOf(bytes);
    const target = this.file(ref.key);
    if (!fs.existsSync(target)) {
      const tmp = this.tmpFile();
      fs.writeFileSync(tmp, bytes, { mode: 0o600 });
      fs.renameSync(tmp, target);
      this.namesToSync = true;
      if (this.durable) this.unsynced.push(target);
    }
    this.written.set(ref.key, Date.now());
    return ref;
  }

  async syncPending(): Promise<void> {
    if (!this.durable) return;
    const files = this.unsynced;
    this.unsynced = [];
    const syncOne = async (file: string) => {
      const h = await fs.promises.open(file, 'r');
      try {
        await h.datasync();
      } finally {
        await h.close();
      }
    };
    try {
      // Many at once: the file system folds concurrent syncs into few journal commits (2,000 small files: ~0.4 s, not 8).
      for (let i = 0; i < files.length; i += SYNC_TOGETHER)
        await Promise.all(files.slice(i, i + SYNC_TOGETHER).map(syncOne));
      if (this.namesToSync) {
        this.namesToSync = false;
        fsyncDir(this.dir);
      }
    } catch (e) {
      this.unsynced.push(...files);
      this.namesToSync = true;
      throw e;
    }
  }

  async putStream(source: AsyncIterable<Uint8Array>, limit = Number.MAX_SAFE_INTEGER): Promise<BlobRef> {
    const tmp = this.tmpFile();
    const out = await fs.promises.open(tmp, 'w', 0o600);
    const hashes = new Hashes();
    try {
      for await (const chunk of source) {
        if (hashes.size + chunk.length > limit)
          throw new BodyTooLargeError(`Request payload size exceeds the limit: ${limit} bytes.`);
        hashes.update(chunk);
        await out.write(chunk);
      }
      if (this.durable) await out.sync();
      await out.close();
    } catch (e) {
      await out.close().catch(() => undefined);
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    return this.adopt(tmp, hashes.ref());
  }

  async startPartial(): Promise<PartialBlob> {
    const name = randomBytes(12).toString('hex');
    await (await fs.promises.open(this.partialFile(name), 'w', 0o600)).close();
    return this.partialAt(name, 0, new Hashes());
  }

  resumePartial(name: string, size: number): PartialBlob | undefined {
    const file = this.partialFile(name);
    let onDisk: number;
    try {
      const st = fs.statSync(file);
      onDisk = st.size;
      // Also the name of a blob (its session completed, and that answer was never made durable): the next chunk
      // truncates and appends, so it gets a file of its own first rather than change the blob's bytes.
      if (st.nlink > 1 && onDisk >= size) this.unshare(file);
    } catch {
      return undefined;
    }
    if (onDisk < size) return undefined;
    // Bytes past `size` were never acknowledged: the next chunk cuts them off before it writes.
    return this.partialAt(name, onDisk, undefined);
  }

  /** `to` names `from`'s bytes: a hard link, or a copy on a file system without them (FAT, some network shares). */
  private linkOrCopy(from: string, to: string): void {
    try {
      fs.linkSync(from, to);
    } catch (e) {
      if (!NO_LINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      this.copyOver(from, to);
    }
  }

  private unshare(file: string): void {
    this.copyOver(file, file);
  }

  /** A synced copy of `from` renamed to `to`, so `to` is never seen half written. */
  private copyOver(from: string, to: string): void {
    const copy = this.tmpFile();
    fs.copyFileSync(from, copy);
    if (this.durable) {
      const fd = fs.openSync(copy, 'r+');
      try {
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    }
    fs.renameSync(copy, to);
  }

  dropPartial(name: string): void {
    fs.rmSync(this.partialFile(name), { force: true });
  }

  keepPartials(names: ReadonlySet<string>): void {
    const dir = path.join(this.dir, TMP);
    for (const name of fs.readdirSync(dir)) if (!names.has(name)) fs.rmSync(path.join(dir, name), { force: true });
  }

  private partialFile(name: string): string {
    if (!/^[0-9a-f]{24}$/.test(name)) throw new Error(`not a partial blob name: ${name}`);
    return path.join(this.dir, TMP, name);
  }

  /**
   * A partial blob over the file `name` holding `size` bytes. Bytes are hashed as they are appended, so
   * completing a 1 GB upload does not read it all back; a truncation into hashed bytes (a cut chunk, rare) or a
   * resumed session (`hashes` undefined) sends complete() back to reading the file.
   */
  private partialAt(name: string, size: number, hashes: Hashes | undefined): PartialBlob {
    const tmp = this.partialFile(name);
    let handle: Promise<fs.promises.FileHandle> | undefined;
    const file = () => (handle ??= fs.promises.open(tmp, 'r+'));
    let done = false;
    const finish = async (sync: boolean) => {
      if (done) return;
      done = true;
      if (!handle) return;
      const h = await handle;
      if (sync) await h.sync();
      await h.close();
    };
    return {
      name,
      get size() {
        return size;
      },
      append: async (chunk) => {
        await (await file()).write(chunk, 0, chunk.length, size);
        hashes?.update(chunk);
        size += chunk.length;
      },
      truncate: async (n) => {
        if (n >= size) return;
        await (await file()).truncate(n);
        size = n;
        hashes = undefined;
      },
      sync: async () => {
        if (this.durable && handle) await (await handle).datasync();
      },
      complete: async () => {
        await finish(this.durable);
        if (!hashes) {
          hashes = new Hashes();
          for await (const chunk of fs.createReadStream(tmp)) hashes.update(chunk as Buffer);
        }
        return this.adopt(tmp, hashes.ref(), !this.removeOnClose);
      },
      close: () => finish(false),
      discard: async () => {
        await finish(false).catch(() => undefined);
        fs.rmSync(tmp, { force: true });
      },
    };
  }

  async open(ref: BlobRef, range?: { start: number; end: number }): Promise<Readable> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.file(ref.key), 'r');
    } catch (e) {
      throw unreadable(ref, (e as NodeJS.ErrnoException).code ?? String(e));
    }
    try {
      const { size } = await handle.stat();
      if (size !== ref.size) throw unreadable(ref, `${size} bytes on disk, ${ref.size} recorded`);
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw e instanceof BlobUnreadableError ? e : unreadable(ref, String(e));
    }
    // The stream owns the handle from here and closes it when it ends or is destroyed.
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  readAll(ref: BlobRef): Buffer {
    if (ref.size === 0) return Buffer.alloc(0);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.file(ref.key));
    } catch (e) {
      throw unreadable(ref, (e as NodeJS.ErrnoException).code ?? String(e));
    }
    if (bytes.length !== ref.size) throw unreadable(ref, `${bytes.length} bytes on disk, ${ref.size} recorded`);
    return bytes;
  }

  collect(live: ReadonlySet<string>): void {
    const now = Date.now();
    for (const [key, at] of this.written) if (now - at > FRESH_MS) this.written.delete(key);
    for (const name of fs.readdirSync(this.dir)) {
      if (name === TMP || live.has(name) || this.written.has(name)) continue;
      fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }

  async close(): Promise<void> {
    if (this.removeOnClose) await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}
