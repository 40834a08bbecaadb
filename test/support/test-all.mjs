// `npm test`: installs what is missing, then runs every tier — unit (plain mocha), host (mocha inside
// VS Code's extension host) and UI smoke (screenshots of the four surfaces). Uses only Node built-ins at
// the top so it can run before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);

function run(label, cmd, args, opts = {}) {
  const t0 = Date.now();
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' }, ...opts });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`=== ${label}: ${r.status === 0 ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${secs} s ===`);
  return r.status === 0;
}

function depsMissing() {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return true;
  return statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000;
}

if (depsMissing()) {
  if (!run('install npm dependencies', 'npm', ['ci', '--no-audit', '--no-fund'])) process.exit(1);
}

const only = process.argv.slice(2);
const tiers = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']],
  ['unit tests', 'npx', ['mocha']],
  ['host tests (VS Code 1.100.3 extension host)', process.execPath, ['test/host/run-code-server.mjs']],
  ['UI smoke tests (screenshots in test-results/ui)', process.execPath, ['test/ui/run-ui.mjs']],
  ['renderer UI tests in Chromium (screenshots in test-results/renderer)', process.execPath, ['--import', 'tsx', 'test/ui/renderer/run.ts']],
  ['package (.vsix installs into code-server and activates)', process.execPath, ['test/host/run-package.mjs']],
].filter(([label]) => only.length === 0 || only.some((o) => label.startsWith(o)));

const failed = [];
for (const [label, cmd, args] of tiers) if (!run(label, cmd, args)) failed.push(label);
console.log(failed.length ? `\nnpm test: FAILED: ${failed.join('; ')}` : '\nnpm test: all tiers passed');
process.exit(failed.length ? 1 : 0);
