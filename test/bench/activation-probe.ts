// Runs inside the extension host (as extensionTestsPath): activates the empty peer extension and ours,
// in alternating order (ours loads only its entry, as for a plain JSON file), then loads
// all four features the way their first use does. Reports the times and the bytes of our code loaded.
import * as fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Bytes of our bundles in this host's module cache (CommonJS: everything we loaded is there). */
function ourBytes(root: string): { bytes: number; bundles: string[] } {
  const bundles = Object.keys(require.cache).filter((k) => k.startsWith(path.join(root, 'dist') + path.sep));
  return {
    bytes: bundles.reduce((sum, k) => sum + fs.statSync(k).size, 0),
    bundles: bundles.map((k) => path.relative(root, k)),
  };
}

export async function run(): Promise<void> {
  const report = process.env.API_WORKBENCH_TEST_REPORT!;
  try {
    await measure(report);
  } catch (err) {
    // The bench prints this line: without it a failed probe only shows as "wrote no report".
    fs.appendFileSync(report, `PROBE-ERROR ${(err as Error)?.message ?? String(err)}\n`);
    throw err;
  }
}

/**
 * Waits until this host has nothing else to run: the tests start while the host is still starting its
 * built-in extensions, and whichever activation ran into that work would be charged for it (the empty
 * extension's activation took anywhere from 5 to 280 ms). Idle: twenty 10 ms timers in a row each fire
 * within 4 ms of when they were due; gives up after 20 s and says so in the report.
 */
async function hostIdle(): Promise<{ idle: boolean; waitedMs: number }> {
  const t0 = performance.now();
  let quiet = 0;
  while (quiet < 20) {
    if (performance.now() - t0 > 20_000) return { idle: false, waitedMs: performance.now() - t0 };
    const due = performance.now() + 10;
    await new Promise((r) => setTimeout(r, 10));
    quiet = performance.now() - due < 4 ? quiet + 1 : 0;
  }
  return { idle: true, waitedMs: performance.now() - t0 };
}

async function measure(report: string): Promise<void> {
  const ours = vscode.extensions.getExtension('api-workbench.api-workbench');
  const empty = vscode.extensions.getExtension('bench.empty-peer');
  if (!ours || !empty) throw new Error(`extensions not found: ours=${!!ours} empty=${!!empty}`);
  if (ours.isActive || empty.isActive)
    throw new Error('an extension was already active; the figure would be meaningless');
  // ext.activate() is what onLanguage:json does for a plain JSON file: the entry only (its detector's one
  // substring search over the open document is not included; opening a JSON file here would activate us
  // before the clock starts).
  const time = async (ext: vscode.Extension<unknown>) => {
    const t0 = performance.now();
    await ext.activate();
    return performance.now() - t0;
  };
  const idle = await hostIdle();
  const order = process.env.BENCH_ORDER === 'ours-first' ? [ours, empty] : [empty, ours];
  const times = new Map<vscode.Extension<unknown>, number>();
  for (const ext of order) times.set(ext, await time(ext));
  const plain = ourBytes(ours.extensionPath);
  // BENCH_PROFILE=<file>: a CPU profile of this extension host while the features load, to see where the time goes.
  const profile = process.env.BENCH_PROFILE;
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  // CPU time as well as wall time: on a loaded machine the wall time also counts the time this thread waited
  // for a core (the CPU time counts every thread of the host, which here is mostly this one).
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const perFeature = await vscode.commands.executeCommand<unknown>('apiWorkbench._testLoadFeatures');
  const featuresMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const featuresCpuMs = (cpu.user + cpu.system) / 1000;
  const full = ourBytes(ours.extensionPath);
  // What the features start without being awaited (timers, promises, I/O) still runs on this thread: a
  // second after loading, the host should be idle again; the profile shows what ran in that second.
  const settle = performance.now();
  await new Promise((r) => setTimeout(r, 1000));
  const settleLagMs = performance.now() - settle - 1000;
  if (session && profile) {
    const { profile: data } = await session.post('Profiler.stop');
    fs.writeFileSync(profile, JSON.stringify(data));
    session.disconnect();
  }
  fs.appendFileSync(
    report,
    `ACTIVATION ${JSON.stringify({
      oursMs: times.get(ours),
      emptyMs: times.get(empty),
      featuresMs,
      featuresCpuMs,
      plainBytes: plain.bytes,
      plainBundles: plain.bundles,
      fullBytes: full.bytes,
      fullBundles: full.bundles,
      perFeature,
      settleLagMs,
      idleWaitMs: idle.waitedMs,
      idle: idle.idle,
    })}\n`,
  );
}
