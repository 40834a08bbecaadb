// One pending run per key (a document's uri): a new request for the same key replaces the waiting
// one, so a burst of keystrokes costs one run after the pause. Serves the diagnostics (analyse after
// typing stops) and the language detector (look at a JSON document's content again) alike.
export class KeyedDebounce {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly delayMs: number) {}

  /** Runs `run` once `delayMs` pass without another `schedule` for `key`. */
  schedule(key: string, run: () => void): void {
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        run();
      }, this.delayMs),
    );
  }

  /** Drops the waiting run of `key`, if any. */
  cancel(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  has(key: string): boolean {
    return this.timers.has(key);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
