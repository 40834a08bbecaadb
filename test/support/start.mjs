// `npm start`: install what is missing, build, start VS Code (code-server) with the extension on the
// samples workspace, and print the URL. The extension starts its sandbox in-process on first use;
// `api-workbench sandbox` is started too so the endpoints can be tried with curl.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, cpSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..', '..');
process.chdir(root);
if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const { ensureCodeServer, startCodeServer } = await import('./codeServer.mjs');
ensureCodeServer();
const b = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
if (b.status !== 0) process.exit(b.status ?? 1);

const profileDir = join(homedir(), '.cache', 'api-workbench', 'start-profile');
const workspace = join(profileDir, 'workspace');
if (!existsSync(workspace)) {
  mkdirSync(workspace, { recursive: true });
  cpSync(join(root, 'samples'), workspace, { recursive: true });
}

const sandbox = spawn(process.execPath, ['dist/cli.js', 'sandbox', '--port', process.env.SANDBOX_PORT ?? '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const sandboxInfo = await new Promise((resolveInfo) => {
  createInterface({ input: sandbox.stdout }).once('line', (l) => resolveInfo(JSON.parse(l)));
});

const server = await startCodeServer({
  folder: workspace,
  profileDir,
  settings: { 'workbench.colorTheme': 'Default Dark Modern' },
});
const payload = encodeURIComponent(
  JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${root}`]]),
);
const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${payload}`;
console.log(`
API Workbench is running in VS Code (code-server ${server.port}).

  Open:     ${url}
  Sandbox:  ${sandboxInfo.url}  (storage ${sandboxInfo.storage}/store/v2, generation ${sandboxInfo.generation}/v1beta,
            water data ${sandboxInfo.waterData}, directory ${sandboxInfo.directory})
  Key:      ${sandboxInfo.apiKey}   Token: ${sandboxInfo.accessToken}

The extension also starts its own in-process sandbox, so nothing needs configuring.
Press Ctrl+C to stop.`);
const stop = async () => {
  sandbox.kill('SIGINT');
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
