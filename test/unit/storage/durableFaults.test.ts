// The storage sandbox's data folder under faults: a full disk (a real tmpfs where the machine lets us mount one,
// and the sandbox's diskFull fault), damaged files at start-up, and the modes of what it writes.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startStorage, type Harness } from './emulatorHarness';
import { readDurableState } from '../../../src/sandbox/storage/durable/durableStore';
import { DamagedStateError, encodeLine } from '../../../src/sandbox/storage/durable/format';
import type { File } from '../../../src/shared/wire/storage';

const live = (h: Harness) => JSON.parse(JSON.stringify(h.emulator.service.store.state)) as unknown;
const onDisk = (dir: string) => JSON.parse(JSON.stringify(readDurableState(path.join(dir, 'storage')))) as unknown;

async function title(h: Harness, id: string): Promise<string> {
  const r = await h.call<File>('GET', `/store/v2/files/${id}?fields=title`);
  assert.equal(r.status, 200);
  return r.json.title;
}

/** A small tmpfs, or undefined where this machine does not let the test mount one. */
function smallDisk(): string | undefined {
  const at = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', at], { stdio: 'ignore' });
    return at;
  } catch {
    fs.rmSync(at, { recursive: true, force: true });
    return undefined;
  }
}

function fill(file: string): void {
  const chunk = Buffer.alloc(1024 * 1024, 1);
  const fd = fs.openSync(file, 'w');
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    fs.closeSync(fd);
  }
  // Whatever space is left below a megabyte goes too.
  const small = fs.openSync(file + '.2', 'w');
  try {
    for (;;) fs.writeSync(small, Buffer.alloc(512, 1));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    fs.closeSync(small);
  }
}

