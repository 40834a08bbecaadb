// Installs (once, cached outside the repo) and launches code-server 4.100.3 = VS Code 1.100.3, the
// offline stand-in for desktop VS Code. See ../shared/reference/vscode-extension-practice.md §2.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, copyFileSync, rmSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

export const CODE_SERVER_VERSION = '4.100.3';
export const VSCODE_VERSION = '1.100.3';
const cacheRoot = process.env.API_WORKBENCH_CACHE || join(homedir(), '.cache', 'api-workbench');
export const installDir = join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
const marker = join(installDir, '.complete');
export const codeServerBin = join(installDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

const DEBIAN_PACKAGES = [
  { pkg: 'chromium', check: () => existsSync('/usr/bin/chromium') },
  { pkg: 'ripgrep', check: () => existsSync('/usr/bin/rg') },
  {
    pkg: 'libkrb5-dev',
    check: () => existsSync('/usr/include/gssapi/gssapi.h') || existsSync('/usr/include/gssapi.h'),
  },
  { pkg: 'fonts-dejavu-core', check: () => existsSync('/usr/share/fonts/truetype/dejavu') },
];

function log(msg) {
  process.stderr.write(`[host] ${msg}\n`);
}

/** Installs the Debian packages the host needs; as root only, otherwise says what to install. */
export function ensureDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter((p) => !p.check()).map((p) => p.pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let r = spawnSync('apt-get', ['install', '-y', '-q', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-q'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    r = spawnSync('apt-get', ['install', '-y', '-q', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
  }
  if (r.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed (exit ${r.status})`);
}

/** @vscode/ripgrep's postinstall downloads rg from GitHub; offline we hand it Debian's rg instead. */
function prefillRipgrepCache() {
  const dir = join(tmpdir(), 'vscode-ripgrep-cache-1.15.11');
  const tarball = join(dir, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (existsSync(tarball)) return;
  mkdirSync(dir, { recursive: true });
  const staging = join(tmpdir(), `rg-staging-${process.pid}`);
  mkdirSync(staging, { recursive: true });
  copyFileSync('/usr/bin/rg', join(staging, 'rg'));
  execFileSync('tar', ['-czf', tarball, '-C', staging, 'rg']);
  rmSync(staging, { recursive: true, force: true });
}

/** Idempotent: a second call returns at once. */
export function ensureCodeServer() {
  ensureDebianPackages();
  if (existsSync(marker) && existsSync(codeServerBin)) return;
  log(`installing code-server ${CODE_SERVER_VERSION} into ${installDir} (about 3 minutes, once)`);
  prefillRipgrepCache();
  rmSync(installDir, { recursive: true, force: true });
  mkdirSync(installDir, { recursive: true });
  // npm 11 runs dependency install scripts only when package.json allows them.
  writeFileSync(
    join(installDir, 'package.json'),
    JSON.stringify(
      {
        name: 'api-workbench-test-host',
        private: true,
        dependencies: { 'code-server': CODE_SERVER_VERSION },
        allowScripts: { 'code-server': true, argon2: true },
      },
      null,
      2,
    ),
  );
  const env = {
    ...process.env,
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  const r = spawnSync('npm', ['install', '--no-save', '--loglevel=error'], {
    cwd: installDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
  });
  if (r.status !== 0 || !existsSync(codeServerBin))
    throw new Error(`code-server install failed (npm exit ${r.status}); see the output above`);
  writeFileSync(marker, new Date().toISOString());
  log('code-server installed');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server on a free loopback port with its own profile. Returns { url, port, stop, output }.
 * `settings` go to the profile's User/settings.json (workspace trust off, so the folder is not restricted).
 */
export async function startCodeServer({ folder, profileDir, settings = {}, env = {}, extensionsDir }) {
  const port = await freePort();
  const userDataDir = join(profileDir, 'user-data');
  const extDir = extensionsDir ?? join(profileDir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extDir, { recursive: true });
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'security.workspace.trust.enabled': false,
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        // VS Code's own default; code-server's is afterDelay, which saves an edited file a second later: a test
        // that edits a document would also be testing a save it did not ask for.
        'files.autoSave': 'off',
        ...settings,
      },
      null,
      2,
    ),
  );
  const configFile = join(profileDir, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const args = [
    codeServerBin,
    '--config',
    configFile,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    folder,
  ];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (d) => {
    output += d.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not yet listening */
    }
    if (Date.now() > deadline) throw new Error(`code-server did not start within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

export function installExtension(vsix, extensionsDir) {
  const r = spawnSync(
    process.execPath,
    [codeServerBin, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`--install-extension failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

export function readJsonSafe(p) {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return undefined;
  }
}
