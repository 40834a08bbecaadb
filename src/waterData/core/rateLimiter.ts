// The service allows 2 requests per second and no parallel requests, per caller. Every request of the
// extension (all notebooks, exports, completion look-ups) and of the CLI goes through one limiter.
import { sleep } from '../../shared/http';
import { WATER_MIN_INTERVAL_MS } from '../../shared/wire/waterData';

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export class AbortError extends Error {
  override readonly name = 'AbortError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

export const systemClock: Clock = { now: () => Date.now(), sleep };

/** Node's keep-alive sockets close after ~5 s idle. */
const FRESH_CONNECTION_AFTER_MS = 4000;

export interface RateLimiterOptions {
  minIntervalMs?: number;
  clock?: Clock;
}

export class RateLimiter {
  private tail: Promise<void> = Promise.resolve();
  private lastStart = Number.NEGATIVE_INFINITY;
  private lastEnd = Number.NEGATIVE_INFINITY;
  /**
   * When the previous request's answer began to arrive (or it failed): the request had reached the service
   * by then, so the next one leaves `minIntervalMs` after it and arrives at least that long after it,
   * however long each took to get there (a new connection, a busy event loop, timers firing a little early).
   */
  private lastAnswer = Number.NEGATIVE_INFINITY;
  private notBefore = Number.NEGATIVE_INFINITY;
  readonly minIntervalMs: number;
  readonly clock: Clock;
  /** Requests started so far (for progress and tests). */
  started = 0;

  constructor(options: RateLimiterOptions = {}) {
    // A few ms of margin so timer jitter never lands two starts closer than the service's 500 ms.
    this.minIntervalMs = options.minIntervalMs ?? WATER_MIN_INTERVAL_MS + 2;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Runs `task` when the previous one has finished and the spacing allows; tasks start in call order. A task
   * that sends a request calls `answered` when the answer's first bytes (the status line) arrive; the next
   * request is then spaced from that moment as well as from this one's start.
   */
  async run<T>(task: (answered: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    try {
      await abortable(previous, signal);
    } catch (e) {
      // Keep the queue ordered: our slot frees only once the one before us is done.
      void previous.then(release);
      throw e;
    }
    try {
      const earliest = Math.max(
        this.lastStart + this.minIntervalMs,
        this.lastAnswer + this.minIntervalMs,
        this.notBefore,
      );
      // A timer may wake a millisecond before the clock says it is due: sleep again until it is.
      for (let wait = earliest - this.clock.now(); wait > 0; wait = earliest - this.clock.now())
        await this.clock.sleep(wait, signal);
      if (signal?.aborted) throw new AbortError();
      const start = this.clock.now();
      // After a pause the connection is new: setting it up delays this request's arrival at the service
      // more than the next one's, so the next is spaced from this one's end, not its start.
      const fresh = start - this.lastEnd > FRESH_CONNECTION_AFTER_MS;
      this.lastStart = start;
      this.started++;
      let answeredAt: number | undefined;
      let failed = false;
      try {
        return await task(() => (answeredAt ??= this.clock.now()));
      } catch (e) {
        failed = true;
        throw e;
      } finally {
        this.lastEnd = this.clock.now();
        if (fresh) this.lastStart = this.lastEnd;
        // A request that failed before its answer may still have reached the service, at the latest now.
        if (answeredAt === undefined && failed) answeredAt = this.lastEnd;
        if (answeredAt !== undefined) this.lastAnswer = answeredAt;
      }
    } finally {
      release();
    }
  }

  /** After the service said "too fast", hold every caller back, not only the one that was refused. */
  holdOff(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.clock.now() + ms);
  }
}

function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new AbortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}

/** The one limiter of this process (extension host or CLI). */
export const sharedRateLimiter = new RateLimiter();
