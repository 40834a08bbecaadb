// `npm start`: install what is missing, build, start VS Code (code-server) with the extension on the
// samples workspace, and print the URL. `api-workbench sandbox` is started over the extension's own sandbox
// data directory (its global storage), so the extension finds it running and uses it: the files the user
// sees in VS Code and the ones `curl` with the printed token sees are the same, and they survive restarts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
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

// Where VS Code keeps the extension's global storage (publisher.name) in this profile; SANDBOX_DATA overrides.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const sandboxData =
  process.env.SANDBOX_DATA ??
  join(profileDir, 'user-data', 'User', 'globalStorage', `${pkg.publisher}.${pkg.name}`.toLowerCase(), 'sandbox');
const sandboxArgs = ['dist/cli.js', 'sandbox', '--data', sandboxData];
if (process.env.SANDBOX_PORT) sandboxArgs.push('--port', process.env.SANDBOX_PORT);
const sandbox = spawn(process.execPath, sandboxArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
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
  Data:     ${sandboxData}

The extension uses this same sandbox (same files, key and token); its state is kept in the data directory
across restarts. Reset it with "API Workbench: Reset Sandbox Data" once this sandbox is stopped, or delete the directory.
Press Ctrl+C to stop.`);
const stop = async () => {
  sandbox.kill('SIGINT');
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
