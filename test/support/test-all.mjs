// `npm test`: installs what is missing, then runs every tier — lint (eslint, prettier --check, knip),
// typecheck, unit (plain mocha), fuzz, peer (official client libraries against a fresh sandbox), host
// (mocha inside VS Code's extension host), UI smoke and the package. Any failing tier fails the run. Uses only Node built-ins at
// the top so it can run before `npm ci`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);

const totals = { passed: 0, failed: 0 };

/** Counts what each tier reports: mocha's `N passing`/`N failing`, or our runners' `tier: N passed, N failed`. */
function count(line) {
  let m = /^\s*(\d+) passing\b/.exec(line);
  if (m) return (totals.passed += Number(m[1]));
  m = /^\s*(\d+) failing\b/.exec(line);
  if (m) return (totals.failed += Number(m[1]));
  m = /^(?:ui|package|renderer ui|grid ui): (\d+) passed, (\d+) failed/.exec(line);
  if (m) {
    totals.passed += Number(m[1]);
    totals.failed += Number(m[2]);
  }
}

function runSync(label, cmd, args) {
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  return r.status === 0;
}

async function run(label, cmd, args) {
  const t0 = Date.now();
  console.log(`\n=== ${label} ===`);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } });
  let partial = '';
  child.stdout.on('data', (d) => {
    process.stdout.write(d);
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    lines.forEach(count);
  });
  const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(c ?? sig)));
  if (partial) count(partial);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`=== ${label}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${secs} s ===`);
  return code === 0;
}

function depsMissing() {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return true;
  return statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000;
}

if (depsMissing()) {
  if (!runSync('install npm dependencies', 'npm', ['ci', '--no-audit', '--no-fund'])) process.exit(1);
}

const only = process.argv.slice(2);
const tiers = [
  ['lint (eslint, prettier --check, knip)', 'npm', ['run', '--silent', 'lint']],
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']],
  ['unit tests', 'npx', ['mocha']],
  // Bounded fuzzing of every parser of outside input (fixed seeds, ~40 s); FUZZ_SECONDS/FUZZ_ITERATIONS run longer.
  ['fuzz tests', 'npx', ['mocha', '--config', 'test/fuzz/.mocharc.json']],
  ['peer tests (official clients against the sandbox)', 'npx', ['mocha', '--config', 'test/peer/.mocharc.json']],
  ['host tests (VS Code 1.100.3 extension host)', process.execPath, ['test/host/run-code-server.mjs']],
  ['UI smoke tests (screenshots in test-results/ui)', process.execPath, ['test/ui/run-ui.mjs']],
  [
    'renderer UI tests in Chromium (screenshots in test-results/renderer)',
    process.execPath,
    ['--import', 'tsx', 'test/ui/renderer/run.ts'],
  ],
  [
    'results grid UI tests in Chromium (screenshots in test-results/evalGrid)',
    process.execPath,
    ['--import', 'tsx', 'test/ui/evalGrid/run.ts'],
  ],
  ['package (.vsix installs into code-server and activates)', process.execPath, ['test/host/run-package.mjs']],
].filter(([label]) => only.length === 0 || only.some((o) => label.startsWith(o)));

const failed = [];
for (const [label, cmd, args] of tiers) if (!(await run(label, cmd, args))) failed.push(label);
console.log(failed.length ? `\nnpm test: FAILED: ${failed.join('; ')}` : '\nnpm test: all tiers passed');
// The plain closing line CI reads; a failed tier that printed no count still counts as one failure.
console.log(`total: ${totals.passed} passed, ${Math.max(totals.failed, failed.length)} failed`);
process.exit(failed.length ? 1 : 0);
