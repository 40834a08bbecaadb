import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { StorageTreeModel, type TreeEntry } from '../../../src/storage/core/tree';
import { formatSize, iconFor } from '../../../src/storage/core/present';
import { SEED_PHOTO_COUNT } from '../../../src/sandbox/storage/seed';

describe('storage tree model against the sandbox', () => {
  let sb: RunningSandbox;
  let model: StorageTreeModel;
  let requests: string[];

  before(async () => {
    sb = await startSandbox();
  });
  after(async () => sb.close());
  beforeEach(() => {
    requests = [];
    const client = new StorageClient({
      baseUrl: sb.storage,
      auth: { token: () => sb.accessToken },
      onAttempt: (a) => requests.push(a.url),
    });
    model = new StorageTreeModel(client, { pageSize: 100 });
  });

  const child = async (parent: TreeEntry | undefined, label: string) => {
    const kids = await model.children(parent);
    const found = kids.find((k) => model.present(k).label === label);
    assert.ok(found, `${label} under ${parent?.key ?? 'roots'}: ${kids.map((k) => model.present(k).label).join(', ')}`);
    return found;
  };

  it('has the six roots and loads nothing until a root expands', async () => {
    assert.deepEqual(
      (await model.children()).map((r) => model.present(r).label),
      ['My files', 'Shared drives', 'Shared with me', 'Starred', 'Recent', 'Trash'],
    );
    assert.equal(requests.length, 0);
  });

  it('keeps one object per node, so a view can refresh what it showed after another listing', async () => {
    const roots = await model.children();
    const mine = roots[0];
    const readme = (await model.children(mine)).find((k) => model.present(k).label === 'README.txt');
    model.refresh(mine.key);
    const again = await model.children();
    assert.equal(again[0], mine, 'the same root object');
    assert.equal(model.entry(mine.key), mine);
    const relisted = (await model.children(mine)).find((k) => model.present(k).label === 'README.txt');
    assert.equal(relisted, readme, 'the same file object, updated in place');
  });

  it('lists My files folders first with presentation data', async () => {
    const mine = await model.children(await child(undefined, 'My files'));
    const p = mine.map((e) => model.present(e));
    assert.deepEqual(
      p.slice(0, 4).map((x) => x.label),
      ['Archive', 'Photos', 'Projects', 'Reports'],
    );
    assert.ok(p.slice(0, 4).every((x) => x.collapsible && x.icon === 'folder'));
    const readme = p.find((x) => x.label === 'README.txt')!;
    assert.equal(readme.collapsible, false);
    assert.match(readme.description!, /^\d+ B · 2026-01-05 \d\d:00$/);
    assert.match(readme.tooltip!, /Owner: Sandbox User <sandbox.user@example.com>/);
    assert.match(readme.tooltip!, /MD5: [0-9a-f]{32}/);
    assert.equal(readme.contextValue, 'storage.file');
    assert.ok(!p.some((x) => x.label === 'old-draft.txt'));
    assert.equal(requests.length, 1, 'one page was enough');
  });

  it('pages a large folder: first page plus "Load more…", then the rest, in order', async () => {
    const photos = await child(await child(undefined, 'My files'), 'Photos');
    let kids = await model.children(photos);
    assert.equal(kids.length, 101);
    assert.equal(kids[100].type, 'loadMore');
    assert.equal(model.present(kids[100]).description, '100 loaded');
    let fired = 0;
    model.onDidChange((key) => key === photos.key && fired++);
    await model.loadMore(photos.key);
    await model.loadMore(photos.key);
    kids = await model.children(photos);
    assert.equal(fired, 2);
    assert.equal(kids.length, SEED_PHOTO_COUNT, 'no load-more node after the last page');
    assert.equal(model.present(kids[0]).label, 'IMG_0001.jpg');
    assert.equal(
      model.present(kids.at(-1)!).label,
      `IMG_${SEED_PHOTO_COUNT}.jpg`.replace(/IMG_(\d+)/, (_m, n: string) => `IMG_${n.padStart(4, '0')}`),
    );
  });

  it('lists shared drives and their content, shared-with-me, starred and the trash', async () => {
    const drives = await model.children(await child(undefined, 'Shared drives'));
    assert.deepEqual(
      drives.map((d) => model.present(d).label),
      ['Team Space'],
    );
    const inDrive = await model.children(drives[0]);
    assert.deepEqual(inDrive.map((d) => model.present(d).label).sort(), ['Team charter', 'on-call.csv']);
    assert.deepEqual(
      (await model.children(await child(undefined, 'Shared with me'))).map((e) => model.present(e).label),
      ['Partner agreement.pdf'],
    );
    assert.deepEqual(
      (await model.children(await child(undefined, 'Starred'))).map((e) => model.present(e).label),
      ['Projects'],
    );
    const trash = await model.children(await child(undefined, 'Trash'));
    assert.deepEqual(
      trash.map((e) => model.present(e).label),
      ['Old stuff', 'old-draft.txt'],
      'only what was trashed itself, folders first',
    );
    assert.equal(model.present(trash[1]).contextValue, 'storage.file.trashed');
    assert.deepEqual(
      (await model.children(trash[0])).map((e) => model.present(e).label),
      ['leftover.txt'],
      'trashed descendants show inside the trash',
    );
  });

  it('shows a load error as a node instead of throwing', async () => {
    const broken = new StorageTreeModel(
      new StorageClient({ baseUrl: sb.storage, auth: { token: () => 'wrong' }, retry: { maxRetries: 0 } }),
    );
    const kids = await broken.children((await broken.children())[0]);
    assert.equal(kids.length, 1);
    assert.equal(kids[0].type, 'message');
    assert.match(broken.present(kids[0]).label, /Sign in/);
  });

  it('formats sizes and picks icons by MIME type', () => {
    assert.equal(formatSize(0), '0 B');
    assert.equal(formatSize(1536), '1.5 KB');
    assert.equal(formatSize(5 * 1024 ** 3), '5.0 GB');
    assert.equal(iconFor({ mimeType: 'application/vnd.google-apps.folder' }), 'folder');
    assert.equal(iconFor({ mimeType: 'image/png' }), 'file-media');
    assert.equal(iconFor({ mimeType: 'application/pdf' }), 'file-pdf');
    assert.equal(iconFor({ mimeType: 'application/vnd.google-apps.spreadsheet' }), 'table');
    assert.equal(
      iconFor({
        mimeType: 'application/vnd.google-apps.shortcut',
        shortcutDetails: { targetMimeType: 'application/vnd.google-apps.folder' },
      }),
      'folder-library',
    );
    assert.equal(iconFor({ mimeType: 'application/x-unknown' }), 'file');
  });
});
