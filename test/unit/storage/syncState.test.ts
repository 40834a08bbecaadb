// The sync state file: written and read a line at a time (issue 25's memory goal), the version 1 file
// (one JSON object) still read, a damaged file refused with what to do; saves in the background.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanLocal } from '../../../src/storage/core/sync/localScan';
import {
  emptyState,
  type BaseEntry,
  loadState,
  saveState,
  statePath,
  type SyncState,
} from '../../../src/storage/core/sync/state';
import { StateWriter } from '../../../src/storage/core/sync/stateWriter';

const DOC = 'application/vnd.google-apps.document';

function sample(n: number): SyncState {
  const s = emptyState('folder-1');
  s.pageToken = '42';
  for (let i = 0; i < n; i++) {
    const id = `id${i}`;
    const md5 = i.toString(16).padStart(32, '0');
    s.mirror[id] = { id, title: `f ${i}.txt`, parents: ['folder-1'], folder: false, mimeType: 'text/plain', md5 };
    s.base[`f ${i}.txt`] = { folder: false, id, smd5: md5, lmd5: md5, ino: `1:${i}`, mtime: 1e15 + i, lsize: i };
  }
  return s;
}

describe('storage sync state file', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-sync-state-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('round-trips a state of many entries as one line per record, never one JSON text', async () => {
    const s = sample(2500);
    await saveState(dir, s);
    const text = fs.readFileSync(statePath(dir, 'folder-1'), 'utf8');
    assert.equal(text.trimEnd().split('\n').length, 1 + 2500 + 2500 + 1);
    assert.deepEqual(await loadState(dir, 'folder-1'), s);
    assert.deepEqual(await loadState(dir, 'other'), emptyState('other'), 'another link starts empty');
  });

  it('reads a version 1 state (one JSON object) and writes it back as version 2', async () => {
    const s = sample(3);
    const file = statePath(dir, 'folder-1');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...s, version: 1 }));
    const loaded = await loadState(dir, 'folder-1');
    assert.deepEqual(loaded, s);
    await saveState(dir, loaded);
    assert.match(fs.readFileSync(file, 'utf8'), /^\{"version":2,/);
  });

  it('an older state’s store times and etags are read and not kept, except a workspace document’s (its export version)', async () => {
    const s = sample(2);
    const doc = {
      id: 'doc',
      title: 'Plan',
      parents: ['folder-1'],
      folder: false,
      mimeType: DOC,
      modified: 'T2',
      etag: 'E2',
    };
    const file = statePath(dir, 'folder-1');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = (m: object) => ({ ...m, modified: '2026-01-01T00:00:00.000Z', etag: '"e1"' });
    const lines = [
      JSON.stringify({ version: 2, storeFolderId: 'folder-1', pageToken: '42' }),
      ...Object.values(s.mirror).map((m) => JSON.stringify(['m', old(m)])),
      JSON.stringify(['m', doc]),
      ...Object.entries(s.base).map(([p, b]) => JSON.stringify(['b', p, { ...b, smod: 'T1' }])),
      JSON.stringify(['end', 3, 2]),
    ];
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const loaded = await loadState(dir, 'folder-1');
    s.mirror.doc = doc;
    assert.deepEqual(loaded, s);
  });

  it('refuses a file cut short, one with a foreign line, or another link’s, saying to move it away', async () => {
    await saveState(dir, sample(3));
    const file = statePath(dir, 'folder-1');
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    const attempts: [string, RegExp][] = [
      [lines.slice(0, -1).join('\n'), /is cut short; move it away/],
      [[...lines.slice(0, 2), '["x", 1]', ...lines.slice(2)].join('\n'), /not a state record/],
      [[...lines.slice(0, -1), '["end", 9, 9]'].join('\n'), /does not hold what its end says/],
      [lines.slice(0, -1).join('\n') + '\n{"version', /not valid JSON/],
      ['', /is empty/],
      [lines.join('\n').replace('"folder-1"', '"folder-2"'), /not a state of this link/],
    ];
    for (const [text, error] of attempts) {
      fs.writeFileSync(file, text);
      await assert.rejects(loadState(dir, 'folder-1'), error);
    }
  });

  it('a save asked for with soon() waits for its gap, then runs in the background; save() writes at once', async () => {
    const s = sample(1);
    const spaced = new StateWriter(dir, s, 60_000);
    await spaced.save();
    s.base['late.txt'] = { folder: false, id: 'late' };
    spaced.soon();
    spaced.soon(); // folded into the one already asked for
    assert.equal((await loadState(dir, 'folder-1')).base['late.txt'], undefined, 'not before its gap');
    await spaced.save();
    assert.ok((await loadState(dir, 'folder-1')).base['late.txt'], 'save() writes at once (and drops the timer)');

    delete s.base['late.txt'];
    const eager = new StateWriter(dir, s, 0);
    eager.soon();
    for (let i = 0; i < 500 && (await loadState(dir, 'folder-1')).base['late.txt']; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal((await loadState(dir, 'folder-1')).base['late.txt'], undefined, 'written in the background');
  });

  it('saveIfChanged() writes only when a save was asked for since the last one began', async () => {
    const s = sample(2);
    const writer = new StateWriter(dir, s, 60_000);
    const file = statePath(dir, 'folder-1');
    await writer.saveIfChanged(); // a new writer does not know what the file holds: it writes
    const written = fs.statSync(file).ino;
    await writer.saveIfChanged();
    assert.equal(fs.statSync(file).ino, written, 'nothing asked for since: no new file');
    s.base['late.txt'] = { folder: false, id: 'late' };
    writer.soon();
    await writer.saveIfChanged();
    assert.notEqual(fs.statSync(file).ino, written, 'a change asked for a save: written (a new file renamed over)');
    assert.ok((await loadState(dir, 'folder-1')).base['late.txt']);
  });

  it('what a loaded state repeats is held once: one parents list per set of parents, an entry as its file', async () => {
    const s = sample(3);
    s.mirror.sub = { id: 'sub', title: 'sub', parents: ['folder-1'], folder: true, mimeType: 'folder' };
    s.mirror.id2.parents = ['sub'];
    await saveState(dir, s);
    const loaded = await loadState(dir, 'folder-1');
    assert.deepEqual(loaded, s);
    assert.equal(loaded.mirror.id0.parents, loaded.mirror.id1.parents, 'the same parents: one list');
    assert.equal(loaded.mirror.id0.parents, loaded.mirror.sub.parents);
    assert.notEqual(loaded.mirror.id0.parents, loaded.mirror.id2.parents, 'other parents: a list of its own');

    // The walk lists a file whose inode, time and size are as last synced as its entry (no copy of it).
    const root = path.join(dir, 'tree');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'same.txt'), 'same');
    fs.writeFileSync(path.join(root, 'edited.txt'), 'before');
    const walked = await scanLocal(root, {}, { ignores: () => false }, []);
    const base: Record<string, BaseEntry> = {};
    for (const [p, l] of walked)
      base[p] = { folder: false, id: p, ino: l.ino, mtime: l.mtime, lsize: l.lsize, lmd5: l.lmd5 };
    fs.writeFileSync(path.join(root, 'edited.txt'), 'after, longer');
    const again = await scanLocal(root, base, { ignores: () => false }, []);
    assert.equal(again.get('same.txt'), base['same.txt'], 'as last synced: the entry itself');
    assert.notEqual(again.get('edited.txt'), base['edited.txt']);
    assert.equal(again.get('edited.txt')?.lmd5, createHash('md5').update('after, longer').digest('hex'));
  });
});
