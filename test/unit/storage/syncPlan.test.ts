import * as assert from 'node:assert/strict';
import type { LocalItem } from '../../../src/storage/core/sync/localScan';
import { planSync } from '../../../src/storage/core/sync/plan';
import type { BaseEntry } from '../../../src/storage/core/sync/state';
import type { StoreItem } from '../../../src/storage/core/sync/storeScan';

const NOW = new Date('2026-01-02T03:04:05Z');
const file = (id: string, ino: string, md5: string): BaseEntry => ({
  folder: false,
  id,
  smd5: md5,
  ino,
  mtime: 1,
  lsize: 1,
  lmd5: md5,
});
const local = (ino: string, md5?: string): LocalItem =>
  md5 === undefined ? { folder: true, ino, mtime: 1, lsize: 0 } : { folder: false, ino, mtime: 1, lsize: 1, lmd5: md5 };
const store = (id: string, md5?: string): StoreItem =>
  md5 === undefined ? { folder: true, id, mimeType: 'folder' } : { folder: false, id, mimeType: 'text/plain', md5 };

function plan(base: Record<string, BaseEntry>, l: Record<string, LocalItem>, r: Record<string, StoreItem>) {
  return planSync(
    { base, local: new Map(Object.entries(l)), store: new Map(Object.entries(r)) },
    { mode: 'two-way', now: NOW, skipped: [] },
  );
}

describe('storage sync plan', () => {
  it('a new folder that was given a deleted folder’s inode is not taken for its move', () => {
    const p = plan(
      { deep: { folder: true, id: 'D', ino: 'i1' }, 'deep/a.txt': file('A', 'i2', 'm1') },
      { docs: local('i1') },
      { deep: store('D'), 'deep/a.txt': store('A', 'm1') },
    );
    assert.deepEqual(
      p.actions.map((a) => `${a.kind} ${'path' in a ? a.path : `${a.from} -> ${a.to}`}`),
      ['mkdir-store docs', 'delete-store deep'],
    );
  });

  it('a folder moved on disk with what it holds is moved on the store', () => {
    const p = plan(
      { deep: { folder: true, id: 'D', ino: 'i1' }, 'deep/a.txt': file('A', 'i2', 'm1') },
      { docs: local('i1'), 'docs/a.txt': local('i2', 'm1') },
      { deep: store('D'), 'deep/a.txt': store('A', 'm1') },
    );
    assert.deepEqual(p.actions, [{ kind: 'rename-store', from: 'deep', to: 'docs', id: 'D', folder: true }]);
  });

  it('the same move made on both sides needs no action, and the state follows it', () => {
    const p = plan(
      { docs: { folder: true, id: 'D', ino: 'i1' }, 'docs/a.txt': file('A', 'i2', 'm1') },
      { deep: local('i1'), 'deep/a.txt': local('i2', 'm1') },
      { deep: store('D'), 'deep/a.txt': store('A', 'm1') },
    );
    assert.deepEqual(p.actions, []);
    assert.deepEqual(p.settled, [['docs', 'deep']]);
  });

  it('a store move into a folder the disk moved away is not carried to disk as a move into a new folder', () => {
    const p = plan(
      {
        docs: { folder: true, id: 'D', ino: 'i1' },
        'docs/b.txt': file('B', 'i3', 'm2'),
        'a.txt': file('A', 'i2', 'm1'),
      },
      { deep: local('i1'), 'deep/b.txt': local('i3', 'm2'), 'a.txt': local('i2', 'm1') },
      { docs: store('D'), 'docs/b.txt': store('B', 'm2'), 'docs/x.txt': store('A', 'm1') },
    );
    assert.ok(!p.actions.some((a) => a.kind === 'rename-local'), JSON.stringify(p.actions));
    assert.deepEqual(p.actions[0], { kind: 'rename-store', from: 'docs', to: 'deep', id: 'D', folder: true });
  });

  it('a store move of a folder into one the disk moved away is not carried to disk, nor are its files one by one', () => {
    const p = plan(
      {
        a: { folder: true, id: 'A', ino: 'i1' },
        'a/k.txt': file('K', 'i4', 'm4'),
        z: { folder: true, id: 'Z', ino: 'i2' },
        'z/f.txt': file('F', 'i3', 'm3'),
      },
      { b: local('i1'), 'b/k.txt': local('i4', 'm4'), z: local('i2'), 'z/f.txt': local('i3', 'm3') },
      { a: store('A'), 'a/k.txt': store('K', 'm4'), 'a/z': store('Z'), 'a/z/f.txt': store('F', 'm3') },
    );
    assert.ok(!p.actions.some((x) => x.kind === 'rename-local'), JSON.stringify(p.actions));
  });
});
