// What the sync tests share: a link between a fresh temporary folder and a fresh store folder in an
// in-process storage emulator, both trees read as path → checksum (folders as "dir"), and the edits a
// test makes on the store side.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FOLDER_MIME, type File } from '../../../src/shared/wire/storage';
import { StorageClient, quote } from '../../../src/storage/core/client';
import { bufferSource, upload } from '../../../src/storage/core/upload';
import type { SyncEvent } from '../../../src/storage/core/sync/apply';
import { syncFolder, type SyncOptions } from '../../../src/storage/core/sync/engine';
import { startStorage, type Harness } from './emulatorHarness';

import type { Tree } from '../../support/localTree';

export { localTree, md5, type Tree } from '../../support/localTree';

export interface Link {
  h: Harness;
  client: StorageClient;
  requests: () => number;
  localDir: string;
  folderId: string;
  close(): Promise<void>;
}

export async function startLink(h?: Harness): Promise<Link> {
  const own = !h;
  const harness = h ?? (await startStorage());
  let requests = 0;
  const client = new StorageClient({
    baseUrl: harness.origin,
    auth: { token: () => harness.token },
    retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 },
    onAttempt: () => requests++,
  });
  const folder = await client.call(
    'files.insert',
    {},
    { title: `sync-${Math.random().toString(36).slice(2)}`, mimeType: FOLDER_MIME, parents: [{ id: 'root' }] },
  );
  const localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-sync-'));
  return {
    h: harness,
    client,
    requests: () => requests,
    localDir,
    folderId: folder.id!,
    async close() {
      fs.rmSync(localDir, { recursive: true, force: true });
      if (own) await harness.close();
    },
  };
}

/**
 * Mocha hooks of a suite whose every test gets a fresh link over one emulator; the object returned is the link
 * of the test running.
 */
export function linkPerTest(): Link {
  let h: Harness;
  let k: Link;
  before(async () => (h = await startStorage()));
  after(async () => h.close());
  beforeEach(async () => (k = await startLink(h)));
  afterEach(async () => k.close());
  return {
    get h() {
      return h;
    },
    get client() {
      return k.client;
    },
    requests: () => k.requests(),
    get localDir() {
      return k.localDir;
    },
    get folderId() {
      return k.folderId;
    },
    close: () => k.close(),
  };
}

/** One sync run of a link (deletions never held back by the guard), with the events it reported. */
export async function syncLink(k: Link, opts: Partial<SyncOptions> = {}) {
  const events: SyncEvent[] = [];
  const r = await syncFolder({
    client: k.client,
    localDir: k.localDir,
    storeFolderId: k.folderId,
    maxDeletePercent: 100,
    onEvent: (e) => events.push(e),
    ...opts,
  });
  return { ...r, events };
}

/** The store folder's tree (not trashed), by title paths. */
export async function storeTree(client: StorageClient, folderId: string): Promise<Tree> {
  const out = Object.create(null) as Tree; // a file may be called __proto__
  const walk = async (id: string, rel: string) => {
    const kids = await client.listAllFiles({
      q: `${quote(id)} in parents and trashed = false`,
      maxResults: 1000,
      fields: 'nextPageToken,items(id,title,mimeType,md5Checksum)',
    });
    for (const k of kids) {
      const p = rel ? `${rel}/${k.title}` : k.title!;
      if (p in out) out[`${p} #dup`] = k.md5Checksum ?? 'dir';
      if (k.mimeType === FOLDER_MIME) {
        out[p] = 'dir';
        await walk(k.id!, p);
      } else out[p] = k.md5Checksum ?? '';
    }
  };
  await walk(folderId, '');
  return { ...out }; // a plain object again (a spread keeps a key named __proto__ as a key)
}

/** The store item at a title path below the folder (undefined when absent). */
export async function storeItem(client: StorageClient, folderId: string, rel: string): Promise<File | undefined> {
  let id = folderId;
  let found: File | undefined;
  for (const title of rel.split('/')) {
    const kids = await client.listAllFiles({
      q: `${quote(id)} in parents and title = ${quote(title)} and trashed = false`,
      fields: 'nextPageToken,items(id,title,mimeType,md5Checksum,parents(id))',
    });
    if (kids.length !== 1) return undefined;
    found = kids[0];
    id = found.id!;
  }
  return found;
}

/** Creates or replaces the file at a title path below the folder (folders on the way are made). */
export async function putStore(client: StorageClient, folderId: string, rel: string, bytes: Buffer): Promise<void> {
  const parts = rel.split('/');
  const parentId = await ensureStoreFolder(client, folderId, parts.slice(0, -1).join('/'));
  const existing = await storeItem(client, folderId, rel);
  const src = bufferSource(bytes);
  if (existing) await upload(client, src, { fileId: existing.id });
  else await upload(client, src, { metadata: { title: parts[parts.length - 1], parents: [{ id: parentId }] } });
}

export async function ensureStoreFolder(client: StorageClient, folderId: string, rel: string): Promise<string> {
  let id = folderId;
  if (!rel) return id;
  let at = '';
  for (const title of rel.split('/')) {
    at = at ? `${at}/${title}` : title;
    const f = await storeItem(client, folderId, at);
    id = f ? f.id! : (await client.call('files.insert', {}, { title, mimeType: FOLDER_MIME, parents: [{ id }] })).id!;
  }
  return id;
}

export function putLocal(dir: string, rel: string, bytes: Buffer | string): void {
  const p = path.join(dir, ...rel.split('/'));
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, bytes);
}
