// Batch requests as Drive v2 takes them: multipart/mixed of application/http parts, each answered with
// its own status and body, Content-ID echoed as response-…, at most 100 parts.
import * as assert from 'node:assert/strict';
import { startStorage, type Harness, type Present } from './emulatorHarness';
import type { About, ErrorBody, File } from '../../../src/shared/wire/storage';
import { parseAs } from '../../support/typedJson';

function batchBody(boundary: string, parts: { id: string; request: string }[]): string {
  return (
    parts
      .map((p) => `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <${p.id}>\r\n\r\n${p.request}\r\n`)
      .join('') + `--${boundary}--\r\n`
  );
}

function parseBatch(contentType: string, text: string): { id?: string; status: number; json: unknown }[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1];
  return text
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const id = /Content-ID: (<[^>]+>)/i.exec(part)?.[1];
      const status = Number(/HTTP\/1\.1 (\d{3})/.exec(part)![1]);
      const body = part.slice(part.indexOf('{'));
      return { id, status, json: parseAs<unknown>(body) };
    });
}

describe('storage emulator: batch requests', () => {
  let h: Harness;
  before(async () => {
    h = await startStorage();
  });
  after(() => h.close());

  for (const path of ['/batch/store/v2', '/batch/drive/v2']) {
    it(`${path}: each part answered with its own status, body and response-Content-ID`, async () => {
      const body = batchBody('b0undary', [
        { id: 'item1', request: 'GET /store/v2/about?fields=kind,rootFolderId HTTP/1.1' },
        { id: 'item2', request: 'GET /drive/v2/files/no-such-file HTTP/1.1' },
        {
          id: 'item3',
          request:
            'POST /store/v2/files?fields=id,title HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{"title":"from a batch"}',
        },
      ]);
      const res = await h.call('POST', path, {
        raw: body,
        headers: { 'content-type': 'multipart/mixed; boundary=b0undary' },
      });
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type')!, /^multipart\/mixed; boundary=/);
      const parts = parseBatch(res.headers.get('content-type')!, res.text);
      assert.deepEqual(
        parts.map((p) => [p.id, p.status]),
        [
          ['<response-item1>', 200],
          ['<response-item2>', 404],
          ['<response-item3>', 200],
        ],
      );
      const [about, missing, inserted] = parts.map((p) => p.json) as [Present<About>, ErrorBody, Present<File>];
      assert.equal(about.kind, 'drive#about');
      assert.equal(missing.error.errors[0].reason, 'notFound');
      assert.equal(inserted.title, 'from a batch');
      const found = await h.call('GET', `/store/v2/files/${inserted.id}`);
      assert.equal(found.status, 200, 'the inserted file exists');
    });
  }

  it('parts without the outer token are unauthorised; over 100 parts → 400; not multipart → 400', async () => {
    const one = batchBody('b', [{ id: 'a', request: 'GET /store/v2/about' }]);
    const anon = await h.call('POST', '/batch/store/v2', {
      raw: one,
      auth: false,
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    });
    assert.equal(anon.status, 200);
    assert.equal(parseBatch(anon.headers.get('content-type')!, anon.text)[0].status, 401);
    const many = batchBody(
      'b',
      Array.from({ length: 101 }, (_, i) => ({ id: `p${i}`, request: 'GET /store/v2/about' })),
    );
    const tooMany = await h.call<ErrorBody>('POST', '/batch/store/v2', {
      raw: many,
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json.error.errors[0].reason, 'batchSizeTooLarge');
    const hundred = batchBody(
      'b',
      Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, request: 'GET /store/v2/about?fields=kind' })),
    );
    const ok = await h.call('POST', '/batch/store/v2', {
      raw: hundred,
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    });
    assert.equal(parseBatch(ok.headers.get('content-type')!, ok.text).length, 100);
    const json = await h.call('POST', '/batch/store/v2', { body: {} });
    assert.equal(json.status, 400);
    const get = await h.call('GET', '/batch/store/v2');
    assert.equal(get.status, 405);
  });
});
