// A Request Log row keeps its status readable in a narrow side bar: status and method lead the label, the
// path (ids shortened) follows, and the description holds only what the label leaves out.
import * as assert from 'node:assert/strict';
import type { RequestEvent } from '../../../../src/shared/http';
import { logLine, rowDescription, rowLabel, shortPath } from '../../../../src/shared/http/requestLog';

const ev = (over: Partial<RequestEvent>): RequestEvent => ({
  id: 1,
  phase: 'done',
  feature: 'storage',
  method: 'GET',
  url: 'http://127.0.0.1:4000/store/v2/files/1NQXkxsvsW4jhY1DO0XDfG-f8pSSwtbnL?fields=id&supportsAllDrives=true',
  requestHeaders: {},
  startedAt: 0,
  durationMs: 35,
  retries: 0,
  status: 200,
  statusText: 'OK',
  responseBytes: 1229,
  ...over,
});

describe('shared http: Request Log rows', () => {
  it('leads with the status and method, then the path with ids shortened', () => {
    assert.equal(rowLabel(ev({})), '200 GET /store/v2/files/1NQX…tbnL?…');
    assert.equal(rowDescription(ev({})), '1.2 KB · 35 ms', 'the status is not said twice');
    const notFound = ev({ status: 404, statusText: 'Not Found', method: 'DELETE' });
    assert.equal(rowLabel(notFound), '404 DELETE /store/v2/files/1NQX…tbnL?…');
    assert.equal(rowDescription(notFound), 'Not Found · 1.2 KB · 35 ms', 'what went wrong, in words');
    const failed = ev({ status: undefined, statusText: undefined, responseBytes: undefined, error: 'ECONNREFUSED' });
    assert.equal(rowLabel(failed), 'failed GET /store/v2/files/1NQX…tbnL?…');
    assert.equal(rowDescription(failed), '35 ms · ECONNREFUSED');
    const streaming = ev({ phase: 'headers', responseBytes: undefined });
    assert.equal(rowDescription(streaming), '35 ms to headers');
    const retried = ev({ retries: 2, wait: { ms: 1200, reason: 'backoff' } });
    assert.equal(rowDescription(retried), '1.2 KB · 35 ms · retry 2, waited 1.20 s (backoff)');
    // The output channel keeps the whole URL and the status with its reason.
    assert.match(
      logLine(ev({})),
      /GET http:\/\/127\.0\.0\.1:4000\/store\/v2\/files\/1NQXkxsvsW4jhY1DO0XDfG-f8pSSwtbnL\?.* → 200 OK · 1\.2 KB/,
    );
  });

  it('shortens only ids: words, versions and short segments stay whole', () => {
    assert.equal(
      shortPath('http://h/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'),
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?…',
    );
    assert.equal(shortPath('http://h/v1/odata/v4/Locations'), '/v1/odata/v4/Locations');
    assert.equal(shortPath('http://h/store/v2/changes/startPageToken'), '/store/v2/changes/startPageToken');
    assert.equal(
      shortPath('http://h/upload/abcdefghijklmnopqrstuvwxyz'),
      '/upload/abcdefghijklmnopqrstuvwxyz',
      'no digit',
    );
    assert.equal(shortPath('not a url'), 'not a url');
  });
});
