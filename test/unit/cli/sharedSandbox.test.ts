import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import {
  instanceFile,
  openSandbox,
  readInstance,
  resetData,
  type SandboxInstance,
} from '../../../src/sandbox/instance';

interface Printed {
  url: string;
  storage: string;
  accessToken: string;
  apiKey: string;
}

async function listTitles(sb: { storage: string; accessToken: string }): Promise<string[]> {
  const q = encodeURIComponent("'root' in parents and trashed = false");
  const r = await fetch(`${sb.storage}/store/v2/files?q=${q}&fields=items(title)`, {
    headers: { authorization: `Bearer ${sb.accessToken}` },
  });
  assert.equal(r.status, 200);
  return (JSON.parse(await r.text()) as { items: { title: string }[] }).items.map((i) => i.title);
}

async function upload(sb: { storage: string; accessToken: string }, title: string, text: string): Promise<string> {
  const r = await fetch(`${sb.storage}/upload/store/v2/files?uploadType=media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.accessToken}`, 'content-type': 'text/plain' },
    body: text,
  });
  assert.equal(r.status, 200);
  const id = (JSON.parse(await r.text()) as { id: string }).id;
  const p = await fetch(`${sb.storage}/store/v2/files/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${sb.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  assert.equal(p.status, 200);
  return id;
}

/** One request on a fresh connection: a pooled one may still point at the server the test just stopped. */
function fetch(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: () => Promise.resolve(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Waits past the emulator's write-behind delay so the state is on disk even without a clean close. */
const settle = () => new Promise((r) => setTimeout(r, 400));

describe('one sandbox per data directory (extension, npm start, CLI)', () => {
  let dir: string;
  let open: SandboxInstance | undefined;
  let child: ChildProcess | undefined;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-shared-sandbox-'))));
  afterEach(async () => {
    await open?.close();
    open = undefined;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
    child = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps files, credentials and port across a restart; the instance file is owner-only', async () => {
    open = await openSandbox({ dataDir: dir });
    assert.equal(open.owned, true);
    await upload(open, 'survives.txt', 'hello');
    const first = { url: open.url, token: open.accessToken, key: open.apiKey };
    if (process.platform !== 'win32') assert.equal(fs.statSync(instanceFile(dir)).mode & 0o777, 0o600);
    assert.equal(readInstance(dir)?.accessToken, open.accessToken);
    await open.close();

    open = await openSandbox({ dataDir: dir });
    assert.deepEqual({ url: open.url, token: open.accessToken, key: open.apiKey }, first);
    assert.ok((await listTitles(open)).includes('survives.txt'));
  });

  it('reset deletes the state but keeps the credentials', async () => {
    open = await openSandbox({ dataDir: dir });
    await upload(open, 'gone-after-reset.txt', 'x');
    const token = open.accessToken;
    await open.close();
    await resetData(dir);
    open = await openSandbox({ dataDir: dir });
    assert.equal(open.accessToken, token);
    const titles = await listTitles(open);
    assert.ok(!titles.includes('gone-after-reset.txt'));
    assert.ok(titles.length > 0, 'the seed is back');
  });

  it('a CLI sandbox over the same directory is found and used, not duplicated; reset refuses while it runs', async function () {
    this.timeout(30_000);
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sandbox', '--data', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const printed = JSON.parse(
      await new Promise<string>((resolve, reject) => {
        createInterface({ input: child!.stdout! }).once('line', resolve);
        child!.once('exit', (c) => reject(new Error(`exited ${c} before printing`)));
      }),
    ) as Printed;
    await upload(printed, 'from-terminal.txt', 'curl');
    await settle();

    open = await openSandbox({ dataDir: dir });
    assert.equal(open.owned, false);
    assert.equal(open.url, printed.url);
    assert.equal(open.accessToken, printed.accessToken);
    assert.ok((await listTitles(open)).includes('from-terminal.txt'));
    await assert.rejects(resetData(dir), /stop it first/);

    // Once the terminal's sandbox stops, the next open starts over the same files.
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGINT');
    await exited;
    child = undefined;
    open = await openSandbox({ dataDir: dir });
    assert.equal(open.owned, true);
    assert.ok((await listTitles(open)).includes('from-terminal.txt'));
  });
});
