// The local side now: every folder and file below the linked folder (empty folders included), with
// device:inode, modified time and size from one stat each; a checksum is computed only for a file whose
// stat differs from the last-synced one (otherwise the saved checksum is reused), so a walk of an
// unchanged tree reads no file.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { promisify } from 'node:util';
import * as path from 'node:path';
import { linkStates, NestedLinkError } from './overlap';
import { fileKey, STATE_DIR, type BaseEntry, type FileKey } from './state';

/**
 * A local file or folder as the walk saw it. The fields are named as a base entry's local facts: a file whose
 * stat is as last synced is listed as its base entry itself (no object, string or number of its own: at
 * 100,000 files that is 11 MB).
 */
export interface LocalItem {
  folder: boolean;
  ino: FileKey;
  mtime: number;
  lsize: number;
  /** Files only; left out of a new file the plan needs no checksum of (see scanLocal). */
  lmd5?: string;
  /** Unset by the walk: the plan fills them in when it records the file as it is (see recordOf). */
  id?: string;
  smd5?: string;
  ssize?: number;
}

export interface Skipped {
  path: string;
  side: 'local' | 'store';
  reason: string;
}

/** The buffer each hashing lane reads every file into (a read stream takes 1 MiB per file, even a tiny one). */
const READ_BLOCK = 256 * 1024;
/** Files hashed at a time: their opens, reads and closes overlap in the thread pool. */
const HASH_CONCURRENCY = 8;

const open = promisify(fs.open);
const read = promisify(fs.read);
const close = promisify(fs.close);

/**
 * The md5 of a file, read into `buf` (one per lane, reused for every file) through a plain descriptor: no
 * FileHandle object per file, which lives until a full collection (a first run hashes 100,000 files).
 */
export async function md5File(file: string, buf: Buffer = Buffer.allocUnsafe(READ_BLOCK)): Promise<string> {
  const hash = createHash('md5');
  const fd = await open(file, 'r');
  try {
    for (;;) {
      const { bytesRead } = await read(fd, buf, 0, buf.length, null);
      if (!bytesRead) break;
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await close(fd);
  }
  return hash.digest('hex');
}

export function sameStat(b: BaseEntry | undefined, l: { ino: FileKey; mtime: number; lsize: number }): boolean {
  return !!b && !b.racy && b.ino === l.ino && b.mtime === l.mtime && b.lsize === l.lsize;
}

/**
 * Walks `root` (relative paths with `/`), skipping state folders, ignored paths and symbolic links; a folder
 * below that another link syncs stops the walk (NestedLinkError).
 * With `storeAt`, a new file's checksum is left out (the plan never reads it) unless the store has an item at
 * its path or a synced file is missing from disk (it may have moved there): a first upload of a folder then
 * reads each file once, as it is sent, and the store's checksum of what it received is recorded. A checksum
 * equal to the store item's is kept as the item's own string (at 100,000 files, 5 MB less on a first run).
 */
export async function scanLocal(
  root: string,
  base: Record<string, BaseEntry>,
  ignore: { ignores(p: string): boolean },
  skipped: Skipped[],
  signal?: AbortSignal,
  storeAt?: (rel: string) => { md5?: string } | undefined,
): Promise<Map<string, LocalItem>> {
  const out = new Map<string, LocalItem>();
  // A renamed or moved file keeps its inode and time: its saved checksum still holds under the new name. The
  // index is made the first time a file is not at a path an entry has (never, in a walk where nothing moved).
  let byIno: Map<FileKey, BaseEntry> | undefined;
  const entryOfIno = (ino: FileKey) => {
    if (!byIno) {
      byIno = new Map();
      for (const p in base) if (!base[p].folder && base[p].ino) byIno.set(base[p].ino, base[p]);
    }
    return byIno.get(ino);
  };
  /** Paths of the files whose checksum may be needed (their items are in `out`). */
  const hashes: string[] = [];
  const rootDev = (await fsp.stat(root, { bigint: true })).dev;
  const stack = [''];
  while (stack.length) {
    signal?.throwIfAborted();
    const dir = stack.pop()!;
    // Read a batch at a time (not one array of every entry: at 100,000 files in a folder, 10 MB of entries that
    // outlive the walk's awaits and so a young collection, and stay until a full one).
    for await (const e of await fsp.opendir(path.join(root, dir), { bufferSize: 256 })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.name === STATE_DIR) {
        // Sync's own folder is never content; below the root it may be another link's (links never nest).
        if (dir && (await linkStates(path.join(root, dir))).length) throw new NestedLinkError(root, dir);
        continue;
      }
      if (e.isSymbolicLink()) {
        skipped.push({ path: rel, side: 'local', reason: 'a symbolic link is not synced' });
        continue;
      }
      const folder = e.isDirectory();
      if (!folder && !e.isFile()) {
        skipped.push({
          path: rel,
          side: 'local',
          reason: 'not a file or a folder (a pipe, socket or device) is not synced',
        });
        continue;
      }
      if (ignore.ignores(folder ? `${rel}/` : rel)) continue;
      let st;
      try {
        st = await fsp.lstat(path.join(root, rel), { bigint: true });
      } catch {
        continue; // gone since the listing: seen as absent
      }
      const item: LocalItem = {
        folder,
        ino: fileKey(st, rootDev),
        mtime: Number(st.mtimeNs / 1000n),
        lsize: folder ? 0 : Number(st.size),
        // In the literal: a field added later would give each of 100,000 items a property array of its own.
        lmd5: undefined,
        id: undefined,
        smd5: undefined,
        ssize: undefined,
      };
      if (folder) {
        out.set(rel, item);
        stack.push(rel);
        continue;
      }
      const b = base[rel]?.folder === false ? base[rel] : entryOfIno(item.ino);
      // As last synced: the entry's own facts are the file's (sameStat: its inode, time and size are these).
      if (b && sameStat(b, item) && b.lmd5) out.set(rel, b as LocalItem);
      else {
        out.set(rel, item);
        hashes.push(rel);
      }
    }
  }
  let moved = !storeAt;
  if (!moved)
    for (const p in base)
      if (!base[p].folder && !out.has(p)) {
        moved = true;
        break;
      }
  const wanted = moved ? hashes : hashes.filter((rel) => base[rel] || storeAt?.(rel));
  let next = 0;
  const lane = async () => {
    const buf = Buffer.allocUnsafe(READ_BLOCK);
    while (next < wanted.length) {
      signal?.throwIfAborted();
      const rel = wanted[next++];
      try {
        const md5 = await md5File(path.join(root, rel), buf);
        const stored = storeAt?.(rel)?.md5;
        out.get(rel)!.lmd5 = md5 === stored ? stored : md5;
      } catch {
        out.delete(rel); // gone since the listing: seen as absent
      }
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, lane));
  return out;
}
