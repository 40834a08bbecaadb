// Peer tier: the official Node client (@googleapis/drive v2), unchanged, against a fresh sandbox. Every
// resource of spec §4.2 at least once; uploads (multipart, and resumable through the library's own
// authorised transport, since the Node client has no resumable upload), download, and a batch request.
import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

import type { drive_v2 } from '@googleapis/drive';

type DriveModule = typeof import('@googleapis/drive');

describe('peer: @googleapis/drive v2 against the sandbox', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let lib: DriveModule;
  let oauth: InstanceType<DriveModule['auth']['OAuth2']>;
  let d: drive_v2.Drive;
  /** Media methods build their upload URL from the per-call rootUrl only (not the client's), so uploads pass it. */
  let up: { rootUrl: string };

  before(async () => {
    sb = await startSandbox();
    lib = await import('@googleapis/drive');
    oauth = new lib.auth.OAuth2();
    oauth.setCredentials({ access_token: sb.accessToken, expiry_date: Date.now() + 3_600_000 });
    // The one setting a user changes: rootUrl (the library's paths stay /drive/v2/ and /upload/drive/v2/).
    d = lib.drive({ version: 'v2', rootUrl: `${sb.url}/`, auth: oauth });
    up = { rootUrl: `${sb.url}/` };
  });
  after(() => sb.close());

  it('about, apps, changes, channels', async () => {
    const about = await d.about.get();
    assert.equal(about.data.kind, 'drive#about');
    const apps = await d.apps.list();
    assert.equal(apps.data.kind, 'drive#appList');
    if (apps.data.items?.length)
      assert.equal((await d.apps.get({ appId: apps.data.items[0].id! })).data.id, apps.data.items[0].id);
    const start = await d.changes.getStartPageToken();
    const changes = await d.changes.list({ pageToken: start.data.startPageToken! });
    assert.equal(changes.data.kind, 'drive#changeList');
    const channel = await d.changes.watch({
      pageToken: start.data.startPageToken!,
      requestBody: { id: 'peer-channel', type: 'web_hook', address: 'https://example.com/hook' },
    });
    assert.equal(channel.data.kind, 'api#channel');
    const stopped = await d.channels.stop({ requestBody: { id: 'peer-channel', resourceId: channel.data.resourceId } });
    assert.equal(stopped.status, 204);
  });

  it('files: insert with media (multipart), get, download, patch, update, copy, list, trash, untrash, export, delete', async () => {
    const made = await d.files.insert(
      {
        requestBody: { title: 'peer.txt', mimeType: 'text/plain' },
        media: { mimeType: 'text/plain', body: 'hello from the official client' },
      },
      up,
    );
    assert.equal(made.data.title, 'peer.txt');
    assert.equal(made.data.fileSize, String('hello from the official client'.length));
    const id = made.data.id!;
    const media = await d.files.get({ fileId: id, alt: 'media' }, { responseType: 'text' });
    assert.equal(media.data, 'hello from the official client');
    const meta = await d.files.get({ fileId: id, fields: 'id,etag,title' });
    assert.equal(meta.data.title, 'peer.txt');
    const patched = await d.files.patch({ fileId: id, requestBody: { title: 'peer-renamed.txt' } });
    assert.equal(patched.data.title, 'peer-renamed.txt');
    const updated = await d.files.update(
      { fileId: id, media: { mimeType: 'text/plain', body: Readable.from(['new ', 'content']) } },
      up,
    );
    assert.equal(updated.data.fileSize, '11');
    const copy = await d.files.copy({ fileId: id, requestBody: { title: 'peer copy.txt' } });
    assert.equal(copy.data.title, 'peer copy.txt');
    const list = await d.files.list({ q: "title contains 'peer'", fields: 'items(id,title)' });
    assert.ok((list.data.items ?? []).some((f) => f.id === id));
    assert.equal((await d.files.trash({ fileId: id })).data.labels?.trashed, true);
    assert.equal((await d.files.untrash({ fileId: id })).data.labels?.trashed, false);
    assert.equal((await d.files.touch({ fileId: id })).data.id, id);
    const ids = await d.files.generateIds({ maxResults: 2 });
    assert.equal(ids.data.ids?.length, 2);
    const doc = await d.files.insert(
      {
        convert: true,
        requestBody: { title: 'peer doc.txt' },
        media: { mimeType: 'text/plain', body: 'Exported text' },
      },
      up,
    );
    assert.equal(doc.data.mimeType, 'application/vnd.google-apps.document');
    const exported = await d.files.export(
      { fileId: doc.data.id!, mimeType: 'text/plain' },
      { responseType: 'arraybuffer' },
    );
    assert.equal(Buffer.from(exported.data as ArrayBuffer).toString('utf8'), '\uFEFFExported text');
    assert.equal((await d.files.delete({ fileId: copy.data.id! })).status, 204);
    await assert.rejects(d.files.get({ fileId: copy.data.id! }), (e: { status?: number }) => e.status === 404);
    assert.equal((await d.files.emptyTrash()).status, 204);
  });

  it('children, parents, permissions, properties, revisions, comments, replies', async () => {
    const folder = await d.files.insert({
      requestBody: { title: 'peer folder', mimeType: 'application/vnd.google-apps.folder' },
    });
    const file = await d.files.insert(
      {
        requestBody: { title: 'peer child.txt', mimeType: 'text/plain' },
        media: { mimeType: 'text/plain', body: 'child' },
      },
      up,
    );
    const fileId = file.data.id!;
    const folderId = folder.data.id!;
    await d.children.insert({ folderId, requestBody: { id: fileId } });
    assert.deepEqual(
      (await d.children.list({ folderId })).data.items?.map((c) => c.id),
      [fileId],
    );
    assert.equal((await d.children.get({ folderId, childId: fileId })).data.id, fileId);
    assert.ok((await d.parents.list({ fileId })).data.items?.some((p) => p.id === folderId));
    assert.equal((await d.parents.get({ fileId, parentId: folderId })).data.id, folderId);
    await d.parents.delete({ fileId, parentId: folderId });
    await d.parents.insert({ fileId, requestBody: { id: folderId } });
    await d.children.delete({ folderId, childId: fileId });

    const perm = await d.permissions.insert({ fileId, requestBody: { type: 'anyone', role: 'reader' } });
    assert.equal((await d.permissions.list({ fileId })).data.items?.[0].type, 'anyone');
    assert.equal((await d.permissions.get({ fileId, permissionId: perm.data.id! })).data.role, 'reader');
    assert.equal(
      (await d.permissions.patch({ fileId, permissionId: perm.data.id!, requestBody: { role: 'writer' } })).data.role,
      'writer',
    );
    assert.equal(
      (await d.permissions.update({ fileId, permissionId: perm.data.id!, requestBody: { role: 'reader' } })).data.role,
      'reader',
    );
    const me = await d.about.get({ fields: 'user(emailAddress)' });
    assert.ok((await d.permissions.getIdForEmail({ email: me.data.user!.emailAddress! })).data.id);
    await d.permissions.delete({ fileId, permissionId: perm.data.id! });

    await d.properties.insert({ fileId, requestBody: { key: 'color', value: 'blue', visibility: 'PUBLIC' } });
    assert.equal((await d.properties.get({ fileId, propertyKey: 'color', visibility: 'PUBLIC' })).data.value, 'blue');
    assert.equal(
      (await d.properties.patch({ fileId, propertyKey: 'color', visibility: 'PUBLIC', requestBody: { value: 'red' } }))
        .data.value,
      'red',
    );
    assert.equal(
      (
        await d.properties.update({
          fileId,
          propertyKey: 'color',
          visibility: 'PUBLIC',
          requestBody: { value: 'green' },
        })
      ).data.value,
      'green',
    );
    assert.equal((await d.properties.list({ fileId })).data.items?.length, 1);
    await d.properties.delete({ fileId, propertyKey: 'color', visibility: 'PUBLIC' });

    await d.files.update({ fileId, media: { mimeType: 'text/plain', body: 'second version' } }, up);
    const revs = await d.revisions.list({ fileId });
    assert.ok((revs.data.items?.length ?? 0) >= 2);
    const first = revs.data.items![0].id!;
    assert.equal((await d.revisions.get({ fileId, revisionId: first })).data.id, first);
    assert.equal(
      (await d.revisions.patch({ fileId, revisionId: first, requestBody: { pinned: true } })).data.pinned,
      true,
    );
    assert.equal(
      (await d.revisions.update({ fileId, revisionId: first, requestBody: { pinned: false } })).data.pinned,
      false,
    );
    await d.revisions.delete({ fileId, revisionId: first });

    const comment = await d.comments.insert({ fileId, requestBody: { content: 'Looks good' } });
    const commentId = comment.data.commentId!;
    assert.equal((await d.comments.get({ fileId, commentId })).data.content, 'Looks good');
    assert.equal(
      (await d.comments.patch({ fileId, commentId, requestBody: { content: 'Looks great' } })).data.content,
      'Looks great',
    );
    assert.equal(
      (await d.comments.update({ fileId, commentId, requestBody: { content: 'Looks fine' } })).data.content,
      'Looks fine',
    );
    assert.equal((await d.comments.list({ fileId })).data.items?.length, 1);
    const reply = await d.replies.insert({ fileId, commentId, requestBody: { content: 'Thanks' } });
    const replyId = reply.data.replyId!;
    assert.equal((await d.replies.get({ fileId, commentId, replyId })).data.content, 'Thanks');
    assert.equal(
      (await d.replies.patch({ fileId, commentId, replyId, requestBody: { content: 'Thanks!' } })).data.content,
      'Thanks!',
    );
    assert.equal(
      (await d.replies.update({ fileId, commentId, replyId, requestBody: { content: 'Thank you' } })).data.content,
      'Thank you',
    );
    assert.equal((await d.replies.list({ fileId, commentId })).data.items?.length, 1);
    await d.replies.delete({ fileId, commentId, replyId });
    await d.comments.delete({ fileId, commentId });
  });

  it('drives: insert, get, list, hide, unhide, update, delete', async () => {
    const made = await d.drives.insert({ requestId: `peer-${Date.now()}`, requestBody: { name: 'Peer drive' } });
    const driveId = made.data.id!;
    assert.equal((await d.drives.get({ driveId })).data.name, 'Peer drive');
    assert.ok((await d.drives.list()).data.items?.some((x) => x.id === driveId));
    assert.equal((await d.drives.hide({ driveId })).data.hidden, true);
    assert.equal((await d.drives.unhide({ driveId })).data.hidden, false);
    assert.equal((await d.drives.update({ driveId, requestBody: { name: 'Peer drive 2' } })).data.name, 'Peer drive 2');
    assert.equal((await d.drives.delete({ driveId })).status, 204);
  });

  it('resumable upload and a batch request through the library’s authorised transport', async () => {
    const data = Buffer.alloc(600_000);
    for (let i = 0; i < data.length; i++) data[i] = i % 253;
    const init = await oauth.request<unknown>({
      url: `${sb.url}/upload/drive/v2/files?uploadType=resumable`,
      method: 'POST',
      headers: {
        'x-upload-content-type': 'application/octet-stream',
        'x-upload-content-length': String(data.length),
        'content-type': 'application/json',
      },
      data: JSON.stringify({ title: 'peer-resumable.bin' }),
    });
    const h = init.headers as unknown as { get?: (n: string) => string | null; location?: string };
    const location = String(typeof h.get === 'function' ? h.get('location') : h.location);
    const first = await oauth.request({
      url: location,
      method: 'PUT',
      headers: { 'content-range': `bytes 0-262143/${data.length}` },
      data: data.subarray(0, 262_144),
      validateStatus: (s) => s === 308,
    });
    assert.equal(first.status, 308);
    const done = await oauth.request<{ id: string; fileSize: string }>({
      url: location,
      method: 'PUT',
      headers: { 'content-range': `bytes 262144-${data.length - 1}/${data.length}` },
      data: data.subarray(262_144),
    });
    assert.equal(done.data.fileSize, String(data.length));
    const back = await d.files.get({ fileId: done.data.id, alt: 'media' }, { responseType: 'arraybuffer' });
    assert.ok(Buffer.from(back.data as ArrayBuffer).equals(data));

    const boundary = 'peer_batch';
    const body = [
      `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <a>\r\n\r\nGET /drive/v2/files/${done.data.id}?fields=title\r\n`,
      `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <b>\r\n\r\nGET /drive/v2/files/missing\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const batch = await oauth.request<string>({
      url: `${sb.url}/batch/drive/v2`,
      method: 'POST',
      headers: { 'content-type': `multipart/mixed; boundary=${boundary}` },
      data: body,
      responseType: 'text',
    });
    assert.match(batch.data, /Content-ID: <response-a>[\s\S]*HTTP\/1\.1 200[\s\S]*peer-resumable\.bin/);
    assert.match(batch.data, /Content-ID: <response-b>[\s\S]*HTTP\/1\.1 404/);
  });
});
