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
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const c = io();
      assert.equal(await runCli([name], c.io), 2, name);
      assert.match(c.err(), new RegExp(`unknown command "${name}"`));
    }
  });

  it('sandbox rejects bad flags with exit 2', async () => {
    const a = io();
    assert.equal(await runCli(['sandbox', '--port', 'http'], a.io), 2);
    assert.match(a.err(), /--port must be 0-65535/);
    const b = io();
    assert.equal(await runCli(['sandbox', '--bogus'], b.io), 2);
    assert.match(b.err(), /unknown option --bogus/);
  });

  it('sandbox --water-burst N lets N water-data requests through back to back (the default burst refuses the third)', async function () {
    this.timeout(20_000);
    /** Starts the sandbox in-process with `flags`, sends `n` water-data requests at once, stops it. */
    const statuses = async (flags: string[], n: number): Promise<number[]> => {
      let stop!: () => void;
      const stdout = new PassThrough();
      let out = '';
      const line = new Promise<string>((resolve) =>
        stdout.on('data', (d) => {
          out += String(d);
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        }),
      );
      const interrupted = new Promise<void>((r) => (stop = r));
      const run = runCli(['sandbox', '--port', '0', ...flags], {
        stdout,
        stderr: new PassThrough(),
        env: {},
        interrupted,
      });
      try {
        const info = parseAs<SandboxInfo>(await line);
        const one = () =>
          fetch(`${info.waterData}/Locations?%24top=1`, { headers: { 'x-api-key': info.apiKey } }).then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          });
        const got: number[] = [];
        // One after another (no parallel requests), as fast as the answers come.
        for (let i = 0; i < n; i++) got.push(await one());
        return got;
      } finally {
        stop();
        assert.equal(await run, 0);
      }
    };
    // A minute between tokens, so no token comes back while the test runs, however slow the machine.
    const slow = ['--water-interval-ms', '60000'];
    assert.deepEqual(await statuses(slow, 3), [200, 200, 403]);
    assert.deepEqual(await statuses([...slow, '--water-burst', '3'], 4), [200, 200, 200, 403]);
    assert.deepEqual(await statuses([...slow, '--water-burst', '1'], 2), [200, 403]);
    assert.deepEqual(await statuses(['--water-interval-ms', '0'], 4), [200, 200, 200, 200]);
    const bad = io();
    assert.equal(await runCli(['sandbox', '--water-burst', '0'], bad.io), 2);
    assert.match(bad.err(), /--water-burst must be a whole number from 1/);
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
