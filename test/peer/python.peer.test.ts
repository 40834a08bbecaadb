// The official Python client (google-genai) against a fresh sandbox, from a virtual environment this tier
// creates under ~/.cache/api-workbench/peer-venv. Without python3, or when the package cannot be installed,
// this part says so and is skipped; every other peer test still runs.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { runScript } from './runScript';

const VENV = join(homedir(), '.cache', 'api-workbench', 'peer-venv');
const PYTHON = join(VENV, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
/** The client version these tests were written against (pinned so a run is repeatable). */
const PACKAGE = 'google-genai==2.25.0';

/** Why the Python part cannot run here, or undefined when the venv is ready. */
function prepareVenv(): string | undefined {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return 'python3 is not installed';
  const ready = () =>
    existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import google.genai'], { encoding: 'utf8' }).status === 0;
  if (ready()) return undefined;
  if (!existsSync(PYTHON)) {
    const venv = spawnSync('python3', ['-m', 'venv', VENV], { encoding: 'utf8' });
    if (venv.status !== 0) return `python3 -m venv failed: ${venv.stderr.trim().split('\n').pop() ?? ''}`;
  }
  const pip = spawnSync(PYTHON, ['-m', 'pip', 'install', '--retries', '0', '--quiet', PACKAGE], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (pip.status !== 0) return `pip could not install ${PACKAGE}: ${pip.stderr.trim().split('\n').pop() ?? ''}`;
  return ready() ? undefined : `${PACKAGE} installed but google.genai does not import`;
}

describe('peer: google-genai (Python) against the sandbox', function () {
  let sandbox: RunningSandbox | undefined;
  let unavailable: string | undefined;
  before(async function () {
    unavailable = prepareVenv();
    if (unavailable) {
      console.log(`    Python peer tests skipped: ${unavailable}.`);
      this.skip();
    }
    sandbox = await startSandbox();
  });
  after(async () => sandbox?.close());

  it("the README's Python snippet: stream, unary and a function call with its required argument", async () => {
    const r = await runScript(PYTHON, [resolve(__dirname, 'snippets/genai_python.py')], {
      SANDBOX_URL: sandbox!.url,
      SANDBOX_API_KEY: sandbox!.apiKey,
    });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(
      r.stdout,
      /\*\*Sandbox reply\*\* — you wrote 3 words[\s\S]*> Hello from Python/,
      'the stream arrived whole',
    );
    assert.ok(lines.includes('**Sandbox reply** — you wrote 2 words (11 characters).'), r.stdout);
    assert.equal(lines.filter(Boolean).pop(), '[{"name": "get_weather", "args": {"city": "Oslo"}}]');
  });

  it('snake_case requests as the Python client sends them get the same answers as camelCase', async () => {
    const script = [
      'import os, json',
      'from google import genai',
      'from google.genai import types',
      'c = genai.Client(api_key=os.environ["SANDBOX_API_KEY"], http_options=types.HttpOptions(base_url=os.environ["SANDBOX_URL"]))',
      'f = c.files.upload(file=__import__("io").BytesIO(b"hello"), config=types.UploadFileConfig(mime_type="text/plain", display_name="a.txt"))',
      'import time',
      'while c.files.get(name=f.name).state.name == "PROCESSING": time.sleep(0.1)',
      'r = c.models.generate_content(model="gemini-2.5-flash", contents=[types.Part.from_uri(file_uri=f.uri, mime_type="text/plain"), "describe"], config=types.GenerateContentConfig(temperature=0.5, stop_sequences=["zzz"]))',
      'print(json.dumps({"file": f.name, "text": r.text}))',
      'try:',
      '    c.models.generate_content(model="gemini-2.5-flash", contents="hi", config=types.GenerateContentConfig(temperature=5))',
      'except genai.errors.APIError as e:',
      '    print(json.dumps({"status": e.code}))',
    ].join('\n');
    const r = await runScript(PYTHON, ['-c', script], { SANDBOX_URL: sandbox!.url, SANDBOX_API_KEY: sandbox!.apiKey });
    assert.equal(r.status, 0, r.stderr);
    const [used, refused] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file?: string; text?: string; status?: number });
    assert.match(used.text!, new RegExp(`Attachments received: file ${used.file!} \\(text/plain\\)`));
    assert.equal(refused.status, 400);
  });
});
