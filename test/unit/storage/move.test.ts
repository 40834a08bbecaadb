import * as assert from 'node:assert/strict';
import { FOLDER_MIME } from '../../../src/shared/wire/storage';
import { StorageClient } from '../../../src/storage/core/client';
import { moveInto } from '../../../src/storage/core/move';
import { startStorage, type Harness } from './emulatorHarness';

describe('storage core: moving items between folders', () => {
  let h: Harness;
  let client: StorageClient;

  before(async () => {
    h = await startStorage();
    client = new StorageClient({ baseUrl: h.origin, auth: { token: () => h.token }, retry: { maxRetries: 0 } });
  });
  after(async () => h.close());

  const folder = (title: string, parent = 'root') =>
    client.call('files.insert', {}, { title, mimeType: FOLDER_MIME, parents: [{ id: parent }] });
  const file = (title: string, parents: string[]) =>
    client.call('files.insert', {}, { title, mimeType: 'text/plain', parents: parents.map((id) => ({ id })) });
  const parentsOf = async (id: string) =>
    ((await client.getFile(id, { fields: 'parents(id,isRoot)' })).parents ?? []).map((p) => (p.isRoot ? 'root' : p.id));

  it('moves an item out of the folder it was dragged from and keeps its other parents', async () => {
    const a = await folder('move-a');
    const b = await folder('move-b');
    const c = await folder('move-c');
    const f = await file('two-homes.txt', [a.id!, c.id!]);
    const [o] = await moveInto(client, [{ file: f, from: a.id }], b.id!);
    assert.equal(o.status, 'moved');
    assert.deepEqual((await parentsOf(f.id!)).sort(), [b.id, c.id].sort());
  });

  it('moves an item out of My files (the root alias) rather than copying it there', async () => {
    const target = await folder('move-target');
    const f = await file('at-root.txt', ['root']);
    const [o] = await moveInto(client, [{ file: f, from: 'root' }], target.id!);
    assert.equal(o.status, 'moved');
    assert.deepEqual(await parentsOf(f.id!), [target.id]);
  });

  it('skips items already there and a folder dropped on itself; one failure does not stop the rest', async () => {
    const a = await folder('skip-a');
    const b = await folder('skip-b');
    const inA = await file('in-a.txt', [a.id!]);
    const inB = await file('in-b.txt', [b.id!]);
    const child = await folder('child', a.id);
    const outcomes = await moveInto(
      client,
      [
        { file: inB, from: b.id },
        { file: b, from: 'root' },
        { file: a, from: 'root' },
        { file: inA, from: a.id },
      ],
      b.id!,
    );
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['skipped', 'skipped', 'moved', 'moved'],
    );
    // A folder into its own descendant: the service refuses, the report says so, the rest goes on.
    const [bad, good] = await moveInto(
      client,
      [
        { file: a, from: b.id },
        { file: inA, from: b.id },
      ],
      child.id!,
    );
    assert.equal(bad.status, 'failed');
    assert.match(bad.status === 'failed' ? bad.error.message : '', /into itself or its descendants/);
    assert.equal(good.status, 'moved');
    assert.deepEqual(await parentsOf(inA.id!), [child.id]);
  });
});
