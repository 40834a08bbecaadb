// `npm run test:host`: the host tier inside VS Code 1.100.3 (code-server) in headless Chromium.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureCodeServer, VSCODE_VERSION } from '../support/codeServer.mjs';
import { runHostTests } from '../support/hostRunner.mjs';
import { buildHostTests } from './build.mjs';
import { handleStepLine } from './browserSteps.mjs';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);
ensureCodeServer();
execFileSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
await buildHostTests();

// Tests write into the workspace, so they get a fresh copy of the samples.
const workspace = mkdtempSync(join(tmpdir(), 'apiwb-ws-'));
cpSync(join(root, 'samples'), workspace, { recursive: true });
console.log(`[host] running host tests in VS Code ${VSCODE_VERSION} (code-server), workspace ${workspace}`);
// Some tests need a user in the browser (sign-in consent): they hand steps over through the report file.
let page;
const steps = [];
const code = await runHostTests({
  onPage: (p) => {
    page = p;
  },
  onLine: (line, reportFile) => {
    const step = handleStepLine(line, reportFile, () => page);
    if (step) steps.push(step);
  },
  extensionPath: root,
  testsModule: join(root, 'out', 'host', 'index.js'),
  folder: workspace,
  env: process.env.API_WORKBENCH_TEST_GREP ? { API_WORKBENCH_TEST_GREP: process.env.API_WORKBENCH_TEST_GREP } : {},
});
await Promise.allSettled(steps);
rmSync(workspace, { recursive: true, force: true });
console.log(`[host] exit code ${code}`);
process.exit(code);
