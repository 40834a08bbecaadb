import type { Clock } from '../../../src/waterData/core/rateLimiter';
import { AbortError } from '../../../src/waterData/core/rateLimiter';

/** A clock whose sleeps complete when the test advances time; the log records when each sleep ended. */
export class FakeClock implements Clock {
  t = 0;
  private sleepers: { until: number; resolve: () => void }[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new AbortError());
      const s = { until: this.t + ms, resolve };
      this.sleepers.push(s);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((x) => x !== s);
          reject(new AbortError());
        },
        { once: true },
      );
    });
  }

  /** Moves time forward, waking sleepers in order and letting their continuations run. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      this.sleepers.sort((a, b) => a.until - b.until);
      const next = this.sleepers[0];
      if (!next || next.until > end) break;
      this.sleepers.shift();
      this.t = next.until;
      next.resolve();
    }
    this.t = end;
    await flush();
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
}
