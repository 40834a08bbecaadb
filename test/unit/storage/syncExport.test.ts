// Workspace documents in a sync (issue 25): exported per SyncOptions.exportFormats or skipped, never written
// as empty files; an export is download-only (a local edit or deletion is reported, never sent), and a
// change of the document exports it again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorageClient } from '../../../src/storage/core/client';
import { bufferSource, upload } from '../../../src/storage/core/upload';
import type { SyncEvent } from '../../../src/storage/core/sync/apply';
import { syncFolder, type SyncOptions } from '../../../src/storage/core/sync/engine';
import { exportFormatsFrom, parseExportFlag } from '../../../src/storage/core/sync/exports';
import { linkPerTest, syncLink, localTree, putLocal, startLink, storeItem, storeTree } from './syncHarness';

const DOC = 'application/vnd.google-apps.document';
const SHEET = 'application/vnd.google-apps.spreadsheet';
const BOM = '\uFEFF';

/** A workspace document made the way a user imports one: a text (or CSV) upload with convert=true. */
async function importDoc(client: StorageClient, parent: string, title: string, text: string, type = 'text/plain') {
  const f = await upload(client, bufferSource(Buffer.from(text)), {
    metadata: { title, parents: [{ id: parent }] },
    contentType: type,
    query: { convert: true },
  });
  return f.id!;
}

async function editDoc(client: StorageClient, id: string, text: string): Promise<void> {
  await upload(client, bufferSource(Buffer.from(text)), { fileId: id, contentType: 'text/plain' });
}

