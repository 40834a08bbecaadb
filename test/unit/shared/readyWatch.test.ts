// The webview watchdog's clock: only visible time counts, a page that reports ready stops it, a silent one is
// loaded again a bounded number of times and then given up on once, and nothing fires after dispose.
import * as assert from 'node:assert/strict';
import { ReadyWatch, type ReadyWatchClock } from '../../../src/shared/readyWatch';

/** A hand-driven clock: `advance` runs the timers that come due, in order. */
class FakeClock implements ReadyWatchClock {
  private t = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  get pending(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
}

function setUp(visible: boolean, reloads = 3, reloadsDone?: number) {
  const clock = new FakeClock();
  const events: string[] = [];
  const watch: ReadyWatch = new ReadyWatch(
    {
      delayMs: 8000,
      reloads,
      reload: (attempt) => {
        events.push(`reload ${attempt} at ${clock.now()}`);
        watch.started();
      },
      giveUp: () => events.push(`give up at ${clock.now()}`),
      reloadsDone,
      clock,
    },
    visible,
  );
  return { clock, events, watch };
}

describe('ReadyWatch (webview page watchdog)', () => {
  it('a page that reports ready in time is never loaded again', () => {
    const { clock, events, watch } = setUp(true);
    watch.started();
    clock.advance(7999);
    watch.ready();
    clock.advance(60_000);
    assert.deepEqual(events, []);
    assert.equal(clock.pending, 0);
  });

  it('a silent visible page is loaded again after 8, 12 and 18 s, then given up on once after 27 more', () => {
    const { clock, events, watch } = setUp(true);
    watch.started();
    clock.advance(120_000);
    assert.deepEqual(events, ['reload 1 at 8000', 'reload 2 at 20000', 'reload 3 at 38000', 'give up at 65000']);
    assert.equal(clock.pending, 0, 'after giving up nothing is left waiting');
  });

  it('hidden time does not count: a hidden page is not loading', () => {
    const { clock, events, watch } = setUp(false);
    watch.started();
    clock.advance(60_000);
    assert.deepEqual(events, [], 'a page never shown is not reloaded');
    watch.setVisible(true);
    clock.advance(5000);
    watch.setVisible(false);
    clock.advance(60_000);
    assert.deepEqual(events, [], '5 s visible is not 8');
    watch.setVisible(true);
    clock.advance(2999);
    assert.deepEqual(events, []);
    clock.advance(1);
    assert.deepEqual(events, ['reload 1 at 128000']);
  });

  it('a page that comes ready after a reload gets the full budget again for a later load', () => {
    const { clock, events, watch } = setUp(true);
    watch.started();
    clock.advance(8000);
    watch.ready();
    watch.started();
    clock.advance(120_000);
    assert.deepEqual(events, [
      'reload 1 at 8000',
      'reload 1 at 16000',
      'reload 2 at 28000',
      'reload 3 at 46000',
      'give up at 73000',
    ]);
  });

  it('gives up once: a later silent load after giving up warns no second time', () => {
    const { clock, events, watch } = setUp(true, 0);
    watch.started();
    clock.advance(8000);
    watch.started();
    clock.advance(60_000);
    assert.deepEqual(events, ['give up at 8000']);
  });

  it('a new load restarts the count of the one it replaces', () => {
    const { clock, events, watch } = setUp(true);
    watch.started();
    clock.advance(6000);
    watch.started();
    clock.advance(6000);
    assert.deepEqual(events, []);
    clock.advance(2000);
    assert.deepEqual(events, ['reload 1 at 14000']);
  });

  it('a page that replaces a silent one goes on with its count instead of starting over', () => {
    const { clock, events, watch } = setUp(true, 3, 3);
    watch.started();
    clock.advance(60_000);
    // A page after three reloads gets the time the fourth load would have had.
    assert.deepEqual(events, ['give up at 27000']);
    const second = setUp(true, 3, 2);
    second.watch.started();
    second.clock.advance(60_000);
    assert.deepEqual(second.events, ['reload 3 at 18000', 'give up at 45000']);
  });

  it('nothing fires after dispose, whatever is called on it', () => {
    const { clock, events, watch } = setUp(true);
    watch.started();
    clock.advance(4000);
    watch.dispose();
    assert.equal(clock.pending, 0);
    watch.setVisible(false);
    watch.setVisible(true);
    watch.started();
    clock.advance(120_000);
    assert.deepEqual(events, []);
    assert.equal(clock.pending, 0);
  });

  it('refuses a delay or a count that is not a number it can use', () => {
    assert.throws(() => new ReadyWatch({ delayMs: 0, reloads: 3, reload: () => {}, giveUp: () => {} }, true), /delay/);
    assert.throws(
      () => new ReadyWatch({ delayMs: 10, reloads: -1, reload: () => {}, giveUp: () => {} }, true),
      /reloads/,
    );
    assert.throws(
      () => new ReadyWatch({ delayMs: NaN, reloads: 1, reload: () => {}, giveUp: () => {} }, true),
      /delay/,
    );
  });
});
