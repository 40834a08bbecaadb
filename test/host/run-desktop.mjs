// `npm run test:desktop`: the same host suites under @vscode/test-electron, wherever a desktop VS Code
// exists. Offline machines have none (it cannot be downloaded here), so point VSCODE_EXECUTABLE at an
// installed `code` binary, or let test-electron download one where the network allows it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildHostTests } from './build.mjs';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);
execFileSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
await buildHostTests();
const workspace = mkdtempSync(join(tmpdir(), 'apiwb-ws-'));
cpSync(join(root, 'samples'), workspace, { recursive: true });
try {
  await runTests({
    version: process.env.VSCODE_VERSION || '1.100.3',
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out', 'host', 'index.js'),
    // A short user-data dir keeps the IPC socket path under the 104-character limit.
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      `--user-data-dir=${mkdtempSync(join(tmpdir(), 'vsc-'))}`,
    ],
  });
} catch (err) {
  console.error(`[desktop] ${err instanceof Error ? err.message : err}`);
  console.error(
    '[desktop] Needs a desktop VS Code: set VSCODE_EXECUTABLE=/path/to/code, or run where @vscode/test-electron can download one.',
  );
  process.exit(1);
}
