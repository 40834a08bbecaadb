// The service's front end, which refuses requests "before reaching our service": a token bucket per API
// key (2 requests per second, a small burst), no parallel requests per key, time measured here at the
// server when a request arrives. A refused request costs nothing, so it never pushes the next one back.

export interface FrontEndOptions {
  /** Sustained rate: one token every `intervalMs`; 0 turns the front end off. */
  intervalMs: number;
  /** Bucket size: requests that may arrive back to back after a pause. 1 is the strict reading of "2 per second". */
  burst: number;
  now: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
  inFlight: number;
}

/** Keys remembered at most; the least recently seen goes first, so random keys cannot grow memory. */
const MAX_KEYS = 10_000;

export class FrontEnd {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly options: FrontEndOptions) {}

  /** Admits a request of `key` and returns its release (call once when the response is done), or undefined when refused. */
  admit(key: string): (() => void) | undefined {
    const { intervalMs, now } = this.options;
    if (intervalMs <= 0) return () => undefined;
    const capacity = Math.max(1, this.options.burst);
    const t = now();
    const bucket = this.buckets.get(key) ?? { tokens: capacity, at: t, inFlight: 0 };
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_KEYS) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, t - bucket.at) / intervalMs);
    bucket.at = t;
    if (bucket.inFlight > 0 || bucket.tokens < 1) return undefined;
    bucket.tokens -= 1;
    bucket.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      bucket.inFlight--;
    };
  }
}
