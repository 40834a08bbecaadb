// `--data DIR` persistence: the state as JSON, written atomically (temp + rename) shortly after each burst
// of mutations. Contents are not in it: they are blobs in `DIR/storage/blobs` (see blobs.ts), and the
// state only names them, so a write costs the metadata, never the bytes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { liveBlobKeys, type Store, type StoreState } from './model';
import { blobRefOf, type BlobStore } from './blobs';

const STATE_FILE = 'state.json';
const BLOB_DIR = 'blobs';

function dirOf(dataDir: string): string {
  return path.join(dataDir, 'storage');
}

/** Where the blobs of a data directory live. */
export function blobDirOf(dataDir: string): string {
  return path.join(dirOf(dataDir), BLOB_DIR);
}

export function loadState(dataDir: string): StoreState | undefined {
  const dir = dirOf(dataDir);
  const file = path.join(dir, STATE_FILE);
  if (!fs.existsSync(file)) return undefined;
  const state: unknown = JSON.parse(fs.readFileSync(file, 'utf8'), (_key, value: unknown) => {
    // Data directories written before the blob store held `{$blob: sha256}` markers for the same files.
    if (value && typeof value === 'object' && typeof (value as { $blob?: unknown }).$blob === 'string') {
      return blobRefOf(fs.readFileSync(path.join(dir, BLOB_DIR, (value as { $blob: string }).$blob)));
    }
    return value;
  });
  if (!isStoreState(state)) throw new Error(`${file} does not hold a sandbox storage state.`);
  return state;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The collections the store indexes on load; the records in them are the sandbox's own writing. */
function isStoreState(v: unknown): v is StoreState {
  return (
    isRecord(v) &&
    isRecord(v.users) &&
    isRecord(v.files) &&
    isRecord(v.drives) &&
    Array.isArray(v.changes) &&
    typeof v.rootId === 'string' &&
    typeof v.meId === 'string'
  );
}

/** Writes the state after mutations and lets the blob store drop contents nothing refers to any more. */
export class Persister {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataDir: string | undefined,
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly delayMs = 150,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writeNow();
    }, this.delayMs);
    this.timer.unref?.();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writeNow();
  }

  private writeNow(): void {
    if (this.dataDir) {
      const dir = dirOf(this.dataDir);
      fs.mkdirSync(dir, { recursive: true });
      const tmp = path.join(dir, `${STATE_FILE}.tmp`);
      fs.writeFileSync(tmp, JSON.stringify(this.store.state));
      fs.renameSync(tmp, path.join(dir, STATE_FILE));
    }
    // Only after the state on disk no longer names them may blobs go.
    this.blobs.collect(liveBlobKeys(this.store.state));
  }
}
