// Runs inside the extension host (as extensionTestsPath): activates the empty peer extension and ours,
// in alternating order, and reports both times through the report file.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const report = process.env.API_WORKBENCH_TEST_REPORT!;
  const ours = vscode.extensions.getExtension('api-workbench.api-workbench');
  const empty = vscode.extensions.getExtension('bench.empty-peer');
  if (!ours || !empty) throw new Error(`extensions not found: ours=${!!ours} empty=${!!empty}`);
  if (ours.isActive || empty.isActive)
    throw new Error('an extension was already active; the figure would be meaningless');
  const time = async (ext: vscode.Extension<unknown>) => {
    const t0 = performance.now();
    await ext.activate();
    return performance.now() - t0;
  };
  const order = process.env.BENCH_ORDER === 'ours-first' ? [ours, empty] : [empty, ours];
  const times = new Map<vscode.Extension<unknown>, number>();
  for (const ext of order) times.set(ext, await time(ext));
  fs.appendFileSync(report, `ACTIVATION ${JSON.stringify({ oursMs: times.get(ours), emptyMs: times.get(empty) })}\n`);
}
