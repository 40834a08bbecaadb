import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startStorage } from './emulatorHarness';
import type { File, FileList, RevisionList, StartPageToken } from '../../../src/shared/wire/storage';

describe('storage emulator: --data DIR persistence', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-storage-data-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps files, content, revisions, trash and the change log across restarts', async () => {
    let h = await startStorage({ dataDir: dir });
    const made = await h.call<File>('POST', '/upload/store/v2/files?uploadType=media', {
      raw: 'first',
      headers: { 'content-type': 'text/plain' },
    });
    await h.call('PUT', `/upload/store/v2/files/${made.json.id}?uploadType=media`, {
      raw: 'second',
      headers: { 'content-type': 'text/plain' },
    });
    await h.call('PATCH', `/store/v2/files/${made.json.id}`, { body: { title: 'kept.txt' } });
    const readme = (
      await h.call<FileList>('GET', `/store/v2/files?q=${encodeURIComponent("title = 'README.txt'")}&fields=items(id)`)
    ).json.items[0];
    await h.call('POST', `/store/v2/files/${readme.id}/trash`);
    const token = (await h.call<StartPageToken>('GET', '/store/v2/changes/startPageToken')).json.startPageToken;
    await h.close();
    assert.ok(fs.existsSync(path.join(dir, 'storage', 'snapshot.jsonl')));

    h = await startStorage({ dataDir: dir });
    const back = await h.call<File>('GET', `/store/v2/files/${made.json.id}?fields=title,fileSize`);
    assert.deepEqual(back.json, { title: 'kept.txt', fileSize: '6' });
    assert.equal((await h.call('GET', `/store/v2/files/${made.json.id}?alt=media`)).text, 'second');
    const revs = (await h.call<RevisionList>('GET', `/store/v2/files/${made.json.id}/revisions`)).json.items;
    assert.equal(revs.length, 2);
    assert.equal(
      (await h.call('GET', `/store/v2/files/${made.json.id}?alt=media&revisionId=${revs[0].id}`)).text,
      'first',
    );
    assert.equal(
      (await h.call<File>('GET', `/store/v2/files/${readme.id}?fields=labels/trashed`)).json.labels.trashed,
      true,
    );
    assert.equal(
      (await h.call<StartPageToken>('GET', '/store/v2/changes/startPageToken')).json.startPageToken,
      token,
      'the change log continues',
    );
    // Fresh ids do not collide with the ones made before the restart.
    const another = await h.call<File>('POST', '/store/v2/files', { body: { title: 'new after restart' } });
    assert.notEqual(another.json.id, made.json.id);
    await h.close();
  });

  it('starts from the sample data when the directory is empty, and in memory without one', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-storage-empty-'));
    const h = await startStorage({ dataDir: empty });
    assert.equal((await h.call<File>('GET', '/store/v2/files/root?fields=title')).json.title, 'My Drive');
    await h.close();
    fs.rmSync(empty, { recursive: true, force: true });
    const mem = await startStorage();
    await mem.call('POST', '/store/v2/files', { body: { title: 'ephemeral' } });
    await mem.close();
    const again = await startStorage();
    assert.equal(
      (await again.call<FileList>('GET', `/store/v2/files?q=${encodeURIComponent("title = 'ephemeral'")}`)).json.items
        .length,
      0,
    );
    await again.close();
  });
});
