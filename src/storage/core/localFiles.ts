// The local disk as the transfer code sees it: an async port, so recursive uploads and downloads
// never block the extension host's thread and tests can hand in their own.
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadSource } from './upload';

export interface LocalStat {
  directory: boolean;
  size: number;
  /** Identity of what the path resolves to (device and inode), so a walk can tell a linked-back directory. */
  key?: string;
}

export interface LocalFiles {
  stat(path: string): Promise<LocalStat>;
  /** Entry names of a directory (not paths). */
  readdir(path: string): Promise<string[]>;
  /** Creates a directory; fails when something already has that name. */
  mkdir(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** The bytes of a file, readable once per attempt (uploads re-read a range after a cut). */
  source(path: string, size: number): UploadSource;
  /** Writes a stream to `target`; the file appears under its name only once complete. */
  write(target: string, body: Readable, signal?: AbortSignal): Promise<number>;
}

/** The real disk through `node:fs/promises`. */
export const nodeLocalFiles: LocalFiles = {
  async stat(path) {
    const st = await fsp.stat(path);
    return { directory: st.isDirectory(), size: st.size, key: `${st.dev}:${st.ino}` };
  },
  readdir: (path) => fsp.readdir(path),
  mkdir: (path) => fsp.mkdir(path),
  exists: (path) =>
    fsp.access(path).then(
      () => true,
      () => false,
    ),
  source: (path, size) => ({
    size,
    slice: (start, end) =>
      end > start ? createReadStream(path, { start, end: end - 1, highWaterMark: 1024 * 1024 }) : Readable.from([]),
  }),
  async write(target, body, signal) {
    const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.part`);
    let written = 0;
    body.on('data', (chunk: Buffer) => (written += chunk.length));
    try {
      await pipeline(body, createWriteStream(tmp), { signal });
      await fsp.rename(tmp, target);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
    return written;
  },
};
