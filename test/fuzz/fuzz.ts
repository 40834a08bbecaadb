// Shared machinery of the fuzz tier: a small seeded PRNG, mutators, and a loop bounded by both an
// iteration count and a time budget. The inputs are a fixed function of the seed, so a failure names
// the seed and iteration that reproduce it. Defaults keep the whole tier well under a minute on a
// loaded 2-core machine; FUZZ_ITERATIONS and FUZZ_SECONDS (per target) make a longer run.

/** xorshift32 with a splitmix-style seed scramble: tiny, fast, and the same on every platform. */
export class Random {
  private s: number;
  constructor(seed: number) {
    let z = (seed + 0x9e3779b9) | 0;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    this.s = (z ^ (z >>> 16)) | 0 || 1;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x;
    return (x >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const envNumber = (name: string): number | undefined => {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not "${v}"`);
  return n;
};

/** Iterations and seconds for one target: the defaults, or the environment's longer run. */
export function budget(defaults: { iterations: number; seconds: number }): { iterations: number; seconds: number } {
  return {
    iterations: envNumber('FUZZ_ITERATIONS') ?? defaults.iterations,
    seconds: envNumber('FUZZ_SECONDS') ?? defaults.seconds,
  };
}

/**
 * Runs `body` for each iteration with its own PRNG until the iterations or the seconds run out.
 * Returns the number of iterations run (a property that ran zero times proves nothing: callers assert > 0).
 */
export function fuzz(
  seed: number,
  limits: { iterations: number; seconds: number },
  body: (r: Random, i: number) => void,
): number {
  const deadline = performance.now() + limits.seconds * 1000;
  let i = 0;
  for (; i < limits.iterations && (i === 0 || performance.now() < deadline); i++) {
    const r = new Random(seed * 1_000_003 + i);
    try {
      body(r, i);
    } catch (err) {
      const e = err as Error;
      e.message = `seed ${seed}, iteration ${i}: ${e.message}`;
      throw e;
    }
  }
  return i;
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uFFFD',
  '🦀',
  'é',
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  '\r\n',
  '\n\n',
  '\r',
  'data:',
  '__proto__',
  'constructor',
  '%',
  '%zz',
  "'",
  '(',
  ')',
  'x'.repeat(300),
];

/** Byte-level damage: flips, deletions, duplications, insertions of framing bytes, truncation. */
export function mutateBytes(r: Random, input: Uint8Array): Buffer {
  let b = Buffer.from(input);
  const edits = 1 + r.int(6);
  for (let e = 0; e < edits; e++) {
    if (b.length === 0) b = Buffer.from(r.pick(NASTY_STRINGS));
    const at = r.int(b.length);
    switch (r.int(6)) {
      case 0:
        b[at] = r.int(256);
        break;
      case 1:
        b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + r.int(40)))]);
        break;
      case 2: {
        const end = Math.min(b.length, at + 1 + r.int(200));
        b = Buffer.concat([b.subarray(0, end), b.subarray(at, end), b.subarray(end)]);
        break;
      }
      case 3:
        b = Buffer.concat([b.subarray(0, at), Buffer.from(r.pick(NASTY_STRINGS)), b.subarray(at)]);
        break;
      case 4:
        b = b.subarray(0, at);
        break;
      default:
        b = Buffer.concat([
          b.subarray(0, at),
          Buffer.from([r.pick([0x0a, 0x0d, 0x7b, 0x7d, 0x22, 0x5c, 0xe2, 0x80, 0xf0])]),
          b.subarray(at),
        ]);
    }
  }
  return b;
}

/** A value of a random JSON type, sometimes nested, sometimes hostile (`__proto__`, deep, long). */
export function randomValue(r: Random, depth = 0): unknown {
  switch (r.int(depth > 3 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 7]);
    case 3:
      return r.pick(NASTY_STRINGS);
    case 4:
      return r.pick(['STOP', 'SAFETY', 'HARM_CATEGORY_HATE_SPEECH', 'NEGLIGIBLE', 'text', 'models/x']);
    case 5:
      return [];
    case 6:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    case 7: {
      const o: Record<string, unknown> = {};
      for (let k = r.int(4); k > 0; k--)
        o[
          r.pick([
            'text',
            'parts',
            'index',
            'category',
            'startIndex',
            'endIndex',
            'uri',
            'name',
            'args',
            '__proto__',
            'constructor',
            'x',
          ])
        ] = randomValue(r, depth + 1);
      return o;
    }
    default: {
      let v: unknown = 1;
      for (let k = 100 + r.int(400); k > 0; k--) v = [v];
      return v;
    }
  }
}

/** Replaces a few values somewhere in a JSON tree with values of random types. */
export function mutateTree(r: Random, value: unknown, edits = 1 + r.int(4)): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const slots: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const stack: unknown[] = [copy];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v))
      v.forEach((x, i) => {
        slots.push({ holder: v, key: i });
        stack.push(x);
      });
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        slots.push({ holder: v as Record<string, unknown>, key: k });
        stack.push(x);
      }
  }
  for (let e = 0; e < edits && slots.length; e++) {
    const s = r.pick(slots);
    (s.holder as Record<string | number, unknown>)[s.key] = randomValue(r);
  }
  return copy;
}

/** Splits bytes into chunks of random sizes (1 byte up to a few KB). */
export function randomChunks(r: Random, bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  const max = r.pick([1, 3, 16, 100, 4096, 65536]);
  for (let i = 0; i < bytes.length;) {
    const n = 1 + r.int(max);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}
