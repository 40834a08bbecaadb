// The built CLI as a shell runs it: its stdout piped into a reader that goes away early
// (`api-workbench … | head -c 500`), and the advice it prints when a key is wrong.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe('api-workbench CLI as a shell pipes it', function () {
  this.timeout(60_000);
  let built: string;
  let cli: string;
  let sandbox: RunningSandbox;

  before(async () => {
    // A fresh bundle of the current sources (the unit tier runs before any `npm run build`).
    built = mkdtempSync(join(tmpdir(), 'api-workbench-cli-'));
    execFileSync(process.execPath, ['esbuild.mjs', `--outdir=${built}`], { stdio: 'ignore' });
    cli = join(built, 'cli.js');
    sandbox = await startSandbox();
  });

  after(async () => {
    await sandbox?.close();
    if (built) rmSync(built, { recursive: true, force: true });
  });

  /** Runs the CLI; with `closeEarly` its stdout's reader is gone before the CLI writes anything. */
  function run(args: string[], closeEarly: boolean): Promise<Finished> {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    if (closeEarly) child.stdout.destroy();
    else child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  }

  /** Quiet: no stack trace, and exit 0 or the code the command gives with a reader (lint's 1: findings). */
  function assertQuiet(r: Finished, what: string, codeWithReader = 0): void {
    assert.equal(r.signal, null, `${what}: killed by ${r.signal}`);
    assert.ok(r.code === 0 || r.code === codeWithReader, `${what}: exit ${r.code}\n${r.stderr}`);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|\n\s+at /, `${what} printed a stack trace:\n${r.stderr}`);
  }

  it('every command that writes to stdout stops quietly, exit 0, when the reader goes away', async () => {
    const commands: Record<string, string[]> = {
      generate: [
        'generate',
        '--base-url',
        sandbox.generation,
        '--model',
        'gemini-2.0-flash',
        '--api-key',
        sandbox.apiKey,
        '--prompt',
        'Tell me a long story',
        '--json',
      ],
      query: ['query', '--base-url', sandbox.waterData, '--api-key', sandbox.apiKey, '/Locations?$top=50'],
      lint: ['lint', '--format', 'json', 'samples/discovery/bookshelf.v1.json'],
      openapi: ['openapi', 'samples/discovery/bookshelf.v1.json'],
      diff: ['diff', '--format', 'json', 'samples/discovery/bookshelf.v1.json', 'samples/discovery/bookshelf.v1.json'],
      help: ['--help'],
    };
    const entries = Object.entries(commands);
    // The same command with a reader that stays writes something: the early close is what is tested.
    const whole = await Promise.all(entries.map(([, args]) => run(args, false)));
    const early = await Promise.all(entries.map(([, args]) => run(args, true)));
    entries.forEach(([name], i) => {
      assert.ok(whole[i].stdout.length > 0, `${name} wrote nothing to stdout: ${whole[i].stderr}`);
      assertQuiet(early[i], name, whole[i].code ?? 0);
    });
  });

  it('loads only the command it runs: the entry is the command table, each command a bundle of its own', () => {
    // In a process of its own, as `api-workbench` runs: which of the built scripts it required.
    const probe = (command: string): string[] => {
      const code = `require(${JSON.stringify(cli)}).runCli([${JSON.stringify(command)}, '--help'], {
        stdout: { write: () => true }, stderr: { write: () => true }, env: {}, interrupted: new Promise(() => {}),
      }).then((exit) => console.log(JSON.stringify({ exit, loaded: Object.keys(require.cache) })));`;
      const out = JSON.parse(execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' })) as {
        exit: number;
        loaded: string[];
      };
      assert.equal(out.exit, 0, `${command} --help`);
      return out.loaded.filter((f) => f.startsWith(built)).map((f) => f.slice(built.length + 1).replace(/\\/g, '/'));
    };
    assert.deepEqual(probe('sync'), ['cli.js', 'cli/sync.js']);
    assert.deepEqual(probe('openapi'), ['cli.js', 'cli/openapi.js']);
    assert.ok(statSync(cli).size < 20_000, `the entry is ${statSync(cli).size} bytes: a command was bundled into it`);
  });

  it('sandbox stops quietly when the reader of its endpoint line is gone', async () => {
    assertQuiet(await run(['sandbox', '--port', '0'], true), 'sandbox');
  });

  it('a wrong key names the CLI flag and environment variable, never an editor command', async () => {
    const gen = await run(
      [
        'generate',
        '--base-url',
        sandbox.generation,
        '--model',
        'gemini-2.0-flash',
        '--api-key',
        'wrong',
        '--prompt',
        'hi',
      ],
      false,
    );
    assert.equal(gen.code, 1);
    assert.match(gen.stderr, /API key not valid/);
    assert.match(gen.stderr, /--api-key KEY or set GEMINI_API_KEY/);
    assert.doesNotMatch(gen.stderr, /API Workbench:/);

    const water = await run(
      ['query', '--base-url', sandbox.waterData, '--api-key', 'wrong', '/Locations?$top=2'],
      false,
    );
    assert.equal(water.code, 1);
    assert.match(water.stderr, /rejected the API key/);
    assert.match(water.stderr, /--api-key KEY or set DATASTREAM_API_KEY/);
    assert.doesNotMatch(water.stderr, /API Workbench:/);
  });
});
