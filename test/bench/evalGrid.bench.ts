// The evaluation results grid in headless Chromium (the real webview bundle, test/ui/evalGrid/harness.ts):
//  1. first paint of a run of 10,000 cells (2,500 items × 4 models) ÷ the same of 100 cells (25 × 4), from the
//     host's init message to the frame after it (goal ≤ 3: only the visible rows are built);
//  2. scrolling through all 2,500 rows (wheel steps and scrollbar jumps), traced: the longest task of the page's
//     main thread in CPU time ÷ 50 ms, the long-task threshold (goal < 1, no task over it); the wall-clock long
//     tasks and frames are reported beside it (the machine's load stretches them).
// Run alone: BENCH=evalGrid npm run bench
import { loadavg } from 'node:os';
import { gridRun } from '../ui/evalGrid/data';
import { startGridHarness } from '../ui/evalGrid/harness';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';

const RUNS = SMOKE ? 1 : 7;
const VARIANTS = ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro', 'gemma-3-27b-it'];
const LONG_TASK_MS = 50;

/** A Chrome trace event (the fields read here); durations in microseconds, `tdur` the thread (CPU) time. */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur: number;
  tdur?: number;
  args?: { name?: string };
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (n: number) => Math.round(n * 100) / 100;

const suite: BenchSuite = async () => {
  const h = await startGridHarness();
  try {
    const small = gridRun(25, VARIANTS);
    const large = gridRun(2500, VARIANTS);
    await h.paint(small);
    await h.paint(large);
    const smallMs: number[] = [];
    const largeMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      smallMs.push(await h.paint(small));
      largeMs.push(await h.paint(large));
    }
    const domRows = await h.page.locator('.grid-body .row').count();
    const ratio = median(largeMs) / median(smallMs);
    const paint: BenchResult = {
      name: 'eval grid: first paint of 10,000 cells vs 100 cells (headless Chromium)',
      ratio: round(ratio),
      goal: '<= 3',
      met: ratio <= 3,
      detail: {
        cells10000Ms: round(median(largeMs)),
        cells100Ms: round(median(smallMs)),
        runs: RUNS,
        domRowsAt10000: domRows,
      },
    };

    // Scroll the 10,000-cell grid end to end: wheel steps as a user scrolls, then scrollbar jumps, traced. Each task
    // of the page's main thread has its wall time and its thread (CPU) time in the trace: on a shared machine other
    // processes stretch wall time (a load of 8 on 2 cores is common here), so a long task is judged by CPU time,
    // and the wall-clock long tasks the browser's observer saw are reported beside it.
    await h.page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __longTasks: number[] };
      w.__frames.length = 0;
      w.__longTasks.length = 0;
    });
    const cdp = await h.page.context().newCDPSession(h.page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
    const complete = new Promise<void>((ok) => cdp.once('Tracing.tracingComplete', () => ok()));
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: ['toplevel', 'disabled-by-default-devtools.timeline'] },
      transferMode: 'ReportEvents',
    });
    const box = (await h.page.locator('.grid-scroll').boundingBox())!;
    await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const height = await h.page.evaluate(() => document.querySelector('.grid-scroll')!.scrollHeight);
    const wheelSteps = SMOKE ? 20 : Math.ceil(height / 1200);
    for (let i = 0; i < wheelSteps; i++) {
      await h.page.mouse.wheel(0, 1200);
      await h.page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(undefined))));
    }
    const jumps = SMOKE ? 10 : 120;
    await h.page.evaluate(async (n) => {
      const s = document.querySelector<HTMLElement>('.grid-scroll')!;
      for (let i = 0; i < n; i++) {
        s.scrollTop = ((i * 7919) % n) * ((s.scrollHeight - s.clientHeight) / n);
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      }
    }, jumps);
    await cdp.send('Tracing.end');
    await complete;
    const { frames, longTasks } = await h.page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __longTasks: number[] };
      return { frames: w.__frames.slice(), longTasks: w.__longTasks.slice() };
    });
    if (h.errors.length) throw new Error(h.errors.join('; '));
    const main = new Set(
      events
        .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
        .map((e) => `${e.pid}:${e.tid}`),
    );
    const tasks = events.filter(
      (e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`) && typeof e.tdur === 'number',
    );
    if (!tasks.length) throw new Error("the trace holds no task of the page's main thread");
    const cpu = tasks.map((t) => t.tdur! / 1000).sort((a, b) => a - b);
    const worstCpu = cpu[cpu.length - 1];
    const cpuLong = cpu.filter((t) => t > LONG_TASK_MS).length;
    const sorted = frames.slice().sort((a, b) => a - b);
    const scroll: BenchResult = {
      name: 'eval grid: scroll through 10,000 cells, longest task (CPU) vs a 50 ms long task',
      ratio: round(worstCpu / LONG_TASK_MS),
      goal: '< 1, 0 long tasks',
      met: worstCpu < LONG_TASK_MS && cpuLong === 0,
      detail: {
        longestTaskCpuMs: round(worstCpu),
        p99TaskCpuMs: round(cpu[Math.floor(cpu.length * 0.99)]),
        tasks: cpu.length,
        longTasksCpu: cpuLong,
        longestTaskWallMs: round(Math.max(...tasks.map((t) => t.dur / 1000))),
        // Wall clock, as the page's PerformanceObserver saw them (stretched by the machine's load):
        longTasksWall: longTasks.length,
        longestFrameWallMs: round(sorted[sorted.length - 1] ?? 0),
        p95FrameWallMs: round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
        wheelSteps,
        jumps,
        loadAverage1m: round(loadavg()[0]),
      },
    };
    return [paint, scroll];
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
