// `npm run bench`: runs every test/bench/<feature>.bench.ts (through tsx) and prints each figure as a
// ratio against a peer or a limit measured in the same run. Set BENCH=<feature> to run one suite.
// `--smoke` (for CI): every suite runs once on small inputs (BENCH_SMOKE=1; suites that read it shrink
// their work, see test/bench/smoke.ts); only a suite that fails to run fails the command, since a
// single short iteration says nothing about the goals.
import { readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);
const only = process.env.BENCH;
const smoke = process.argv.includes('--smoke');
const files = readdirSync('test/bench').filter((f) => f.endsWith('.bench.ts') && (!only || f.startsWith(only)));
const all = [];
for (const f of files) {
  // One process per suite so one suite's heap and JIT state do not colour another's figures.
  const env = smoke ? { ...process.env, BENCH_SMOKE: '1' } : process.env;
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', 'test/bench/one.mjs', join('test/bench', f)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024, env },
  );
  const line = r.stdout.split('\n').find((l) => l.startsWith('BENCH-RESULTS '));
  if (r.status !== 0 || !line) {
    console.log(`${f}: FAILED (exit ${r.status})`);
    all.push({ name: f, ratio: NaN, goal: 'runs', met: false, detail: {} });
    continue;
  }
  all.push(...JSON.parse(line.slice('BENCH-RESULTS '.length)));
}
const pad = (s, n) => String(s).padEnd(n);
console.log(`\n${pad('benchmark', 78)} ${pad('ratio', 8)} ${pad('goal', 10)} met   detail`);
for (const r of all) {
  console.log(
    `${pad(r.name, 78)} ${pad(Number.isFinite(r.ratio) ? r.ratio.toFixed(3) : 'n/a', 8)} ${pad(r.goal, 10)} ${r.met ? 'yes ' : 'NO  '}  ${Object.entries(
      r.detail,
    )
      .map(([k, v]) => `${k}=${typeof v === 'number' ? +v.toFixed(2) : v}`)
      .join(' ')}`,
  );
}
mkdirSync('test-results', { recursive: true });
writeFileSync('test-results/bench.json', JSON.stringify(all, null, 2));
console.log(
  `\n${all.filter((r) => r.met).length} of ${all.length} goals met (test-results/bench.json)${smoke ? ' [smoke: one short iteration, figures are not meaningful]' : ''}`,
);
if (smoke && all.some((r) => r.goal === 'runs')) process.exit(1);
