// What a sync writes to the disk is durable before a state that records it: each downloaded file's bytes and
// each folder whose names changed (downloads, local moves) are synced before the state file naming them is
// renamed into place. Checked on the order of the real calls the engine makes, seen through node:fs/promises.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STATE_DIR } from '../../../src/storage/core/sync/state';
import { StorageClient } from '../../../src/storage/core/client';
import { linkPerTest, putLocal, putStore, syncLink } from './syncHarness';

type Event = { kind: 'sync' | 'datasync' | 'rename'; path: string; to?: string };

/** Records every open handle's sync/datasync and every rename while `body` runs. */
async function recorded(body: () => Promise<void>): Promise<Event[]> {
  const p = fs.promises;
  const { open, rename } = p;
  const events: Event[] = [];
  p.open = async (file: fs.PathLike, ...rest: unknown[]) => {
    const h = await (open as (...a: unknown[]) => Promise<fs.promises.FileHandle>)(file, ...rest);
    const at = path.resolve(String(file));
    const sync = h.sync.bind(h);
    const datasync = h.datasync.bind(h);
    h.sync = () => (events.push({ kind: 'sync', path: at }), sync());
    h.datasync = () => (events.push({ kind: 'datasync', path: at }), datasync());
    return h;
  };
  p.rename = async (from: fs.PathLike, to: fs.PathLike) => {
    await rename(from, to);
    events.push({ kind: 'rename', path: path.resolve(String(from)), to: path.resolve(String(to)) });
  };
  try {
    await body();
  } finally {
    p.open = open;
    p.rename = rename;
  }
  return events;
}

describe('folder sync: what it writes is durable before the state records it', function () {
  this.timeout(60_000);
  const k = linkPerTest();

  it('downloaded files and the folders of a local move are synced before the state file is replaced', async () => {
    await putStore(k.client, k.folderId, 'docs/a.txt', Buffer.from('a from the store'));
    await putStore(k.client, k.folderId, 'docs/deep/b.txt', Buffer.from('b from the store'));
    await putStore(k.client, k.folderId, 'c.txt', Buffer.from('c from the store'));
    putLocal(k.localDir, 'mine.txt', 'local');
    const first = await recorded(async () => void (await syncLink(k)));
    // A move on the store: the next run moves the file on disk.
    const moved = await k.client.call('files.list', { q: `title = 'c.txt' and trashed = false` });
    const docs = await k.client.call('files.list', { q: `title = 'docs' and trashed = false` });
    await k.client.call(
      'files.patch',
      { fileId: moved.items![0].id!, addParents: docs.items![0].id!, removeParents: k.folderId },
      {},
    );
    const second = await recorded(async () => void (await syncLink(k)));

    const stateDir = path.resolve(k.localDir, STATE_DIR);
    const check = (events: Event[], placed: string[], folders: string[]) => {
      const commits = events
        .map((e, i) => ({ e, i }))
        .filter(({ e }) => e.kind === 'rename' && path.dirname(e.to!) === stateDir && e.to!.endsWith('.json'));
      assert.ok(commits.length > 0, 'the state was saved');
      const last = commits[commits.length - 1].i;
      const at = (kind: Event['kind'], p: string) => events.findIndex((e) => e.kind === kind && e.path === p);
      for (const f of placed) {
        const file = path.resolve(k.localDir, f);
        const put = events.findIndex((e) => e.kind === 'rename' && e.to === file);
        assert.ok(put >= 0, `${f} was put in place`);
        // Synced under its temporary name before the rename, or under its own name after it; before the state.
        const before = at('datasync', events[put].path);
        const after = at('datasync', file);
        assert.ok(
          (before >= 0 && before < put) || (after > put && after < last),
          `${f}'s bytes are synced before the state`,
        );
      }
      for (const d of folders) {
        const dir = path.resolve(k.localDir, d);
        const synced = events.findIndex((e, i) => i < last && e.kind === 'sync' && e.path === dir);
        assert.ok(synced >= 0, `the folder "${d}" is synced before the state`);
      }
    };
    check(first, ['docs/a.txt', 'docs/deep/b.txt', 'c.txt'], ['docs', 'docs/deep', '.']);
    check(second, ['docs/c.txt'], ['docs', '.']);
    assert.equal(fs.readFileSync(path.join(k.localDir, 'docs', 'c.txt'), 'utf8'), 'c from the store');
  });

  it('a file is synced to disk while the next transfer is on the wire (one transfer at a time)', async () => {
    await putStore(k.client, k.folderId, 'one.txt', Buffer.from('one'));
    await putStore(k.client, k.folderId, 'two.txt', Buffer.from('two'));
    let downloads = 0;
    const client = new StorageClient({
      baseUrl: k.h.origin,
      auth: { token: () => k.h.token },
      onAttempt: (a) => {
        if (a.method === 'GET' && /\/files\/[^/]+$/.test(a.url)) downloads++;
      },
    });
    const p = fs.promises;
    const { open } = p;
    const tmp = path.resolve(k.localDir, STATE_DIR, 'tmp');
    let seen: number | undefined;
    p.open = async (file: fs.PathLike, ...rest: unknown[]) => {
      const h = await (open as (...a: unknown[]) => Promise<fs.promises.FileHandle>)(file, ...rest);
      const datasync = h.datasync.bind(h);
      if (path.dirname(path.resolve(String(file))) === tmp)
        h.datasync = async () => {
          // The first file's sync waits for the second download to come (a guard ends the wait if it never does).
          if (seen === undefined) {
            for (let i = 0; i < 500 && downloads < 2; i++) await new Promise((r) => setTimeout(r, 10));
            seen = downloads;
          }
          return datasync();
        };
      return h;
    };
    try {
      const r = await syncLink({ ...k, client }, { concurrency: 1 });
      assert.equal(r.summary.counts.download, 2);
    } finally {
      p.open = open;
    }
    assert.equal(seen, 2, 'the second download was answered while the first file was being synced');
  });
});
