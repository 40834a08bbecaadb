// The few disk calls the durable store makes that can fail for want of space, behind one seam: the sandbox's
// `diskFull` fault (routes/control.ts) makes them fail with ENOSPC as a full disk would, so clients (and our
// tests) can see what a write that cannot be made durable looks like without filling a real disk.
import * as fs from 'node:fs';
import { DamagedStateError } from './format';

export interface DiskIo {
  /** Throws as the disk would before bytes are written (ENOSPC while the fault is set). */
  beforeWrite(): void;
  beforeSync(): void;
}

export class FaultableDiskIo implements DiskIo {
  /** `full()`: writes and syncs are refused as a full disk would refuse them. */
  constructor(private readonly full: () => boolean = () => false) {}

  beforeWrite(): void {
    if (this.full()) throw noSpace();
  }

  beforeSync(): void {
    if (this.full()) throw noSpace();
  }
}

function noSpace(): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error('ENOSPC: no space left on device (sandbox diskFull fault)');
  e.code = 'ENOSPC';
  return e;
}

export function writeAllSync(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

/** Makes a rename or a new file in `dir` durable (a no-op where directories cannot be opened, as on Windows). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw e;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Makes `dir` (one of the sandbox's folders) owner-only whatever its mode was; a file in its place is damage.
 * True when an existing folder's mode had to be changed (what was written in it may need the same).
 */
export function ownerOnlyFolder(dir: string, what = 'the storage folder'): boolean {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new DamagedStateError(dir, `it is a file where ${what} belongs`);
  if (!st) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  else if ((st.mode & 0o777) !== 0o700) {
    fs.chmodSync(dir, 0o700);
    return true;
  }
  return false;
}
