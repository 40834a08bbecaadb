import * as assert from 'node:assert/strict';
import { backoffDelay, durationMs, isAbortError, retryAfterMs, sleep } from '../../../../src/shared/http';

describe('shared http: sleep', () => {
  it('waits, and rejects with an AbortError at once when aborted (before or during)', async () => {
    await sleep(1);
    await assert.rejects(sleep(10, AbortSignal.abort()), (e: unknown) => isAbortError(e));
    const c = new AbortController();
    const p = sleep(60_000, c.signal);
    const outcome = p.then(
      () => 'slept',
      (e: unknown) => (isAbortError(e) ? 'aborted' : 'failed'),
    );
    await new Promise((r) => setTimeout(r, 5));
    c.abort();
    // The abort settles the sleep before anything else the event loop has queued runs (no timer of its own).
    const first = await Promise.race([outcome, new Promise((r) => setImmediate(() => r('still sleeping')))]);
    assert.equal(first, 'aborted');
  });
});

describe('shared http: backoff', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000, jitter: 0.4 };
  it('doubles per attempt, capped, with jitter within ±jitter/2', () => {
    const lo = { ...policy, random: () => 0 };
    const hi = { ...policy, random: () => 1 };
    const mid = { ...policy, random: () => 0.5 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 10].map((a) => backoffDelay(mid, a)),
      [100, 200, 400, 800, 1000, 1000],
    );
    assert.equal(backoffDelay(lo, 1), 160);
    assert.equal(backoffDelay(hi, 1), 240);
  });

  it("uses the server's own wait when it gives one", () => {
    assert.equal(backoffDelay(policy, 3, 47_880), 47_880);
    assert.equal(backoffDelay(policy, 0, 50), 50);
    assert.equal(backoffDelay({ ...policy, random: () => 0.5 }, 0, undefined), 100);
  });

  it('reads Retry-After as seconds or an HTTP date, and RetryInfo durations', () => {
    assert.equal(retryAfterMs('7'), 7000);
    assert.equal(retryAfterMs('1.5'), 1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now), 0);
    assert.equal(retryAfterMs('soon'), undefined);
    assert.equal(retryAfterMs(null), undefined);
    assert.equal(durationMs('47.88s'), 47_880);
    assert.equal(durationMs(5), undefined);
  });
});
