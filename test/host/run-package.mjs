// Packaging check: `npm run package` → a .vsix under 5 MB that installs into code-server with
// --install-extension and activates there.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync, writeFileSync, readFileSync } from 'node:fs';
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
// Every webview and renderer bundle, with its stylesheet, must ship: a missing one is a blank view.
const shipped = new Set(execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { encoding: 'utf8' }).split('\n').map((l) => l.trim()));
for (const file of ['dist/webview/generation.js', 'dist/webview/discoveryPreview.js', 'dist/renderer/waterData.js', 'media/generation/panel.css', 'media/discovery/preview.css']) {
  if (shipped.has(file)) continue;
  console.log(`  ✘ the package lacks ${file}`);
  failures++;
}
const work = mkdtempSync(join(tmpdir(), 'apiwb-pkg-'));
const extDir = join(work, 'extensions');
mkdirSync(extDir);
installExtension(vsix, extDir);
const probe = join(work, 'probe');
mkdirSync(probe);
writeFileSync(join(probe, 'package.json'), JSON.stringify({ name: 'package-probe', publisher: 'test', version: '0.0.1', engines: { vscode: '^1.100.0' } }));
await esbuild.build({ entryPoints: ['test/host/package-probe.ts'], outfile: join(probe, 'probe.js'), bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'warning' });
const folder = join(work, 'ws');
mkdirSync(folder);
let ok = false;
const code = await runHostTests({
  extensionPath: probe,
  testsModule: join(probe, 'probe.js'),
  folder,
  extensionsDir: extDir,
  timeoutMs: 180_000,
  onLine: (l) => { if (l.startsWith('PACKAGE-OK')) ok = true; },
});
if (code !== 0 || !ok) {
  console.log('  ✘ the installed package did not activate');
  failures++;
} else {
  console.log('  ✔ installs into code-server and activates');
}
console.log(`package: ${failures ? 0 : 2} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
