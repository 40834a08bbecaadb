// Host tests cannot reach the webview's DOM, so in ExtensionMode.Test (only) the webview reports
// what it rendered after each flush. This keeps just what a test may still await: the latest
// report of the last few turns, and the reports pending waiters ask for.
import type { RenderedAck } from '../protocol';

/** Enough for a test that waits on a turn after the one that followed it (a tool run). */
const TURNS_KEPT = 8;

type Waiter = { match: (a: RenderedAck) => boolean; resolve: (a: RenderedAck) => void };

export class AckLog {
  private readonly latest = new Map<string, RenderedAck>();
  private waiters: Waiter[] = [];
  last: RenderedAck | undefined;

  record(a: RenderedAck): void {
    this.last = a;
    this.latest.delete(a.turnId);
    this.latest.set(a.turnId, a);
    // Map order is insertion order, so the first key is the turn reported on longest ago.
    while (this.latest.size > TURNS_KEPT) this.latest.delete(this.latest.keys().next().value as string);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(a)) return true;
      w.resolve(a);
      return false;
    });
  }

  clear(): void {
    this.latest.clear();
    this.last = undefined;
  }

  /** Resolves with a report already received or the next one that matches. */
  wait(match: (a: RenderedAck) => boolean, timeoutMs: number): Promise<RenderedAck> {
    for (const a of this.latest.values()) if (match(a)) return Promise.resolve(a);
    let waiter: Waiter | undefined;
    const found = new Promise<RenderedAck>((resolve) => {
      waiter = { match, resolve };
      this.waiters.push(waiter);
    });
    return withTimeout(found, timeoutMs, 'the panel did not render the reply').finally(() => {
      this.waiters = this.waiters.filter((w) => w !== waiter);
    });
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`Timed out: ${what}`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
