// Drive v2 details that parity suites check against the real service: ETag / If-None-Match on
// files.get, the insert answer without `permissions`, thumbnailVersion, the order of permissions,
// and the byte order mark of a document's plain-text export.
import * as assert from 'node:assert/strict';
import { startStorage, type Harness } from './emulatorHarness';
import type { File, PermissionList } from '../../../src/shared/wire/storage';

describe('storage emulator: Drive v2 fidelity details', () => {
  let h: Harness;
  before(async () => {
    h = await startStorage();
  });
  after(() => h.close());

  it('files.get sends the file etag as ETag; If-None-Match with it → 304, after a change → 200', async () => {
    const f = (await h.call<File>('POST', '/store/v2/files', { body: { title: 'etag.txt', mimeType: 'text/plain' } }))
      .json;
    const got = await h.call<File>('GET', `/store/v2/files/${f.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('etag'), got.json.etag);
    const same = await h.call('GET', `/store/v2/files/${f.id}`, { headers: { 'if-none-match': got.json.etag } });
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    await h.call('PATCH', `/store/v2/files/${f.id}`, { body: { description: 'changed' } });
    const changed = await h.call<File>('GET', `/store/v2/files/${f.id}`, {
      headers: { 'if-none-match': got.json.etag },
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.json.etag, got.json.etag);
  });

  it('files.insert (metadata and upload) and files.copy answer without a permissions member; files.get has it', async () => {
    const inserted = await h.call<File>('POST', '/store/v2/files', {
      body: { title: 'p.txt', mimeType: 'text/plain' },
    });
    assert.equal(inserted.status, 200);
    assert.equal('permissions' in inserted.json, false);
    const uploaded = await h.call<File>('POST', '/upload/store/v2/files?uploadType=media', {
      raw: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal('permissions' in uploaded.json, false);
    const copied = await h.call<File>('POST', `/store/v2/files/${inserted.json.id}/copy`, {
      body: { title: 'p copy.txt' },
    });
    assert.equal('permissions' in copied.json, false);
    const got = await h.call<File>('GET', `/store/v2/files/${inserted.json.id}`);
    assert.equal(got.json.permissions.length, 1);
  });

  it('thumbnailVersion is present with fields=*', async () => {
    const f = (await h.call<File>('POST', '/store/v2/files', { body: { title: 't.txt', mimeType: 'text/plain' } }))
      .json;
    const got = await h.call<File>('GET', `/store/v2/files/${f.id}?fields=*`);
    assert.equal(got.json.thumbnailVersion, '0');
  });

  it("permissions.list returns an 'anyone' permission first, before the owner", async () => {
    const f = (await h.call<File>('POST', '/store/v2/files', { body: { title: 'shared.txt', mimeType: 'text/plain' } }))
      .json;
    const ins = await h.call('POST', `/store/v2/files/${f.id}/permissions`, {
      body: { type: 'anyone', role: 'reader' },
    });
    assert.equal(ins.status, 200, ins.text);
    const list = await h.call<PermissionList>('GET', `/store/v2/files/${f.id}/permissions`);
    assert.deepEqual(
      list.json.items.map((p) => `${p.type}:${p.role}`),
      ['anyone:reader', 'user:owner'],
    );
  });

  it('a converted document exported as text/plain starts with a UTF-8 BOM', async () => {
    const converted = await h.call<File>('POST', '/upload/store/v2/files?uploadType=multipart&convert=true', {
      raw: `--x\r\nContent-Type: application/json\r\n\r\n{"title":"bom.txt"}\r\n--x\r\nContent-Type: text/plain\r\n\r\nHello BOM\r\n--x--`,
      headers: { 'content-type': 'multipart/related; boundary=x' },
    });
    assert.equal(converted.json.mimeType, 'application/vnd.google-apps.document');
    const res = await fetch(`${h.origin}/store/v2/files/${converted.json.id}/export?mimeType=text/plain`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(bytes.subarray(3).toString('utf8'), 'Hello BOM');
  });
});