describe('storage sync: workspace documents', function () {
  this.timeout(60_000);
  const k = linkPerTest();

  const run = (extra: Partial<SyncOptions> = {}) =>
    syncLink(k, { exportFormats: exportFormatsFrom({ document: 'txt' }), ...extra });
  const read = (rel: string) => fs.readFileSync(path.join(k.localDir, rel), 'utf8');
  const skips = (events: SyncEvent[]) => events.filter((e) => e.action === 'skip');

  it('exports the chosen kinds under the export’s name, skips the others with a reason, never writes an empty file', async () => {
    await importDoc(k.client, k.folderId, 'Plan.txt', 'first line\nsecond');
    await importDoc(k.client, k.folderId, 'Budget.csv', 'a,b\n1,2\n', 'text/csv');
    const r = await run();
    assert.equal(r.summary.errors, 0);
    const exported = r.events.filter((e) => e.action === 'download');
    assert.deepEqual(
      exported.map((e) => [e.path, e.export]),
      [['Plan.txt', 'text/plain']],
    );
    assert.equal(read('Plan.txt'), `${BOM}first line\nsecond`);
    assert.deepEqual(Object.keys(localTree(k.localDir)), ['Plan.txt'], 'the spreadsheet is not written at all');
    const sheet = skips(r.events).find((e) => e.path === 'Budget');
    assert.match(sheet?.reason ?? '', new RegExp(`${SHEET}.*export format`));
    // The store still holds the two documents and nothing else: an export is never uploaded.
    assert.deepEqual(Object.keys(await storeTree(k.client, k.folderId)).sort(), ['Budget', 'Plan']);
    const again = await run();
    assert.deepEqual(again.plan.actions, [], 'a second run has nothing to do');

    // With both kinds chosen (as the CLI's flag says them), the spreadsheet comes too.
    const both = await run({ exportFormats: parseExportFlag('document=txt,spreadsheet=csv') });
    assert.deepEqual(
      both.events.filter((e) => e.action === 'download').map((e) => e.path),
      ['Budget.csv'],
    );
    assert.equal(read('Budget.csv'), 'a,b\n1,2\n');
  });

  it('a change of the document exports it again; a local edit is reported, never uploaded, and not overwritten', async () => {
    const id = await importDoc(k.client, k.folderId, 'Plan.txt', 'v1');
    await run();
    await editDoc(k.client, id, 'v2');
    const changed = await run();
    assert.deepEqual(
      changed.events.filter((e) => e.action === 'download').map((e) => e.path),
      ['Plan.txt'],
    );
    assert.equal(read('Plan.txt'), `${BOM}v2`);

    putLocal(k.localDir, 'Plan.txt', 'edited here');
    const edited = await run();
    assert.deepEqual(
      edited.plan.actions.map((a) => a.kind),
      [],
      'nothing goes to the store',
    );
    assert.match(skips(edited.events).find((e) => e.path === 'Plan.txt')?.reason ?? '', /download-only/);
    const doc = await storeItem(k.client, k.folderId, 'Plan');
    assert.equal(doc?.mimeType, DOC, 'the document is still a document');
    assert.deepEqual(Object.keys(await storeTree(k.client, k.folderId)), ['Plan']);

    await editDoc(k.client, id, 'v3');
    const both = await run();
    assert.equal(read('Plan.txt'), 'edited here', 'the local edit is not overwritten by the new export');
    assert.match(skips(both.events).find((e) => e.path === 'Plan.txt')?.reason ?? '', /not exported over it/);

    // Once the edited file is moved away, the document's export comes back; the moved file is an ordinary file.
    fs.renameSync(path.join(k.localDir, 'Plan.txt'), path.join(k.localDir, 'my notes.txt'));
    const after = await run();
    assert.equal(read('Plan.txt'), `${BOM}v3`);
    assert.equal((await storeItem(k.client, k.folderId, 'Plan'))?.mimeType, DOC);
    assert.deepEqual(Object.keys(await storeTree(k.client, k.folderId)).sort(), ['Plan', 'my notes.txt']);
    assert.equal(after.summary.errors, 0);
  });

  it('a local deletion of an export is reported and leaves the document; a file already at the name is never replaced', async () => {
    await importDoc(k.client, k.folderId, 'Plan.txt', 'v1');
    await run();
    fs.rmSync(path.join(k.localDir, 'Plan.txt'));
    const deleted = await run();
    assert.deepEqual(deleted.plan.actions, []);
    assert.match(skips(deleted.events).find((e) => e.path === 'Plan.txt')?.reason ?? '', /deleted here/);
    assert.equal((await storeItem(k.client, k.folderId, 'Plan'))?.mimeType, DOC, 'the document is not trashed');

    // Another link: a local file with the export's name and other bytes is kept and reported; the same bytes
    // (a run that stopped after writing the export) are recorded.
    const other = await startLink(k.h);
    try {
      await importDoc(other.client, other.folderId, 'Notes.txt', 'n1');
      await importDoc(other.client, other.folderId, 'Same.txt', 's1');
      putLocal(other.localDir, 'Notes.txt', 'mine');
      putLocal(other.localDir, 'Same.txt', `${BOM}s1`);
      const events: SyncEvent[] = [];
      const opts = {
        client: other.client,
        localDir: other.localDir,
        storeFolderId: other.folderId,
        exportFormats: exportFormatsFrom({ [DOC]: 'text/plain' }),
        onEvent: (e: SyncEvent) => events.push(e),
      };
      const r = await syncFolder(opts);
      assert.equal(r.summary.errors, 0);
      assert.equal(fs.readFileSync(path.join(other.localDir, 'Notes.txt'), 'utf8'), 'mine');
      assert.match(skips(events).find((e) => e.path === 'Notes.txt')?.reason ?? '', /never replaces/);
      assert.deepEqual(Object.keys(await storeTree(other.client, other.folderId)).sort(), ['Notes', 'Same']);
      const next = await syncFolder({ ...opts, onEvent: undefined });
      assert.deepEqual(
        next.plan.actions.map((a) => ('path' in a ? a.path : a.from)),
        ['Notes.txt'],
        'only the clashing file is tried again; Same.txt was recorded',
      );
    } finally {
      await other.close();
    }
  });

  it('reads what a user writes: kinds or full types, extensions or full types; bad entries say what is wrong', () => {
    assert.deepEqual(parseExportFlag('document=pdf, spreadsheet=xlsx,presentation=application/pdf'), {
      [DOC]: 'application/pdf',
      [SHEET]: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.google-apps.presentation': 'application/pdf',
    });
    assert.deepEqual(exportFormatsFrom({ [DOC]: 'DOCX' }), {
      [DOC]: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    assert.throws(() => parseExportFlag('docs=pdf'), /"docs" is not a kind of workspace document/);
    assert.throws(() => parseExportFlag('document=paper'), /"paper" is not an export format/);
    assert.throws(() => parseExportFlag('document'), /is not KIND=FORMAT/);
    assert.throws(() => parseExportFlag(','), /at least one/);
  });
});
