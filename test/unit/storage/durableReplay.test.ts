// Every write the storage API offers, one after another against a sandbox with a data folder: after each
// acknowledged answer, what a restart would read from disk (snapshot + journal) equals the live state. A write
// that changed a record without saying so to the durable layer fails here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startStorage, type Harness } from './emulatorHarness';
import { readDurableState } from '../../../src/sandbox/storage/durable/durableStore';
import type { File } from '../../../src/shared/wire/storage';

const FOLDER = 'application/vnd.google-apps.folder';

function live(h: Harness): unknown {
  return JSON.parse(JSON.stringify(h.emulator.service.store.state)) as unknown;
}

function onDisk(dir: string): unknown {
  return JSON.parse(JSON.stringify(readDurableState(path.join(dir, 'storage')))) as unknown;
}

describe('storage sandbox: every acknowledged write is on disk when it is answered', function () {
  this.timeout(60_000);
  let dir: string;
  let h: Harness;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-replay-'));
    h = await startStorage({ dataDir: dir });
  });
  afterEach(async () => {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('files, contents, sharing, comments, properties, revisions, drives, ids and bulk seeding', async () => {
    const steps: Array<[string, () => Promise<{ status: number }>]> = [];
    const ids: Record<string, string> = {};
    const call = async (method: string, p: string, init?: Parameters<Harness['call']>[2]) => {
      const r = await h.call<{ id?: string; commentId?: string; replyId?: string }>(method, p, init);
      assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
      return r;
    };
    const step = (name: string, run: () => Promise<{ status: number }>) => steps.push([name, run]);

    step('insert folder', async () => {
      const r = await call('POST', '/store/v2/files', { body: { title: 'Folder', mimeType: FOLDER } });
      ids.folder = r.json.id!;
      return r;
    });
    step('insert with media', async () => {
      const r = await call('POST', '/upload/store/v2/files?uploadType=media', {
        raw: 'hello',
        headers: { 'content-type': 'text/plain' },
      });
      ids.file = r.json.id!;
      return r;
    });
    step('multipart insert', async () => {
      const boundary = 'b0undary';
      const raw =
        `--${boundary}\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ title: 'multi.txt' })}\r\n` +
        `--${boundary}\r\ncontent-type: text/plain\r\n\r\nmultipart body\r\n--${boundary}--`;
      return call('POST', '/upload/store/v2/files?uploadType=multipart', {
        raw,
        headers: { 'content-type': `multipart/related; boundary=${boundary}` },
      });
    });
    step('resumable upload commit', async () => {
      const start = await fetch(`${h.origin}/upload/store/v2/files?uploadType=resumable`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'resumable.bin' }),
      });
      const location = start.headers.get('location')!;
      return call('PUT', new URL(location).pathname + new URL(location).search, {
        raw: Buffer.alloc(300_000, 7),
        headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 0-299999/300000' },
      });
    });
    const session = async (title: string) => {
      const start = await fetch(`${h.origin}/upload/store/v2/files?uploadType=resumable`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      assert.equal(start.status, 200);
      const location = new URL(start.headers.get('location')!);
      return location.pathname + location.search;
    };
    step('resumable session started, one granule answered 308', async () => {
      ids.session = await session('partial.bin');
      const r = await h.call('PUT', ids.session, {
        raw: Buffer.alloc(262_144 + 10, 3),
        headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 0-262153/*' },
      });
      assert.equal(r.status, 308);
      return { status: 200 };
    });
    step('resumable session cancelled', async () => {
      const r = await h.call('DELETE', ids.session);
      assert.equal(r.status, 499);
      return { status: 200 };
    });
    step('content update', () =>
      call('PUT', `/upload/store/v2/files/${ids.file}?uploadType=media`, {
        raw: 'hello again',
        headers: { 'content-type': 'text/plain' },
      }),
    );
    step('rename', () => call('PATCH', `/store/v2/files/${ids.file}`, { body: { title: 'renamed.txt' } }));
    step('metadata', () =>
      call('PATCH', `/store/v2/files/${ids.file}`, { body: { description: 'd', labels: { starred: true } } }),
    );
    step('move', async () => {
      const f = await call('GET', `/store/v2/files/${ids.file}?fields=parents(id)`);
      const from = (f.json as unknown as File).parents![0].id;
      return call('PATCH', `/store/v2/files/${ids.file}?addParents=${ids.folder}&removeParents=${from}`, { body: {} });
    });
    step('touch', () => call('POST', `/store/v2/files/${ids.file}/touch`));
    step('viewed', () => call('GET', `/store/v2/files/${ids.file}?updateViewedDate=true`));
    step('copy', async () => {
      const r = await call('POST', `/store/v2/files/${ids.file}/copy`, { body: { title: 'copy.txt' } });
      ids.copy = r.json.id!;
      return r;
    });
    step('property', () =>
      call('POST', `/store/v2/files/${ids.file}/properties`, { body: { key: 'k', value: 'v', visibility: 'PUBLIC' } }),
    );
    step('property patch', () =>
      call('PATCH', `/store/v2/files/${ids.file}/properties/k?visibility=PUBLIC`, { body: { value: 'w' } }),
    );
    step('property delete', () => call('DELETE', `/store/v2/files/${ids.file}/properties/k?visibility=PUBLIC`));
    step('comment', async () => {
      const r = await call('POST', `/store/v2/files/${ids.file}/comments`, { body: { content: 'c1' } });
      ids.comment = r.json.commentId!;
      return r;
    });
    step('reply', async () => {
      const r = await call('POST', `/store/v2/files/${ids.file}/comments/${ids.comment}/replies`, {
        body: { content: 'r1' },
      });
      ids.reply = r.json.replyId!;
      return r;
    });
    step('reply patch', () =>
      call('PATCH', `/store/v2/files/${ids.file}/comments/${ids.comment}/replies/${ids.reply}`, {
        body: { content: 'r2' },
      }),
    );
    step('comment patch', () =>
      call('PATCH', `/store/v2/files/${ids.file}/comments/${ids.comment}`, { body: { content: 'c2' } }),
    );
    step('reply delete', () =>
      call('DELETE', `/store/v2/files/${ids.file}/comments/${ids.comment}/replies/${ids.reply}`),
    );
    step('comment delete', () => call('DELETE', `/store/v2/files/${ids.file}/comments/${ids.comment}`));
    step('permission', async () => {
      const r = await call('POST', `/store/v2/files/${ids.file}/permissions?sendNotificationEmails=false`, {
        body: { role: 'writer', type: 'user', value: 'someone@example.com' },
      });
      ids.permission = r.json.id!;
      return r;
    });
    step('ownership transfer (a new user)', () =>
      call('PATCH', `/store/v2/files/${ids.file}/permissions/${ids.permission}?transferOwnership=true`, {
        body: { role: 'owner' },
      }),
    );
    step('revision patch', async () => {
      const revs = await call('GET', `/store/v2/files/${ids.copy}/revisions`);
      const rev = (revs.json as unknown as { items: Array<{ id: string }> }).items[0].id;
      return call('PATCH', `/store/v2/files/${ids.copy}/revisions/${rev}`, { body: { pinned: true } });
    });
    step('parents insert', () => call('POST', `/store/v2/files/${ids.copy}/parents`, { body: { id: ids.folder } }));
    step('parents delete', () => call('DELETE', `/store/v2/files/${ids.copy}/parents/${ids.folder}`));
    step('children insert', () => call('POST', `/store/v2/files/${ids.folder}/children`, { body: { id: ids.copy } }));
    step('trash', () => call('POST', `/store/v2/files/${ids.copy}/trash`));
    step('untrash', () => call('POST', `/store/v2/files/${ids.copy}/untrash`));
    step('trash folder', () => call('POST', `/store/v2/files/${ids.folder}/trash`));
    step('delete', () => call('DELETE', `/store/v2/files/${ids.copy}`));
    step('empty trash', () => call('DELETE', '/store/v2/files/trash'));
    step('reserved id', async () => {
      const r = await call('GET', '/store/v2/files/generateIds?maxResults=3');
      ids.reserved = (r.json as unknown as { ids: string[] }).ids[1];
      return r;
    });
    step('insert with a reserved id', () =>
      call('POST', '/store/v2/files', { body: { id: ids.reserved, title: 'reserved' } }),
    );
    step('shared drive', async () => {
      const r = await call('POST', '/store/v2/drives?requestId=req-1', { body: { name: 'Drive' } });
      ids.drive = r.json.id!;
      return r;
    });
    step('drive organizer', () =>
      call('POST', `/store/v2/files/${ids.drive}/permissions?supportsAllDrives=true&sendNotificationEmails=false`, {
        body: { role: 'organizer', type: 'user', value: 'org@example.com' },
      }),
    );
    step('drive update', () => call('PUT', `/store/v2/drives/${ids.drive}`, { body: { name: 'Drive 2' } }));
    step('drive hide', () => call('POST', `/store/v2/drives/${ids.drive}/hide`));
    step('drive unhide', () => call('POST', `/store/v2/drives/${ids.drive}/unhide`));
    step('drive delete', () => call('DELETE', `/store/v2/drives/${ids.drive}`));
    step('bulk seed', () => call('POST', '/store/v2/__sandbox/seedFolder', { body: { count: 50 } }));

    for (const [name, run] of steps) {
      await run();
      assert.deepEqual(onDisk(dir), live(h), `after "${name}" the state on disk differs from the live one`);
    }
  });

  it('reads the same state back after a restart, and goes on from there', async () => {
    await h.call('POST', '/store/v2/files', { body: { title: 'before restart' } });
    const before = live(h);
    await h.close();
    h = await startStorage({ dataDir: dir });
    assert.deepEqual(live(h), before);
    await h.call('POST', '/store/v2/files', { body: { title: 'after restart' } });
    assert.deepEqual(onDisk(dir), live(h));
  });

  it('folds a grown journal into a snapshot while writes go on, and reads back the same state', async () => {
    const files: string[] = [];
    for (let i = 0; i < 8; i++)
      files.push((await h.call<File>('POST', '/store/v2/files', { body: { title: `big ${i}` } })).json.id);
    const storage = path.join(dir, 'storage');
    const segments = () => fs.readdirSync(storage).filter((n) => n.startsWith('journal-'));
    const snapshotBefore = fs.statSync(path.join(storage, 'snapshot.jsonl')).mtimeMs;
    // Each entry holds whole records: 15 rounds of 8 files with a 100 KB description pass the 8 MiB mark.
    for (let round = 0; round < 15; round++) {
      const description = String(round % 10).repeat(100_000);
      const answers = await Promise.all(
        files.map((id) => h.call('PATCH', `/store/v2/files/${id}`, { body: { description } })),
      );
      for (const r of answers) assert.equal(r.status, 200);
    }
    const made = { json: { id: files[0] } };
    // The snapshot is written in the background: wait for it to replace the old one.
    for (let i = 0; i < 200 && fs.statSync(path.join(storage, 'snapshot.jsonl')).mtimeMs === snapshotBefore; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.notEqual(fs.statSync(path.join(storage, 'snapshot.jsonl')).mtimeMs, snapshotBefore, 'a new snapshot');
    await h.call('PATCH', `/store/v2/files/${made.json.id}`, { body: { title: 'after the snapshot' } });
    assert.equal(segments().length, 1, `older segments go: ${segments().join(', ')}`);
    assert.deepEqual(onDisk(dir), live(h));
    const before = live(h);
    await h.close();
    h = await startStorage({ dataDir: dir });
    assert.deepEqual(live(h), before);
  });
});