describe('storage sandbox: a full disk', function () {
  this.timeout(60_000);

  /** The same story on a real full disk and under the diskFull fault. */
  async function story(h: Harness, dir: string, makeFull: () => Promise<void>, makeRoom: () => Promise<void>) {
    const kept = await h.call<File>('POST', '/store/v2/files', { body: { title: 'acknowledged' } });
    assert.equal(kept.status, 200);
    await h.call('PATCH', `/store/v2/files/${kept.json.id}`, { body: { title: 'acknowledged twice' } });
    await makeFull();
    const refused = await h.call<{ error: { code: number; errors: Array<{ reason: string }> } }>(
      'PATCH',
      `/store/v2/files/${kept.json.id}`,
      { body: { title: 'never stored' } },
    );
    assert.equal(refused.status, 507, refused.text);
    assert.equal(refused.json.error.code, 507);
    assert.equal(refused.json.error.errors[0].reason, 'insufficientStorage');
    const upload = await h.call('POST', '/upload/store/v2/files?uploadType=media', {
      raw: Buffer.alloc(64 * 1024, 2),
      headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(upload.status, 507, `an upload on a full disk answered ${upload.status}`);
    // Reads go on, and show only what was acknowledged: the refused write was undone.
    assert.equal(await title(h, kept.json.id), 'acknowledged twice');
    assert.equal((await h.call('GET', '/store/v2/files?maxResults=5')).status, 200);
    assert.deepEqual(live(h), onDisk(dir));
    await makeRoom();
    const after = await h.call('PATCH', `/store/v2/files/${kept.json.id}`, { body: { title: 'space again' } });
    assert.equal(after.status, 200, after.text);
    return kept.json.id;
  }

  it('on a real tmpfs (or, where none can be mounted, the injected ENOSPC below)', async function () {
    const disk = smallDisk();
    if (!disk) {
      console.log('      (no tmpfs here: the diskFull fault test covers it)');
      return;
    }
    const dir = path.join(disk, 'data');
    let h = await startStorage({ dataDir: dir });
    const filler = path.join(disk, 'filler');
    try {
      const id = await story(
        h,
        dir,
        () => Promise.resolve(fill(filler)),
        () => {
          fs.rmSync(filler, { force: true });
          fs.rmSync(filler + '.2', { force: true });
          return Promise.resolve();
        },
      );
      await h.close();
      h = await startStorage({ dataDir: dir });
      assert.equal(await title(h, id), 'space again');
      await h.close();
    } finally {
      execFileSync('umount', ['-l', disk]);
      fs.rmSync(disk, { recursive: true, force: true });
    }
  });

  it('under the diskFull fault: 507, reads go on, nothing acknowledged lost, writes again once cleared', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-full-'));
    let h = await startStorage({ dataDir: dir });
    const faults = (diskFull: boolean) => h.call('POST', '/store/v2/__sandbox/faults', { body: { diskFull } });
    const id = await story(
      h,
      dir,
      async () => assert.equal((await faults(true)).status, 200),
      async () => assert.equal((await faults(false)).status, 200),
    );
    await h.close();
    h = await startStorage({ dataDir: dir });
    assert.equal(await title(h, id), 'space again');
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('storage sandbox: damaged files at start-up', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-damage-'));
    const h = await startStorage({ dataDir: dir });
    await h.call('POST', '/store/v2/files', { body: { title: 'written before the damage' } });
    await h.close();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const storage = () => path.join(dir, 'storage');
  const snapshot = () => path.join(storage(), 'snapshot.jsonl');
  const journal = () =>
    path.join(
      storage(),
      fs.readdirSync(storage()).find((n) => n.startsWith('journal-'))!,
    );

  async function refused(file: string): Promise<void> {
    await assert.rejects(startStorage({ dataDir: dir }), (e: unknown) => {
      assert.ok(e instanceof DamagedStateError, String(e));
      assert.equal(e.file, file);
      assert.ok(!e.message.includes('\n'));
      return true;
    });
  }

  const cases: Array<[string, () => string]> = [
    [
      'a truncated snapshot',
      () => {
        const text = fs.readFileSync(snapshot());
        fs.writeFileSync(snapshot(), text.subarray(0, Math.floor(text.length / 2)));
        return snapshot();
      },
    ],
    ['an empty snapshot', () => (fs.writeFileSync(snapshot(), ''), snapshot())],
    ['a snapshot of garbage', () => (fs.writeFileSync(snapshot(), 'garbage\n\u0000\u0001'), snapshot())],
    [
      'a null record (checksum correct)',
      () => {
        const lines = fs.readFileSync(snapshot(), 'utf8').split('\n');
        lines[1] = encodeLine({ f: null }).trimEnd();
        fs.writeFileSync(snapshot(), lines.join('\n'));
        return snapshot();
      },
    ],
    [
      'a journal entry damaged in the middle',
      () => {
        const h = journal();
        const text = fs.readFileSync(h, 'utf8');
        fs.writeFileSync(h, text.replace('written', 'WRITTEN') + text);
        return h;
      },
    ],
    [
      'the contents folder replaced by a file',
      () => {
        const blobs = path.join(storage(), 'blobs');
        fs.rmSync(blobs, { recursive: true });
        fs.writeFileSync(blobs, 'not a folder');
        return blobs;
      },
    ],
  ];
  for (const [name, damage] of cases)
    it(`${name}: refused with the file named`, async () => {
      await refused(damage());
    });

  it('a torn last journal line (a crash during an append never acknowledged) is cut off by itself', async () => {
    fs.appendFileSync(journal(), '0123456789abcdef {"seq":99,"me');
    const h = await startStorage({ dataDir: dir });
    const r = await h.call<{ items: unknown[] }>(
      'GET',
      `/store/v2/files?q=${encodeURIComponent("title = 'written before the damage'")}`,
    );
    assert.equal(r.json.items.length, 1);
    assert.equal((await h.call('POST', '/store/v2/files', { body: { title: 'after' } })).status, 200);
    await h.close();
    assert.ok(fs.readFileSync(journal(), 'utf8').endsWith('\n'));
  });

  it('an old state.json whose client data holds {"$blob": PATH} is read as data, never as a file to open', async () => {
    // The state format before the journal, with a shared drive whose restrictions a client set.
    const h0 = await startStorage();
    const state = JSON.parse(JSON.stringify(h0.emulator.service.store.state)) as {
      drives: Record<string, unknown>;
      files: Record<string, { content?: unknown }>;
    };
    await h0.close();
    state.drives.d1 = {
      id: 'd1',
      name: 'Drive',
      colorRgb: '#000000',
      hidden: false,
      createdDate: '2026-01-01T00:00:00.000Z',
      organizerIds: [],
      restrictions: { $blob: '/etc/hostname' },
    };
    fs.rmSync(storage(), { recursive: true, force: true });
    fs.mkdirSync(path.join(storage(), 'blobs'), { recursive: true });
    // Contents are named by the old marker where a content belongs; the blob is there.
    const bytes = Buffer.from('kept content');
    const key = createHash('sha256').update(bytes).digest('hex');
    fs.writeFileSync(path.join(storage(), 'blobs', key), bytes);
    let withContent = '';
    for (const [id, f] of Object.entries(state.files)) {
      if (!f.content) continue;
      f.content = withContent ? undefined : { $blob: key };
      withContent ||= id;
      (f as { revisions: unknown[] }).revisions = [];
    }
    fs.writeFileSync(path.join(storage(), 'state.json'), JSON.stringify(state));
    const h = await startStorage({ dataDir: dir });
    const drive = h.emulator.service.store.state.drives.d1;
    assert.deepEqual(drive.restrictions, { $blob: '/etc/hostname' });
    assert.ok(!fs.existsSync(path.join(storage(), 'state.json')), 'migrated to the snapshot');
    assert.equal((await h.call('GET', `/store/v2/files/${withContent}?alt=media`)).text, 'kept content');
    await h.close();
  });
});

describe('storage sandbox: owner-only files and folders', () => {
  it('0600 files and 0700 folders, whatever the folder was made with', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-modes-'));
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(path.join(dir, 'storage', 'blobs'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'storage', 'blobs', 'a'.repeat(64)), 'old', { mode: 0o644 });
    const h = await startStorage({ dataDir: dir });
    await h.call('POST', '/upload/store/v2/files?uploadType=media', {
      raw: 'mode test',
      headers: { 'content-type': 'text/plain' },
    });
    await h.close();
    const walk = (p: string): void => {
      const st = fs.statSync(p);
      assert.equal(st.mode & 0o777, st.isDirectory() ? 0o700 : 0o600, `${p} is ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
    };
    walk(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
