// The README's CLI examples, run as a reader would paste them. A fenced bash block right after an
// `<!-- cli-example -->` comment is a list of commands (a trailing `\` continues one onto the next line); a line
// starting with `{` or `[` is the output the command above it shows, and its first output must have that shape
// (every key shown, with a value of the same type; "…" stands for any value). A command exits 0 unless its
// comment says `# exit N`. `$URL`, `$TOKEN` and `$KEY` are set from the sandbox's JSON line as the README says.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';

const root = resolve(__dirname, '..', '..', '..');
const MARK = '<!-- cli-example -->';

interface Example {
  /** 1-based line of the README where the command starts. */
  line: number;
  command: string;
  exit: number;
  shown?: unknown;
}

/** Every command of every marked block, in README order. */
function readmeExamples(text: string): Example[] {
  const lines = text.split('\n');
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== MARK) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === '') j++;
    if (!/^```(bash|sh)\s*$/.test(lines[j] ?? ''))
      throw new Error(`README.md:${i + 1}: ${MARK} must be followed by a \`\`\`bash block`);
    for (j++; j < lines.length && !lines[j].startsWith('```'); j++) {
      const text = lines[j].trim();
      if (text === '' || text.startsWith('#')) continue;
      if (/^[{[]/.test(text)) {
        const last = out.at(-1);
        if (!last || last.shown !== undefined) throw new Error(`README.md:${j + 1}: output with no command above it`);
        last.shown = JSON.parse(text);
        continue;
      }
      const start = j;
      let command = lines[j];
      while (command.endsWith('\\') && j + 1 < lines.length) command += '\n' + lines[++j];
      const exit = /#\s*exit (\d+)/.exec(command);
      out.push({ line: start + 1, command: command.trim(), exit: exit ? Number(exit[1]) : 0 });
    }
  }
  return out;
}

/** The CLI commands of the README's table (`| \`lint …\` | … |`). */
function tableCommands(text: string): string[] {
  const section = text.split(/^## /m).find((s) => s.startsWith('CLI\n')) ?? '';
  return [...section.matchAll(/^\| `([a-z]+)[ `]/gm)].map((m) => m[1]);
}

/** Problems with `actual` against the shape `shown` (every key shown present, with a value of the same kind). */
function shapeProblems(shown: unknown, actual: unknown, path = '$'): string[] {
  if (shown === '…') return [];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
    return shown.length && actual.length ? shapeProblems(shown[0], actual[0], `${path}[0]`) : [];
  }
  if (shown && typeof shown === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: expected an object`];
    const a = actual as Record<string, unknown>;
    return Object.entries(shown).flatMap(([k, v]) =>
      k in a ? shapeProblems(v, a[k], `${path}.${k}`) : [`${path}: no key "${k}"`],
    );
  }
  return typeof shown === typeof actual ? [] : [`${path}: expected a ${typeof shown}, got ${JSON.stringify(actual)}`];
}

/** The command's output as JSON: all of it, or else its first line (output cut by `head -c`). */
function firstJson(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return JSON.parse(stdout.split('\n')[0]);
  }
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const examples = readmeExamples(readme);

describe('README: CLI examples run as written', function () {
  this.timeout(60_000);
  let built: string;
  let env: NodeJS.ProcessEnv;
  let cwd: string;
  let sandbox: RunningSandbox;

  before(async () => {
    // A fresh bundle of the current sources (the unit tier runs before any `npm run build`), installed as the
    // `api-workbench` bin, and curl made to fail on an HTTP error status, so a refused request is a failure.
    built = mkdtempSync(join(tmpdir(), 'api-workbench-readme-'));
    execFileSync(process.execPath, ['esbuild.mjs', `--outdir=${join(built, 'dist')}`], { cwd: root, stdio: 'ignore' });
    const bin = join(built, 'bin');
    mkdirSync(bin);
    const realCurl = execFileSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim();
    assert.ok(realCurl, 'the README shows curl examples: install curl to run them');
    const shim = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    shim('api-workbench', `exec "${process.execPath}" "${join(built, 'dist', 'cli.js')}" "$@"`);
    shim('curl', `exec "${realCurl}" --fail-with-body --silent --show-error "$@"`);
    // A clone's files as the working directory, so what an example writes (`> openapi.json`) lands here.
    cwd = join(built, 'clone');
    mkdirSync(cwd);
    for (const name of readdirSync(root)) if (name !== 'dist') symlinkSync(join(root, name), join(cwd, name));
    sandbox = await startSandbox();
    env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
    // "set `URL` from `url`, …": the README's own words say which field of the JSON line each variable holds.
    const said = [...readme.matchAll(/`([A-Z]+)` from `(\w+)`/g)];
    assert.ok(said.length > 0, 'README.md must say which field of the sandbox JSON line each variable holds');
    for (const [, variable, field] of said) {
      const value = (sandbox as unknown as Record<string, unknown>)[field];
      assert.equal(typeof value, 'string', `README.md sets $${variable} from "${field}", which the sandbox lacks`);
      env[variable] = value as string;
    }
  });

  after(async () => {
    await sandbox?.close();
    if (built) rmSync(built, { recursive: true, force: true });
  });

  /** The README names the CLI three ways; each is the built bin here. */
  const asBin = (command: string) => command.replace(/\b(?:node dist\/cli\.js|npx api-workbench)\b/g, 'api-workbench');

  function run(command: string): Promise<Finished> {
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
  }

  /** `sandbox` runs until Ctrl+C: its first line is its output, then Ctrl+C must end it with exit 0. */
  async function runSandbox(command: string): Promise<Finished> {
    // Any free port: the one the README shows may be taken on this machine.
    const child = spawn('bash', ['-c', `exec ${command.replace(/--port \d+/, '--port 0')}`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const first = await new Promise<string>((done) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', done);
      lines.once('close', () => done(''));
    });
    child.kill('SIGINT');
    return { code: await closed, stdout: first, stderr };
  }

  it('the README marks CLI examples, and every command of its CLI table has one', () => {
    assert.ok(examples.length > 0, `README.md has no \`\`\`bash block after ${MARK}`);
    const commands = tableCommands(readme);
    assert.ok(commands.length > 0, 'README.md has no CLI table');
    const shown = new Set(examples.map((e) => /\bapi-workbench (\w+)/.exec(asBin(e.command))?.[1]));
    assert.deepEqual(
      commands.filter((c) => !shown.has(c)),
      [],
      'commands of the CLI table without a marked example',
    );
  });

  // The test built the CLI itself, which is what a block's `npm run build` is there for.
  for (const example of examples.filter((e) => !/^npm run build\b/.test(e.command))) {
    it(`README.md:${example.line}: ${example.command.split('\n')[0]}`, async () => {
      const command = asBin(example.command);
      assert.match(command, /^(api-workbench|curl) /, 'an example runs the CLI or curl; anything else is not one');
      const r = /^api-workbench sandbox\b/.test(command) ? await runSandbox(command) : await run(command);
      assert.equal(r.code, example.exit, `exit ${r.code}, the README says ${example.exit}\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /\n\s+at |Unhandled/, `a stack trace:\n${r.stderr}`);
      assert.ok(r.stdout.trim().length > 0 || /> \S+\s*(#.*)?$/.test(command), `no output\n${r.stderr}`);
      if (example.shown !== undefined) {
        let actual: unknown;
        assert.doesNotThrow(() => (actual = firstJson(r.stdout)), `the README shows JSON, the output is:\n${r.stdout}`);
        assert.deepEqual(shapeProblems(example.shown, actual), [], `not the shape the README shows:\n${r.stdout}`);
      }
    });
  }
});
