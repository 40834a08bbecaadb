import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import type { DirectoryList } from '../../../src/shared/wire/discovery';
import type { ErrorBody as GenerationErrorBody } from '../../../src/shared/wire/generation';
import type { FileList } from '../../../src/shared/wire/storage';
import { jsonOf, parseAs } from '../../support/typedJson';

/** The line `api-workbench sandbox` prints: where each emulator listens and the sandbox's credentials. */
interface SandboxInfo {
  url: string;
  storage: string;
  generation: string;
  waterData: string;
  directory: string;
  apiKey: string;
  accessToken: string;
}

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return {
    io: { stdout, stderr, env: {}, interrupted: new Promise<void>(() => undefined) },
    out: () => out,
    err: () => err,
  };
}

describe('api-workbench CLI', () => {
  it('prints usage and exits 2 without a command, 2 for an unknown one', async () => {
    const a = io();
    assert.equal(await runCli([], a.io), 2);
    assert.match(a.err(), /usage: api-workbench <command>/);
    const b = io();
    assert.equal(await runCli(['frobnicate'], b.io), 2);
    assert.match(b.err(), /unknown command "frobnicate"/);
  });

  it('sandbox rejects bad flags with exit 2', async () => {
    const a = io();
    assert.equal(await runCli(['sandbox', '--port', 'http'], a.io), 2);
    assert.match(a.err(), /--port must be 0-65535/);
    const b = io();
    assert.equal(await runCli(['sandbox', '--bogus'], b.io), 2);
    assert.match(b.err(), /unknown option --bogus/);
  });

  it('sandbox prints one JSON line, serves with auth checks, and exits 0 on SIGINT', async function () {
    this.timeout(20_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sandbox', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (c) => reject(new Error(`exited ${c} before printing`)));
    });
    const info = parseAs<SandboxInfo>(line);
    for (const k of ['url', 'storage', 'generation', 'waterData', 'directory', 'apiKey', 'accessToken'] as const)
      assert.equal(typeof info[k], 'string', k);
    assert.match(info.waterData, /\/v1\/odata\/v4$/);
    assert.match(info.directory, /\/discovery\/v1\/apis$/);

    // Storage needs the bearer token; water data the x-api-key; generation the key.
    const noAuth = await fetch(`${info.storage}/store/v2/files?q=${encodeURIComponent("'root' in parents")}`);
    assert.equal(noAuth.status, 401);
    const withAuth = await fetch(
      `${info.storage}/store/v2/files?q=${encodeURIComponent("'root' in parents and trashed = false")}`,
      { headers: { authorization: `Bearer ${info.accessToken}` } },
    );
    assert.equal(withAuth.status, 200);
    assert.ok(Array.isArray((await jsonOf<FileList>(withAuth)).items));
    assert.equal((await fetch(`${info.waterData}/Locations?%24top=1`)).status, 401);
    await new Promise((r) => setTimeout(r, 600)); // the water-data limit is 2 requests a second
    const loc = await fetch(`${info.waterData}/Locations?%24top=1`, { headers: { 'x-api-key': info.apiKey } });
    assert.equal(loc.status, 200);
    const gen = await fetch(`${info.generation}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'wrong' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    assert.equal(gen.status, 400);
    assert.equal((await jsonOf<GenerationErrorBody>(gen)).error.status, 'INVALID_ARGUMENT');
    const dir = await fetch(info.directory);
    assert.equal((await jsonOf<DirectoryList>(dir)).kind, 'discovery#directoryList');

    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGINT');
    });
    assert.equal(code, 0);
  });
});
