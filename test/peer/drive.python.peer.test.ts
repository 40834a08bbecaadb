// Peer tier, Python part: google-api-python-client built from the sandbox's own discovery document
// (build_from_document), in a virtual environment this test creates under the user cache directory.
// Runs where python3 is present; without it (or when the package cannot be installed) it skips saying why.
// The second part uses the library's bundled (static) Drive v2 document with `api_endpoint`, against
// `api-workbench sandbox --tls`: that document's uploads keep https, which the sandbox then serves.
import * as assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { runScript } from './runScript';

const VENV = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'api-workbench', 'peer-venv');
const PYTHON = path.join(VENV, 'bin', 'python');

/** A venv with google-api-python-client, or the reason there is none. */
function pythonClient(): string | { skip: string } {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) return { skip: 'python3 is not installed' };
  if (!fs.existsSync(PYTHON)) {
    const venv = spawnSync('python3', ['-m', 'venv', VENV], { encoding: 'utf8' });
    if (venv.status !== 0) return { skip: `python3 -m venv failed: ${venv.stderr.trim()}` };
  }
  const have = spawnSync(PYTHON, ['-c', 'import googleapiclient, google.oauth2.credentials'], { encoding: 'utf8' });
  if (have.status === 0) return PYTHON;
  const pip = spawnSync(
    PYTHON,
    ['-m', 'pip', 'install', '--retries', '0', '--disable-pip-version-check', '-q', 'google-api-python-client'],
    { encoding: 'utf8', timeout: 180_000 },
  );
  if (pip.status !== 0)
    return {
      skip: `google-api-python-client could not be installed: ${(pip.stderr || pip.stdout).trim().split('\n').pop()}`,
    };
  return PYTHON;
}

describe('peer: google-api-python-client (Python) against the sandbox', function () {
  this.timeout(240_000);
  let sb: RunningSandbox;
  let python: string;
  before(async function () {
    const found = pythonClient();
    if (typeof found !== 'string') {
      console.log(`  skipping the Python peer check: ${found.skip}`);
      this.skip();
    }
    python = found;
    sb = await startSandbox();
  });
  after(async () => sb?.close());

  it('resumable upload in 256 KiB chunks, download, list, batch, and a reused connection', async () => {
    const script = path.join(__dirname, 'python', 'drive_peer.py');
    // Asynchronous: the sandbox answering the script runs in this process.
    const { stdout } = await promisify(execFile)(python, [script, sb.url, sb.accessToken], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    assert.equal(out.about, 'drive#about');
    assert.equal(out.resumableSize, '600000');
    assert.equal(out.resumableChunks, 3);
    assert.equal(out.downloadMatches, true);
    assert.equal(out.listed, true);
    assert.deepEqual(out.batch, { mine: { ok: true, status: 200 }, missing: { ok: false, status: 404 } });
    assert.equal(out.afterPause, 'after a pause', 'a POST on a connection idle for 6 s');
  });
});

describe('peer: google-api-python-client with its static Drive v2 document against `sandbox --tls`', function () {
  this.timeout(240_000);
  let python: string;
  let child: ChildProcess | undefined;
  let dataDir: string;
  let info: { url: string; accessToken: string; caCertificate?: string };
  before(async function () {
    const found = pythonClient();
    if (typeof found !== 'string') {
      console.log(`  skipping the Python peer check: ${found.skip}`);
      this.skip();
    }
    python = found;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tls-'));
    // The real command a user runs: it makes the certificate beside the state and prints where it is.
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sandbox', '--tls', '--data', dataDir], {
      cwd: path.resolve(__dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = child;
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: exited.stdout! }).once('line', resolve);
      exited.once('exit', (c) => reject(new Error(`sandbox --tls exited ${c} before printing`)));
    });
    info = JSON.parse(line) as typeof info;
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = child;
      await new Promise((resolve) => {
        exited.once('exit', resolve);
        exited.kill('SIGINT');
      });
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves https and prints the certificate it made beside the sandbox state', () => {
    assert.match(info.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(info.caCertificate, path.join(dataDir, 'tls', 'sandbox-cert.pem'));
    assert.ok(fs.existsSync(info.caCertificate));
  });

  it("the README's snippet: api_endpoint over https, a simple and a resumable media upload, downloads", async () => {
    // Without --tls the library sends uploads to https on the sandbox's port, which then fail (issue 12).
    const r = await runScript(python, [path.join(__dirname, 'snippets', 'drive_static_python.py')], {
      SANDBOX_URL: info.url,
      SANDBOX_ACCESS_TOKEN: info.accessToken,
      HTTPLIB2_CA_CERTS: info.caCertificate!,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout) as unknown, {
      small: 'hello from Python',
      resumableSize: '600000',
      resumableMatches: true,
    });
  });
});
