// The few disk calls the durable store makes that can fail for want of space, behind one seam: the sandbox's
// `diskFull` fault (routes/control.ts) makes them fail with ENOSPC as a full disk would, so clients (and our
// tests) can see what a write that cannot be made durable looks like without filling a real disk.
import * as fs from 'node:fs';

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
