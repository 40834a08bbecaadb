// The webview watchdog's clock, editor-free: how long a page has been visible since it was set without
// reporting that it loaded. A webview that is not shown does not load, so only visible time counts. When a
// load has been visible for `delayMs` without a ready, the page is loaded again (`reload`), up to `reloads`
// times in a row, each load given half as long again as the one before (a page that is only slow, on a busy
// machine, is not cut short every time: in the UI tier a results grid restored during an evaluation took more
// than 8 s three times); after that `giveUp` is told, once, until a page reports ready again.

/** The timers the watch uses (a test drives its own). */
export interface ReadyWatchClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ReadyWatchOptions {
  /** Visible time the first load may take before the page is loaded again (each reload half as long again: loadBudgetMs). */
  delayMs: number;
  /** How many times in a row a silent page is loaded again before giving up. */
  reloads: number;
  /** Load the page again (the caller calls `started` for the new load); `attempt` counts from 1. */
  reload(attempt: number): void;
  /** Every reload stayed silent too. */
  giveUp(): void;
  /** Reloads already made for this page elsewhere (a page that replaces a silent one goes on with its count). */
  reloadsDone?: number;
  clock?: ReadyWatchClock;
}

/** How much longer each reload may take than the load before it. */
const BACKOFF = 1.5;

/** Visible time load number `attempt` (0 the first, n the n-th reload) may take before it is given up. */
export function loadBudgetMs(delayMs: number, attempt: number): number {
  return delayMs * BACKOFF ** attempt;
}

const systemClock: ReadyWatchClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ReadyWatch {
  private readonly clock: ReadyWatchClock;
  /** A load is under way and has not reported ready. */
  private waiting = false;
  /** Visible time the current load has had before the running stretch. */
  private spentMs = 0;
  /** When the running stretch began (set while the timer runs). */
  private since = 0;
  private timer: unknown;
  private attempts = 0;
  private gaveUp = false;
  private disposed = false;

  constructor(
    private readonly options: ReadyWatchOptions,
    private visible: boolean,
  ) {
    if (!(Number.isFinite(options.delayMs) && options.delayMs > 0))
      throw new RangeError(`ReadyWatch: the delay must be a positive number of ms, not ${options.delayMs}`);
    if (!(Number.isInteger(options.reloads) && options.reloads >= 0))
      throw new RangeError(`ReadyWatch: reloads must be a whole number from 0, not ${options.reloads}`);
    this.clock = options.clock ?? systemClock;
    this.attempts = Math.min(options.reloads, Math.max(0, options.reloadsDone ?? 0));
  }

  /** A load of the page began: its count starts from nothing. */
  started(): void {
    if (this.disposed) return;
    this.stop();
    this.waiting = !this.gaveUp;
    this.spentMs = 0;
    this.resume();
  }

  /** The page reported that it loaded. */
  ready(): void {
    this.stop();
    this.waiting = false;
    this.attempts = 0;
    this.gaveUp = false;
  }

  setVisible(visible: boolean): void {
    if (this.disposed || visible === this.visible) return;
    this.visible = visible;
    if (visible) this.resume();
    else this.pause();
  }

  dispose(): void {
    this.stop();
    this.disposed = true;
    this.waiting = false;
  }

  private resume(): void {
    if (!this.waiting || !this.visible || this.disposed || this.timer !== undefined) return;
    this.since = this.clock.now();
    const budget = loadBudgetMs(this.options.delayMs, this.attempts);
    this.timer = this.clock.setTimeout(() => this.expired(), Math.max(0, budget - this.spentMs));
  }

  private pause(): void {
    if (this.timer === undefined) return;
    this.spentMs += this.clock.now() - this.since;
    this.stop();
  }

  private stop(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private expired(): void {
    this.timer = undefined;
    if (this.disposed || !this.waiting) return;
    this.waiting = false;
    if (this.attempts < this.options.reloads) {
      this.attempts++;
      this.options.reload(this.attempts);
      return;
    }
    this.gaveUp = true;
    this.options.giveUp();
  }
}
