// `--data DIR` persistence: the state as JSON with every byte array moved to a content-addressed
// blob file, written atomically (temp + rename) shortly after each burst of mutations.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { Store, StoreState } from './model';

const STATE_FILE = 'state.json';
const BLOB_DIR = 'blobs';

function dirOf(dataDir: string): string {
  return path.join(dataDir, 'storage');
}

export function loadState(dataDir: string): StoreState | undefined {
  const dir = dirOf(dataDir);
  const file = path.join(dir, STATE_FILE);
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8'), (_key, value) => {
    if (value && typeof value === 'object' && typeof (value as { $blob?: unknown }).$blob === 'string') {
      return fs.readFileSync(path.join(dir, BLOB_DIR, (value as { $blob: string }).$blob));
    }
    return value;
  }) as StoreState;
}

export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private readonly written = new Set<string>();

  constructor(private readonly dataDir: string, private readonly store: Store, private readonly delayMs = 150) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writeNow();
    }, this.delayMs);
    this.timer.unref?.();
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writeNow();
  }

  private writeNow(): void {
    const dir = dirOf(this.dataDir);
    const blobs = path.join(dir, BLOB_DIR);
    fs.mkdirSync(blobs, { recursive: true });
    const live = new Set<string>();
    // Buffers are stored by content hash, so unchanged content is written once.
    const encode = (value: unknown): unknown => {
      if (Buffer.isBuffer(value)) return { $blob: this.blob(blobs, value, live) };
      if (Array.isArray(value)) return value.map(encode);
      if (value && typeof value === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value)) out[k] = encode(v);
        return out;
      }
      return value;
    };
    const text = JSON.stringify(encode(this.store.state));
    const tmp = path.join(dir, `${STATE_FILE}.tmp`);
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, path.join(dir, STATE_FILE));
    for (const name of fs.readdirSync(blobs)) {
      if (!live.has(name)) {
        fs.rmSync(path.join(blobs, name), { force: true });
        this.written.delete(name);
      }
    }
  }

  private blob(dir: string, buf: Buffer, live: Set<string>): string {
    const name = createHash('sha256').update(buf).digest('hex');
    live.add(name);
    if (!this.written.has(name)) {
      const p = path.join(dir, name);
      if (!fs.existsSync(p)) fs.writeFileSync(p, buf);
      this.written.add(name);
    }
    return name;
  }
}
