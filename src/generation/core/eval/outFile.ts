// The results file of an evaluation: JSON Lines, one cell per line, appended as each cell completes through
// one file handle (one write per line, serialised, so lines never interleave). A kill can only stop between
// two writes; should a last line still be cut short (a full disk), a resume drops it before appending.
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { cellKey, type CellResult } from './runner';

function isCell(v: unknown): v is CellResult {
  const c = v as Partial<CellResult> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.item === 'number' &&
    typeof c.variant === 'string' &&
    (c.model === undefined || typeof c.model === 'string') &&
    typeof c.output === 'string' &&
    Array.isArray(c.assertions) &&
    typeof c.requestHash === 'string' &&
    typeof c.latencyMs === 'number' &&
    (c.error === null || typeof c.error === 'object')
  );
}

export interface EarlierRun {
  cells: Map<string, CellResult>;
  /** Bytes of whole lines: anything after (a cut line) is dropped before appending. */
  validBytes: number;
}

/** The cells of an earlier run's file; a missing file is an empty run. Throws on a line that is not a cell. */
export async function readEarlierRun(path: string): Promise<EarlierRun> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { cells: new Map(), validBytes: 0 };
    throw e;
  }
  const cells = new Map<string, CellResult>();
  const lastNewline = buf.lastIndexOf(0x0a);
  const whole = buf.subarray(0, lastNewline + 1).toString('utf8');
  whole.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`${path}:${i + 1}: not a results line (JSON); is this the --out file of an evaluation?`);
    }
    if (!isCell(v)) throw new Error(`${path}:${i + 1}: not a cell of an evaluation`);
    cells.set(cellKey(v.item, v.variant), v);
  });
  return { cells, validBytes: lastNewline + 1 };
}

export class ResultsWriter {
  private chain: Promise<void> = Promise.resolve();

  private constructor(private readonly handle: FileHandle) {}

  /** Opens `path` for appending after `keepBytes` (0: a new, empty file). */
  static async open(path: string, keepBytes: number): Promise<ResultsWriter> {
    const handle = await open(path, keepBytes > 0 ? 'r+' : 'w');
    await handle.truncate(keepBytes);
    const w = new ResultsWriter(handle);
    w.position = keepBytes;
    return w;
  }

  private position = 0;

  append(cell: CellResult): Promise<void> {
    const line = Buffer.from(JSON.stringify(cell) + '\n');
    const write = this.chain.then(async () => {
      let off = 0;
      while (off < line.length) {
        const { bytesWritten } = await this.handle.write(line, off, line.length - off, this.position);
        off += bytesWritten;
        this.position += bytesWritten;
      }
    });
    this.chain = write.catch(() => undefined);
    return write;
  }

  async close(): Promise<void> {
    await this.chain;
    await this.handle.close();
  }
}
