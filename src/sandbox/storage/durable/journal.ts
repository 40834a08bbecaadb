// Journal segments: `journal-<first seq>.log`, one checksummed entry a line, appended and synced before the
// writes in it are acknowledged. Reading back tolerates a torn last line (the crash came during an append that
// was never acknowledged) and refuses anything else out of place.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  DamagedStateError,
  decodeLine,
  isJournalEntry,
  JOURNAL_PREFIX,
  JOURNAL_SUFFIX,
  type JournalEntry,
} from './format';
import { fsyncDir, type DiskIo } from './io';

export interface Segment {
  file: string;
  first: number;
}

export function segmentName(first: number): string {
  return `${JOURNAL_PREFIX}${String(first).padStart(12, '0')}${JOURNAL_SUFFIX}`;
}

export function listSegments(dir: string): Segment[] {
  const out: Segment[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(JOURNAL_PREFIX) || !name.endsWith(JOURNAL_SUFFIX)) continue;
    const n = Number(name.slice(JOURNAL_PREFIX.length, -JOURNAL_SUFFIX.length));
    if (Number.isSafeInteger(n)) out.push({ file: path.join(dir, name), first: n });
  }
  return out.sort((a, b) => a.first - b.first);
}

export interface ReadSegment {
  entries: JournalEntry[];
  /** Bytes of whole, good lines; a torn tail starts here. */
  goodBytes: number;
  torn: boolean;
}

export function readSegment(file: string): ReadSegment {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    throw new DamagedStateError(file, `cannot be read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const entries: JournalEntry[] = [];
  let off = 0;
  let lineNo = 0;
  while (off < buf.length) {
    const nl = buf.indexOf(10, off);
    lineNo++;
    const line = nl < 0 ? undefined : decodeLine(buf.toString('utf8', off, nl));
    if (line === undefined || !isJournalEntry(line)) {
      // Only the last line may be bad: an append the crash cut short. A bad line with good ones after it is damage.
      if (nl >= 0 && nl + 1 < buf.length)
        throw new DamagedStateError(file, `line ${lineNo}: checksum or JSON does not match`);
      return { entries, goodBytes: off, torn: true };
    }
    entries.push(line);
    off = nl + 1;
  }
  return { entries, goodBytes: off, torn: false };
}

/** The segment being appended to. Appends are serial (one group commit at a time). */
export class JournalWriter {
  private constructor(
    readonly file: string,
    readonly first: number,
    private fd: number,
    public bytes: number,
    private readonly io: DiskIo,
    private readonly sync: boolean,
  ) {}

  static open(dir: string, first: number, io: DiskIo, sync: boolean): JournalWriter {
    const file = path.join(dir, segmentName(first));
    const existed = fs.existsSync(file);
    const fd = fs.openSync(file, 'a', 0o600);
    if (!existed) fsyncDir(dir);
    return new JournalWriter(file, first, fd, fs.fstatSync(fd).size, io, sync);
  }

  /** Appends one entry and returns once it is on disk. A failure leaves the file as it was before the call. */
  async append(line: string): Promise<void> {
    const buf = Buffer.from(line);
    const before = this.bytes;
    try {
      this.io.beforeWrite();
      let off = 0;
      while (off < buf.length) off += await write(this.fd, buf, off);
      if (this.sync) {
        this.io.beforeSync();
        await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd, (e) => (e ? reject(e) : resolve())));
      }
      this.bytes = before + buf.length;
    } catch (e) {
      // The entry was not acknowledged: cut it back so the next one does not follow a torn line.
      try {
        fs.ftruncateSync(this.fd, before);
      } catch {
        // The caller starts a new segment when the old one cannot be cut back.
        this.bytes = -1;
      }
      throw e;
    }
  }

  /** True when a failed append could not be cut back: the next entry goes to a new segment. */
  get damaged(): boolean {
    return this.bytes < 0;
  }

  close(): void {
    if (this.fd < 0) return;
    fs.closeSync(this.fd);
    this.fd = -1;
  }
}

function write(fd: number, buf: Buffer, off: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.write(fd, buf, off, buf.length - off, null, (e, n) => (e ? reject(e) : resolve(n))),
  );
}
