// Extension activation time against an empty extension activated in the same VS Code host (code-server
// 1.100.3), median of several fresh hosts. Reported as a ratio to the peer and as the extra time ÷ a
// 100 ms budget, since the peer's own activation is only a few milliseconds.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import type { BenchResult, BenchSuite } from './types';

const BUDGET_MS = 100;
const RUNS = 3;

type Sample = { oursMs: number; emptyMs: number };

function isSample(v: unknown): v is Sample {
  const s = v as Partial<Record<keyof Sample, unknown>> | null;
  return typeof s === 'object' && s !== null && typeof s.oursMs === 'number' && typeof s.emptyMs === 'number';
}

const suite: BenchSuite = async () => {
  const support = await import('../support/codeServer.mjs');
  const { runHostTests } = await import('../support/hostRunner.mjs');
  support.ensureCodeServer();
  const root = resolve(__dirname, '..', '..');
  const work = mkdtempSync(join(tmpdir(), 'apiwb-bench-act-'));
  const peerDir = join(work, 'empty-peer');
  mkdirSync(peerDir);
  writeFileSync(
    join(peerDir, 'package.json'),
    JSON.stringify({
      name: 'empty-peer',
      publisher: 'bench',
      version: '0.0.1',
      license: 'MIT',
      repository: 'none',
      engines: { vscode: '^1.100.0' },
      main: './extension.js',
      activationEvents: [],
    }),
  );
  writeFileSync(join(peerDir, 'extension.js'), 'exports.activate = function () {};\n');
  writeFileSync(join(peerDir, 'LICENSE'), 'MIT');
  const vsix = join(work, 'empty-peer.vsix');
  execFileSync(
    join(root, 'node_modules', '.bin', 'vsce'),
    ['package', '--allow-missing-repository', '--skip-license', '--out', vsix],
    { cwd: peerDir, stdio: 'ignore' },
  );
  const extDir = join(work, 'extensions');
  mkdirSync(extDir);
  support.installExtension(vsix, extDir);
  await esbuild.build({
    entryPoints: [join(root, 'test/bench/activation-probe.ts')],
    outfile: join(work, 'probe.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const folder = join(work, 'ws');
  mkdirSync(folder);

  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    await runHostTests({
      extensionPath: root,
      testsModule: join(work, 'probe.js'),
      folder,
      quiet: true,
      timeoutMs: 120_000,
      env: { BENCH_ORDER: i % 2 ? 'ours-first' : 'empty-first' },
      extensionsDir: extDir,
      onLine: (line: string) => {
        if (line.startsWith('ACTIVATION ')) {
          const sample: unknown = JSON.parse(line.slice(11));
          if (!isSample(sample)) throw new Error(`malformed activation report: ${line}`);
          samples.push(sample);
        }
      },
    });
  }
  if (samples.length === 0) throw new Error('no activation sample was reported');
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const oursMs = median(samples.map((s) => s.oursMs));
  const emptyMs = median(samples.map((s) => s.emptyMs));
  const results: BenchResult[] = [
    {
      name: 'activation: ours ÷ empty extension (same host)',
      ratio: oursMs / emptyMs,
      goal: 'report',
      met: true,
      detail: { oursMs, emptyMs, runs: samples.length },
    },
    {
      name: `activation: (ours − empty) ÷ ${BUDGET_MS} ms budget`,
      ratio: (oursMs - emptyMs) / BUDGET_MS,
      goal: '<= 1',
      met: oursMs - emptyMs <= BUDGET_MS,
      detail: { extraMs: oursMs - emptyMs },
    },
  ];
  return results;
};
export default suite;
