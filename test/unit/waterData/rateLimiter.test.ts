import * as assert from 'node:assert/strict';
import { RateLimiter, AbortError } from '../../../src/waterData/core/rateLimiter';
import { FakeClock, flush } from './fakeClock';

describe('waterData rate limiter (fake clock)', () => {
  it('spaces request starts at least 500 ms apart and keeps call order', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ minIntervalMs: 500, clock });
    const starts: [number, number][] = [];
    const all = [0, 1, 2, 3].map((i) => limiter.run(() => Promise.resolve(starts.push([i, clock.now()]))));
    await clock.advance(2000);
    await Promise.all(all);
    assert.deepEqual(starts, [
      [0, 0],
      [1, 500],
      [2, 1000],
      [3, 1500],
    ]);
  });

  it('never runs two at once: the next waits for a slow request to finish', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ minIntervalMs: 500, clock });
    let active = 0;
    let maxActive = 0;
    const events: string[] = [];
    const task = (name: string, ms: number) =>
      limiter.run(async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        events.push(`${name} start ${clock.now()}`);
        await clock.sleep(ms);
        events.push(`${name} end ${clock.now()}`);
        active--;
      });
    await limiter.run(() => Promise.resolve());
    const p = [task('a', 1200), task('b', 10)];
    await clock.advance(3000);
    await Promise.all(p);
    assert.equal(maxActive, 1);
    assert.deepEqual(events, ['a start 500', 'a end 1700', 'b start 1700', 'b end 1710']);
  });

  it('after an idle spell, spaces the next request from the end of the first (its connection set-up)', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ minIntervalMs: 500, clock });
    const starts: number[] = [];
    const p = [
      limiter.run(async () => {
        starts.push(clock.now());
        await clock.sleep(80);
      }),
      limiter.run(() => Promise.resolve(starts.push(clock.now()))),
    ];
    await clock.advance(2000);
    await Promise.all(p);
    assert.deepEqual(starts, [0, 580]);
  });

  it('spaces the next request from when the previous one was answered, not only from its start', async () => {
    // The first request took 60 ms to leave (a new connection, a busy event loop) and was answered at 70 ms:
    // it reached the server somewhere before 70 ms, so the next leaves at 570 ms, not 500 ms.
    const clock = new FakeClock();
    const limiter = new RateLimiter({ minIntervalMs: 500, clock });
    const starts: number[] = [];
    const p = [
      limiter.run(async (answered) => {
        starts.push(clock.now());
        await clock.sleep(70);
        answered();
      }),
      limiter.run(async (answered) => {
        starts.push(clock.now());
        answered();
        return Promise.resolve();
      }),
    ];
    await clock.advance(2000);
    await Promise.all(p);
    assert.deepEqual(starts, [0, 570]);
  });

  it('a request that failed before its answer counts as answered when it failed', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ minIntervalMs: 500, clock });
    await limiter.run(() => Promise.resolve());
    const failed = limiter.run(async () => {
      await clock.sleep(40);
      throw new Error('connection reset');
    });
    const refused = assert.rejects(failed, /connection reset/);
    const next = limiter.run(() => Promise.resolve(clock.now()));
    await clock.advance(2000);
    await refused;
    // The failed one left at 500 and may have reached the server as late as 540.
    assert.equal(await next, 1040);
  });

  it('holdOff delays every waiting caller', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ minIntervalMs: 500, clock });
    await limiter.run(() => Promise.resolve());
    limiter.holdOff(2000);
    const starts: number[] = [];
    const p = limiter.run(() => Promise.resolve(starts.push(clock.now())));
    await clock.advance(1999);
    assert.deepEqual(starts, []);
    await clock.advance(1);
    await p;
    assert.deepEqual(starts, [2000]);
  });

  it('a cancelled waiter leaves the queue without blocking the next one', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ minIntervalMs: 500, clock });
    await limiter.run(() => Promise.resolve());
    const ac = new AbortController();
    const cancelled = limiter.run(() => Promise.resolve('never'), ac.signal);
    const after = limiter.run(() => Promise.resolve(clock.now()));
    await flush();
    ac.abort();
    await assert.rejects(cancelled, AbortError);
    await clock.advance(1000);
    assert.equal(await after, 500);
  });

  it('defaults to a little over the service minimum of 500 ms', () => {
    assert.ok(new RateLimiter().minIntervalMs >= 500 && new RateLimiter().minIntervalMs <= 510);
  });
});
