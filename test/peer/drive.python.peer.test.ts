// Peer tier, Python part: google-api-python-client built from the sandbox's own discovery document
// (build_from_document), in a virtual environment this test creates under the user cache directory.
// Runs where python3 is present; without it (or when the package cannot be installed) it skips saying why.
import * as assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

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
