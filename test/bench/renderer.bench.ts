// Renderer first paint in headless Chromium: 10,000 rows against 100 rows of the same shape, timed
// from renderOutputItem to the renderer's `rendered` message (posted after the first paint).
// Run alone: npx tsx test/bench/renderer.bench.ts
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';
import { startHarness } from '../ui/renderer/harness';
import { observationRows, waterResult } from '../ui/renderer/data';

const RUNS = SMOKE ? 1 : 7;

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const suite: BenchSuite = async () => {
  const h = await startHarness();
  try {
    const small = waterResult('Observations', observationRows(100));
    const large = waterResult('Observations', observationRows(10_000));
    // Warm up the page's JIT and the style injection once per size.
    await h.render(small);
    await h.render(large);
    const smallMs: number[] = [];
    const largeMs: number[] = [];
    const smallSync: number[] = [];
    const largeSync: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      smallMs.push(await h.render(small));
      smallSync.push(await h.lastSyncMs());
      largeMs.push(await h.render(large));
      largeSync.push(await h.lastSyncMs());
    }
    const oursMs = median(largeMs);
    const peerMs = median(smallMs);
    const ratio = oursMs / peerMs;
    const domRows = await h.page.locator('.wq-data-row').count();
    const result: BenchResult = {
      name: 'waterData renderer: first paint of 10,000 rows vs 100 rows (headless Chromium)',
      ratio: Math.round(ratio * 100) / 100,
      goal: '<= 3',
      met: ratio <= 3,
      detail: {
        rows10000Ms: Math.round(oursMs * 10) / 10,
        rows100Ms: Math.round(peerMs * 10) / 10,
        // The synchronous part (JSON parse, table build) without the wait for the frame.
        rows10000SyncMs: Math.round(median(largeSync) * 10) / 10,
        rows100SyncMs: Math.round(median(smallSync) * 10) / 10,
        runs: RUNS,
        domRowsAt10000: domRows,
      },
    };
    // Smoothness: the work one scroll step costs (row recycling + a forced layout), across the 10,000 rows.
    // One pass to warm up (JIT, row pool), then the measured pass.
    const steps = await h.page.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('.wq-scroll')!;
      const times: number[] = [];
      for (let pass = 0; pass < 2; pass++) {
        for (let top = 0; top < scroller.scrollHeight - scroller.clientHeight; top += 997) {
          const t0 = performance.now();
          scroller.scrollTop = top;
          scroller.dispatchEvent(new Event('scroll'));
          void document.body.offsetHeight;
          if (pass === 1) times.push(performance.now() - t0);
        }
      }
      return times.sort((a, b) => a - b);
    });
    const p95 = steps[Math.floor(steps.length * 0.95)];
    const med = steps[Math.floor(steps.length / 2)];
    const FRAME_MS = 1000 / 60;
    // Each step jumps ~40 rows, so every visible row is refilled: the worst case of a scrollbar drag.
    const scroll: BenchResult = {
      name: 'waterData renderer: scroll step through 10,000 rows (median) vs a 60 Hz frame',
      ratio: Math.round((med / FRAME_MS) * 100) / 100,
      goal: '<= 1',
      met: med <= FRAME_MS,
      detail: {
        medianMs: Math.round(med * 100) / 100,
        p95Ms: Math.round(p95 * 100) / 100,
        steps: steps.length,
        frameMs: Math.round(FRAME_MS * 10) / 10,
      },
    };
    return [result, scroll];
  } finally {
    await h.close();
  }
};

export default suite;

if (require.main === module) {
  suite().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
