// Packaging check: `npm run package` → a .vsix under 5 MB that installs into code-server with
// --install-extension and activates there; holds no test seam (no `_test` command id, no test-only
// code in any bundle, none contributed); and, running in production mode, exports nothing and runs
// none of the `_test*` commands the development build registers.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { ensureCodeServer, installExtension } from '../support/codeServer.mjs';
import { runHostTests } from '../support/hostRunner.mjs';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);
ensureCodeServer();
execFileSync('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
const vsix = join(root, 'dist', 'api-workbench.vsix');
const size = statSync(vsix).size;
const LIMIT = 5 * 1024 * 1024;
console.log(`package: ${vsix} is ${(size / 1024).toFixed(0)} KiB (limit ${LIMIT / 1024} KiB)`);
let failures = 0;
if (size >= LIMIT) {
  console.log('  ✘ the package is too big');
  failures++;
}
// Every webview and renderer bundle, with its stylesheet, must ship: a missing one is a blank view; and the
// strings of the manifest and the walkthrough's pages.
const shipped = new Set(
  execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim()),
);
for (const file of [
  'dist/webview/generation.js',
  'dist/webview/discoveryPreview.js',
  'dist/renderer/waterData.js',
  'media/generation/panel.css',
  'media/discovery/preview.css',
  // Every contributed title is a %key% resolved from here: without it the UI shows the keys.
  'package.nls.json',
  'media/walkthrough/sandbox.md',
]) {
  if (shipped.has(file)) continue;
  console.log(`  ✘ the package lacks ${file}`);
  failures++;
}
// The entry is what every JSON file pays for: it must stay a loader of stubs and shells (ARCHITECTURE.md,
// "Bundle layout and what loads when"). A feature's code creeping into it shows here as a size jump.
const ENTRY_LIMIT = 60 * 1024;
const entrySize = statSync(join(root, 'dist', 'extension.js')).size;
console.log(`package: entry bundle dist/extension.js is ${(entrySize / 1024).toFixed(1)} KiB (limit 60 KiB)`);
if (entrySize > ENTRY_LIMIT) {
  console.log('  ✘ the entry bundle is too big: a feature or the sandbox is being bundled into it');
  failures++;
}
// The bundles the entry loads on first use must ship, or that feature fails when first used.
for (const file of ['discovery', 'storage', 'generation', 'waterData'].map((f) => `dist/features/${f}.js`)) {
  if (shipped.has(file)) continue;
  console.log(`  ✘ the package lacks ${file}`);
  failures++;
}
// The sandbox, and node-fetch, which the feature bundles share and load with their first request; the CLI's
// entry and the command bundles it requires (one per command, loaded when that command runs).
const cliCommands = [
  ...readFileSync(join(root, 'dist', 'cli.js'), 'utf8').matchAll(/require\("\.\/(cli\/\w+\.js)"\)/g),
];
if (cliCommands.length < 8) {
  console.log(`  ✘ dist/cli.js requires ${cliCommands.length} command bundles, not one per command`);
  failures++;
}
for (const file of [
  'dist/sandbox.js',
  'dist/vendor/nodeFetch.js',
  'dist/cli.js',
  ...cliCommands.map((m) => `dist/${m[1]}`),
]) {
  if (shipped.has(file)) continue;
  console.log(`  ✘ the package lacks ${file}`);
  failures++;
}
const work = mkdtempSync(join(tmpdir(), 'apiwb-pkg-'));

// Every `_test*` command id the sources register (the development build has them; the package must not).
const testIds = new Set();
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(dir, e.name));
    else if (e.name.endsWith('.ts'))
      for (const m of readFileSync(join(dir, e.name), 'utf8').matchAll(/'(apiWorkbench\.[\w.]*_test\w*)'/g))
        testIds.add(m[1]);
  }
};
walk(join(root, 'src'));
if (testIds.size === 0) {
  console.log('  ✘ found no _test command ids in src/: the seam scan is broken');
  failures++;
}

// The bundles inside the .vsix: no test seam may survive the production build.
const unpacked = join(work, 'vsix');
mkdirSync(unpacked);
execFileSync('unzip', ['-q', vsix, '-d', unpacked]);
const TEST_MARKERS = [/_test[A-Z]\w*/g, /__TEST_SEAMS__/g, /ExtensionMode\.Test/g];
// Names of our dependencies' own that merely look like a seam: the `ignore` package (folder sync) caches under `_testCache`.
const NOT_SEAMS = new Set(['_testCache']);
const bundles = [];
const scan = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) scan(p);
    else if (/\.(c?js|mjs)$/.test(e.name) && !p.includes('node_modules')) bundles.push(p);
  }
};
scan(join(unpacked, 'extension'));
const seamHits = [];
for (const b of bundles) {
  const text = readFileSync(b, 'utf8');
  for (const re of TEST_MARKERS) {
    const m = [...text.matchAll(re)].find((x) => !NOT_SEAMS.has(x[0]));
    if (m) seamHits.push(`${b.slice(unpacked.length + 1)}: ${m[0]}`);
  }
}
const manifest = readFileSync(join(unpacked, 'extension', 'package.json'), 'utf8');
if (/_test/.test(manifest)) seamHits.push('extension/package.json contributes a _test id');
if (bundles.length === 0 || !bundles.some((b) => b.endsWith('extension.js'))) {
  console.log(`  ✘ no extension bundle found in the .vsix (${bundles.length} scripts)`);
  failures++;
} else if (seamHits.length) {
  console.log(`  ✘ test seams in the production package:\n    ${seamHits.join('\n    ')}`);
  failures++;
} else {
  console.log(`  ✔ no test seam in the ${bundles.length} bundles or the manifest of the .vsix`);
}
const extDir = join(work, 'extensions');
mkdirSync(extDir);
installExtension(vsix, extDir);
const probe = join(work, 'probe');
mkdirSync(probe);
writeFileSync(
  join(probe, 'package.json'),
  JSON.stringify({ name: 'package-probe', publisher: 'test', version: '0.0.1', engines: { vscode: '^1.100.0' } }),
);
await esbuild.build({
  entryPoints: ['test/host/package-probe.ts'],
  outfile: join(probe, 'probe.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  external: ['vscode'],
  logLevel: 'warning',
  define: { __TEST_COMMAND_IDS__: JSON.stringify([...testIds]) },
});
const folder = join(work, 'ws');
mkdirSync(folder);
let ok = false;
let sealed = false;
const code = await runHostTests({
  extensionPath: probe,
  testsModule: join(probe, 'probe.js'),
  folder,
  extensionsDir: extDir,
  timeoutMs: 180_000,
  onLine: (l) => {
    if (l.startsWith('PACKAGE-OK')) ok = true;
    if (l.startsWith('SEALED-OK')) sealed = true;
    if (l.startsWith('SEAM-OPEN')) console.log(`  ✘ ${l}`);
  },
});
if (code !== 0 || !ok) {
  console.log('  ✘ the installed package did not activate');
  failures++;
} else {
  console.log('  ✔ installs into code-server and activates');
}
if (!sealed) {
  console.log('  ✘ another extension could read our exports or run a _test command');
  failures++;
} else {
  console.log(`  ✔ another extension reads no exports and runs none of the ${testIds.size} _test commands`);
}
console.log(`package: ${4 - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
