import * as assert from 'node:assert/strict';
import { startStorage, type Harness } from './emulatorHarness';
import type { About, ChildList, ErrorBody, File, FileList } from '../../../src/shared/wire/storage';
import { SEED_PHOTO_COUNT } from '../../../src/sandbox/storage/seed';

const q = (s: string) => encodeURIComponent(s);

describe('storage emulator: auth, files.list, q, paging, fields, get, about, children', () => {
  let h: Harness;
  before(async () => (h = await startStorage()));
  after(async () => h.close());

  it('answers 401 with the real body when the bearer token is missing or wrong', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }] as Record<
      string,
      string
    >[]) {
      const r = await h.call<ErrorBody>('GET', '/store/v2/about', { auth: false, headers });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, {
        error: {
          errors: [
            {
              domain: 'global',
              reason: 'authError',
              message: 'Invalid Credentials',
              locationType: 'header',
              location: 'Authorization',
            },
          ],
          code: 401,
          message: 'Invalid Credentials',
        },
      });
      assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
  });

  it('serves the same API under /drive/v2 with links in that prefix', async () => {
    const r = await h.call<File>('GET', '/drive/v2/files/root?fields=id,selfLink');
    assert.equal(r.status, 200);
    assert.match(r.json.selfLink, /\/drive\/v2\/files\//);
  });

  it('lists the root folder without trashed items, and includes them when the query does not exclude them', async () => {
    const live = await h.call<FileList>(
      'GET',
      `/store/v2/files?q=${q("'root' in parents and trashed = false")}&fields=items(title,labels/trashed)`,
    );
    assert.equal(live.status, 200);
    const titles = live.json.items.map((i: { title: string }) => i.title);
    assert.ok(titles.includes('Projects') && titles.includes('README.txt'));
    assert.ok(!titles.includes('old-draft.txt'));
    const all = await h.call<FileList>('GET', `/store/v2/files?q=${q("'root' in parents")}&fields=items(title)`);
    assert.ok(
      all.json.items.some((i: { title: string }) => i.title === 'old-draft.txt'),
      'files.list includes trashed files by default',
    );
    const trash = await h.call<FileList>(
      'GET',
      `/store/v2/files?q=${q('trashed = true')}&fields=items(title,labels/trashed)`,
    );
    assert.ok(trash.json.items.length >= 1);
    assert.ok(trash.json.items.every((i: { labels: { trashed: boolean } }) => i.labels.trashed === true));
  });

  it('evaluates and/or/not, parentheses, contains, mimeType and date comparisons', async () => {
    const get = async (query: string) =>
      (await h.call<FileList>('GET', `/store/v2/files?q=${q(query)}&fields=items(title)&maxResults=1000`)).json.items
        .map((i: { title: string }) => i.title)
        .sort();
    assert.deepEqual(await get("title contains 'road'"), ['Roadmap']);
    assert.deepEqual(await get("title contains 'deck'"), ['Quarterly deck'], 'contains matches word prefixes');
    assert.deepEqual(await get("title contains 'admap'"), [], 'not arbitrary substrings');
    assert.deepEqual(
      await get("mimeType = 'application/vnd.google-apps.folder' and not title = 'Photos' and trashed = false"),
      ['Archive', 'Design', 'Projects', 'Reports'],
    );
    assert.deepEqual(await get("(title = 'Sales' or title = 'Roadmap') and trashed = false"), ['Roadmap', 'Sales']);
    assert.deepEqual(await get("title = 'IMG_0001.jpg' or title = 'IMG_0002.jpg'"), ['IMG_0001.jpg', 'IMG_0002.jpg']);
    assert.equal((await get("modifiedDate > '2030-01-01T00:00:00'")).length, 0);
    assert.ok((await get("modifiedDate < '2030-01-01T00:00:00Z' and starred = true")).includes('Projects'));
    assert.deepEqual(await get("fullText contains 'If-Match'"), ['Roadmap']);
    assert.deepEqual(await get("properties has { key='reviewed' and value='true' and visibility='PUBLIC' }"), [
      'notes.md',
    ]);
    assert.deepEqual(await get('sharedWithMe = true'), ['Partner agreement.pdf']);
    assert.deepEqual(await get("'alex.partner@example.org' in owners"), ['Partner agreement.pdf']);
    assert.deepEqual(await get("title = 'it\\'s'"), []);
  });

  it('keeps a file in two folders consistent from both sides', async () => {
    const ids = async (name: string) =>
      (await h.call<FileList>('GET', `/store/v2/files?q=${q(`title = '${name}'`)}&fields=items(id,parents(id))`)).json
        .items;
    const [contacts] = await ids('team-contacts.json');
    assert.equal(contacts.parents.length, 2);
    for (const p of contacts.parents) {
      const kids = await h.call<ChildList>('GET', `/store/v2/files/${p.id}/children?maxResults=1000`);
      assert.ok(kids.json.items.some((c: { id: string }) => c.id === contacts.id));
    }
  });

  it('answers 400 Invalid query on syntax errors and unknown terms', async () => {
    for (const bad of [
      "title = 'x",
      "'root' in",
      'trashed = maybe',
      "name = 'v3 term'",
      'title contains',
      "(title = 'a'",
      "title ~ 'a'",
    ]) {
      const r = await h.call<ErrorBody>('GET', `/store/v2/files?q=${q(bad)}`);
      assert.equal(r.status, 400, bad);
      assert.deepEqual(r.json.error.errors[0], {
        domain: 'global',
        reason: 'invalid',
        message: 'Invalid query',
        locationType: 'parameter',
        location: 'q',
      });
    }
  });

  it('pages with maxResults/pageToken until nextPageToken is absent, with no duplicates or gaps', async () => {
    const photos = (await h.call<FileList>('GET', `/store/v2/files?q=${q("title = 'Photos'")}&fields=items(id)`)).json
      .items[0].id;
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const r = await h.call<FileList>(
        'GET',
        `/store/v2/files?q=${q(`'${photos}' in parents`)}&maxResults=70&orderBy=title&fields=nextPageToken,items(title)${token ? `&pageToken=${token}` : ''}`,
      );
      assert.equal(r.status, 200);
      assert.ok(r.json.items.length <= 70);
      seen.push(...r.json.items.map((i: { title: string }) => i.title));
      token = r.json.nextPageToken;
      pages++;
    } while (token);
    assert.equal(pages, Math.ceil(SEED_PHOTO_COUNT / 70));
    assert.equal(seen.length, SEED_PHOTO_COUNT);
    assert.equal(new Set(seen).size, SEED_PHOTO_COUNT);
    assert.deepEqual(seen, [...seen].sort());
  });

  it('rejects a page token from another query and bad maxResults', async () => {
    const first = await h.call<FileList>('GET', `/store/v2/files?maxResults=5&fields=nextPageToken`);
    const r = await h.call<ErrorBody>(
      'GET',
      `/store/v2/files?q=${q('trashed = true')}&pageToken=${first.json.nextPageToken}`,
    );
    assert.equal(r.status, 400);
    assert.equal(r.json.error.errors[0].location, 'pageToken');
    const bad = await h.call<ErrorBody>('GET', '/store/v2/files?maxResults=abc');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.errors[0].location, 'maxResults');
    const badOrder = await h.call<ErrorBody>('GET', '/store/v2/files?orderBy=size');
    assert.equal(badOrder.status, 400);
    assert.equal(badOrder.json.error.errors[0].location, 'orderBy');
  });

  it('returns the whole File without fields and only the selection with it', async () => {
    const full = await h.call<FileList>('GET', `/store/v2/files?q=${q("title = 'README.txt'")}`);
    const f = full.json.items[0];
    assert.equal(full.json.kind, 'drive#fileList');
    for (const k of [
      'kind',
      'id',
      'etag',
      'title',
      'mimeType',
      'labels',
      'parents',
      'fileSize',
      'md5Checksum',
      'version',
      'capabilities',
      'owners',
      'downloadUrl',
      'createdDate',
      'modifiedDate',
    ])
      assert.ok(k in f, k);
    assert.equal(typeof f.fileSize, 'string', 'int64 as string');
    const part = await h.call<FileList>(
      'GET',
      `/store/v2/files?q=${q("title = 'README.txt'")}&fields=items(id,title,labels/trashed,parents(id))`,
    );
    assert.deepEqual(Object.keys(part.json), ['items']);
    assert.deepEqual(Object.keys(part.json.items[0]).sort(), ['id', 'labels', 'parents', 'title']);
    assert.deepEqual(part.json.items[0].labels, { trashed: false });
    assert.deepEqual(Object.keys(part.json.items[0].parents[0]), ['id']);
    const bad = await h.call<ErrorBody>('GET', '/store/v2/about?fields=user(');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.errors[0].location, 'fields');
  });

  it('gets metadata (root alias), media bytes with ranges, and refuses media of workspace documents', async () => {
    const root = await h.call<File>('GET', '/store/v2/files/root?fields=id,title,mimeType');
    assert.deepEqual(root.json, {
      id: '0AAsandboxRootFolderUk9PVA',
      title: 'My Drive',
      mimeType: 'application/vnd.google-apps.folder',
    });
    const [readme] = (
      await h.call<FileList>(
        'GET',
        `/store/v2/files?q=${q("title = 'README.txt'")}&fields=items(id,md5Checksum,fileSize)`,
      )
    ).json.items;
    const media = await h.call('GET', `/store/v2/files/${readme.id}?alt=media`);
    assert.equal(media.status, 200);
    assert.equal(media.headers.get('content-type'), 'text/plain');
    assert.equal(Buffer.byteLength(media.text), Number(readme.fileSize));
    assert.match(media.text, /^Welcome to the API Workbench storage sandbox/);
    const part = await h.call('GET', `/store/v2/files/${readme.id}?alt=media`, { headers: { range: 'bytes=0-6' } });
    assert.equal(part.status, 206);
    assert.equal(part.text, 'Welcome');
    const [doc] = (await h.call<FileList>('GET', `/store/v2/files?q=${q("title = 'Roadmap'")}&fields=items(id)`)).json
      .items;
    const refused = await h.call<ErrorBody>('GET', `/store/v2/files/${doc.id}?alt=media`);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.errors[0].reason, 'fileNotDownloadable');
    const missing = await h.call<ErrorBody>('GET', '/store/v2/files/nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json.error.errors[0], {
      domain: 'global',
      reason: 'notFound',
      message: 'File not found: nope.',
      locationType: 'parameter',
      location: 'fileId',
    });
  });

  it('about.get reports the user, root folder, quota and export formats', async () => {
    const r = await h.call<About>('GET', '/store/v2/about');
    assert.equal(r.json.kind, 'drive#about');
    assert.equal(r.json.rootFolderId, '0AAsandboxRootFolderUk9PVA');
    assert.equal(r.json.user.emailAddress, 'sandbox.user@example.com');
    assert.ok(Number(r.json.quotaBytesUsed) > 0 && Number(r.json.quotaBytesUsed) < Number(r.json.quotaBytesTotal));
    const doc = r.json.exportFormats.find(
      (e: { source: string }) => e.source === 'application/vnd.google-apps.document',
    );
    assert.ok(doc?.targets.includes('application/pdf'));
  });

  it('children.list returns child references in pages', async () => {
    const photos = (await h.call<FileList>('GET', `/store/v2/files?q=${q("title = 'Photos'")}&fields=items(id)`)).json
      .items[0].id;
    const r = await h.call<ChildList>('GET', `/store/v2/files/${photos}/children`);
    assert.equal(r.json.kind, 'drive#childList');
    assert.equal(r.json.items.length, 100, 'default maxResults is 100');
    assert.equal(r.json.items[0].kind, 'drive#childReference');
    assert.ok(r.json.nextPageToken);
    const next = await h.call<ChildList>(
      'GET',
      `/store/v2/files/${photos}/children?pageToken=${r.json.nextPageToken}&maxResults=1000`,
    );
    assert.equal(next.json.items.length, SEED_PHOTO_COUNT - 100);
    assert.equal(next.json.nextPageToken, undefined);
  });
});
