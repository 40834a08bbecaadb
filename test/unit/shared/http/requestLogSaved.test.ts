// The Request Log across a window reload: what is saved (finished calls, newest first, a few hundred) and
// how it comes back (under the calls of the new window, with ids of its own), whatever the stored value holds.
import * as assert from 'node:assert/strict';
import type { RequestEvent } from '../../../../src/shared/http';
import { detailsText, RequestLogModel, rowLabel } from '../../../../src/shared/http/requestLog';
import { REQUEST_LOG_KEPT, restoreLog, savedLog } from '../../../../src/shared/http/requestLogSaved';

function call(id: number, over: Partial<RequestEvent> = {}): RequestEvent {
  return {
    id,
    phase: 'done',
    feature: 'storage',
    method: 'GET',
    url: `http://127.0.0.1:8787/store/v2/files/f${id}?key=REDACTED`,
    requestHeaders: { authorization: 'REDACTED' },
    startedAt: 1_700_000_000_000 + id,
    durationMs: 12,
    status: 200,
    statusText: 'OK',
    responseHeaders: { 'content-type': 'application/json' },
    responseBytes: 321,
    retries: 0,
    ...over,
  };
}

describe('request log kept across a reload', () => {
  it('saves the finished calls, newest first, at most REQUEST_LOG_KEPT of them', () => {
    const model = new RequestLogModel();
    for (let id = 1; id <= REQUEST_LOG_KEPT + 50; id++) model.add(call(id));
    model.add(call(1000, { phase: 'headers', status: 200 }));
    model.add(call(1001, { phase: 'failed', status: undefined, error: 'ECONNREFUSED' }));
    const saved = savedLog(model);
    assert.equal(saved.entries.length, REQUEST_LOG_KEPT);
    assert.deepEqual(
      saved.entries.slice(0, 3).map((e) => e.id),
      [1001, REQUEST_LOG_KEPT + 50, REQUEST_LOG_KEPT + 49],
      'the call still streaming is left out',
    );
    assert.equal(saved.clearedAt, undefined);
  });

  it('comes back under the calls of the new window, with ids of its own, showing the same', () => {
    const before = new RequestLogModel();
    before.add(call(1, { method: 'POST', feature: 'generation', requestBody: { text: '{"a":1}' } }));
    before.add(call(2, { wait: { ms: 480, reason: 'rate-limit' }, retries: 1 }));
    const stored: unknown = JSON.parse(JSON.stringify(savedLog(before, 1_700_000_500_000)));

    const after = new RequestLogModel();
    after.add(call(1, { url: 'http://127.0.0.1:8787/discovery/v1/apis' }));
    const { clearedAt, restored } = restoreLog(after, stored);
    assert.equal(clearedAt, 1_700_000_500_000);
    assert.equal(restored, 2);
    assert.deepEqual(
      after.items.map((e) => e.id),
      [1, -1, -2],
    );
    assert.equal(after.items[0].url, 'http://127.0.0.1:8787/discovery/v1/apis', 'the new call stays on top');
    for (const [i, old] of before.items.entries()) {
      const back = after.get(-(i + 1));
      assert.ok(back);
      assert.equal(rowLabel(back), rowLabel(old));
      assert.equal(detailsText(back), detailsText(old));
    }
  });

  it('takes any stored value without a throw, keeping only what is a finished call', () => {
    for (const value of [undefined, null, 'x', 42, [], { entries: 'no' }, { entries: [null, 1, 'a', {}] }]) {
      const model = new RequestLogModel();
      const back = restoreLog(model, value);
      assert.equal(back.restored, 0, JSON.stringify(value));
      assert.equal(back.clearedAt, undefined);
      assert.equal(model.items.length, 0);
    }
    const model = new RequestLogModel();
    const { restored } = restoreLog(model, {
      clearedAt: 'yesterday',
      entries: [
        call(1),
        { ...call(2), requestHeaders: { authorization: 7 } },
        { ...call(3), phase: 'headers' },
        { ...call(4), wait: { ms: 1, reason: 'nap' } },
        call(5, { phase: 'failed', status: undefined, error: 'timeout' }),
      ],
    });
    assert.equal(restored, 2);
    assert.deepEqual(
      model.items.map((e) => e.url.slice(-16)),
      [call(1).url.slice(-16), call(5).url.slice(-16)],
    );
  });

  it('keeps the log under its cap when restored into a full one', () => {
    const model = new RequestLogModel(5);
    for (let id = 1; id <= 4; id++) model.add(call(id));
    restoreLog(model, { entries: [call(1), call(2), call(3)] });
    assert.equal(model.items.length, 5);
  });
});
