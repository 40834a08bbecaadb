// CPU-time runs for the scaling bench (test/bench/scaling.bench.ts): per-call CPU time of several functions,
// interleaved, each run long enough to hold several young-generation collections.
import { SMOKE } from './smoke';

const round = (n: number) => Math.round(n * 1000) / 1000;

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU time of this process (every thread: the collector's helpers too), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * A young-generation collection (a scavenge), when the bench runs with --expose-gc. Not a full one: a full
 * collection frees the object shapes (maps) no live object uses any more, and V8 then throws away every
 * optimised function that was specialised to them ("marking dependent code for deoptimization, reason: weak
 * objects"), so each run that followed a full collection re-paid tier-up: 2-5x the steady per-byte cost on
 * some inputs and not others, which is what made the figures swing across their goals from run to run.
 */
const scavenge = (): void => (globalThis as { gc?: (o?: { type: 'minor' | 'major' }) => void }).gc?.({ type: 'minor' });

/**
 * Per-call CPU time of each function, in ms, for each of several runs (result[fn][run]); each run repeats the
 * call until it has taken >= minMs. Before the first run every function is warmed up for as long, so its code
 * is optimised before it is measured. Each run starts from an empty young generation (see scavenge()), so the
 * previous run's short-lived garbage is not collected on this run's clock.
 * Time is this process's CPU time, not the wall clock: on a machine shared with other builds the wall clock
 * counts their work too. The collector's work is in the figure (its helper threads included), since that is
 * work the parser causes; a run is long enough to hold several young collections, so whether one of them
 * falls inside it does not decide its time (runs of 60 ms held none or one, each a large part of the run).
 * The functions interleave, one run of each per round, and each round starts with the next function, so a
 * drift in the machine's state, or an old-generation collection that one input's garbage makes due, falls
 * on every input alike rather than on whichever is measured last or next.
 */
export function timeRuns(fns: (() => void)[], minMs = SMOKE ? 1 : 150, runs = SMOKE ? 1 : 9): number[][] {
  const per = fns.map((fn) => {
    const t0 = cpuMs();
    do fn();
    while (cpuMs() - t0 < minMs);
    return [] as number[];
  });
  for (let r = 0; r < runs; r++)
    for (let j = 0; j < fns.length; j++) {
      const k = (r + j) % fns.length;
      scavenge();
      let n = 0;
      const t1 = cpuMs();
      let el: number;
      do {
        fns[k]();
        n++;
        el = cpuMs() - t1;
      } while (el < minMs);
      per[k].push(el / n);
    }
  return per;
}

/** "lowest-highest" of the figure computed from each run alone: how much one run can be trusted. */
export const spread = (xs: number[]): string => `${round(Math.min(...xs))}-${round(Math.max(...xs))}`;
