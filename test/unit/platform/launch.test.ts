// F5 from a fresh clone: .vscode/launch.json and tasks.json parse (they are JSONC), every launch config's
// preLaunchTask exists, and running each task's command produces what the config then loads. The watch
// task is started for real and must print the markers its background problem matcher waits for.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

const ROOT = resolve(__dirname, '../../..');

interface LaunchConfig {
  name: string;
  type: string;
  request: string;
  args?: string[];
  preLaunchTask?: string;
}
interface Task {
  label: string;
  type: 'npm' | 'shell';
  script?: string;
  command?: string;
  isBackground?: boolean;
  problemMatcher?: { background?: { beginsPattern: string; endsPattern: string } } | [];
}

function readJsonc<T>(relative: string): T {
  const errors: ParseError[] = [];
  const value = parse(readFileSync(join(ROOT, relative), 'utf8'), errors, { allowTrailingComma: true }) as T;
  assert.deepEqual(
    errors.map((e) => `${printParseErrorCode(e.error)} at ${e.offset}`),
    [],
    relative,
  );
  return value;
}

const substitute = (s: string) => s.replaceAll('${workspaceFolder}', ROOT);

/** The shell command a task runs (an npm task runs its package.json script). */
function commandOf(task: Task): string {
  if (task.type === 'shell') return task.command ?? '';
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const script = scripts[task.script ?? ''];
  assert.ok(script, `package.json has the script "${task.script}"`);
  return script;
}

const argValue = (config: LaunchConfig, flag: string) =>
  config.args?.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);

/** Starts a background task, waits for its end marker, stops it; returns what it printed. */
async function runUntilFinished(command: string, begins: RegExp, ends: RegExp): Promise<string[]> {
  const child = spawn('sh', ['-c', command], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  try {
    await new Promise<void>((done, fail) => {
      let partial = '';
      child.stdout.on('data', (d: Buffer) => {
        const parts = (partial + d.toString()).split('\n');
        partial = parts.pop() ?? '';
        lines.push(...parts);
        if (lines.some((l) => begins.test(l)) && parts.some((l) => ends.test(l))) done();
      });
      child.stderr.on('data', (d: Buffer) => lines.push(...d.toString().split('\n')));
      child.once('exit', (code) =>
        fail(new Error(`the watch exited (${code}) before its end marker:\n${lines.join('\n')}`)),
      );
    });
  } finally {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  }
  return lines;
}

describe('F5: .vscode/launch.json and tasks.json', function () {
  this.timeout(180_000);
  const launch = readJsonc<{ configurations: LaunchConfig[] }>('.vscode/launch.json');
  const tasks = readJsonc<{ tasks: Task[] }>('.vscode/tasks.json').tasks;
  const taskOf = (config: LaunchConfig) => tasks.find((t) => t.label === config.preLaunchTask);
  const config = (name: string) => {
    const c = launch.configurations.find((x) => x.name === name);
    assert.ok(c, `launch.json has "${name}"`);
    return c;
  };

  it('has Run Extension and Extension Tests, each with a preLaunchTask defined in tasks.json', () => {
    for (const c of [config('Run Extension'), config('Extension Tests')]) {
      assert.equal(c.type, 'extensionHost');
      assert.equal(argValue(c, '--extensionDevelopmentPath'), '${workspaceFolder}');
      assert.ok(c.preLaunchTask, `${c.name} builds first`);
      assert.ok(taskOf(c), `task "${c.preLaunchTask}" of ${c.name} exists`);
    }
    for (const c of launch.configurations) assert.ok(!c.preLaunchTask || taskOf(c), `task of ${c.name} exists`);
  });

  it('Run Extension: the watch task prints its matcher markers and builds what package.json loads', async () => {
    const task = taskOf(config('Run Extension'))!;
    assert.equal(task.isBackground, true);
    const background = !Array.isArray(task.problemMatcher) ? task.problemMatcher?.background : undefined;
    assert.ok(background, 'a background problem matcher');
    const started = Date.now();
    const lines = await runUntilFinished(
      commandOf(task),
      new RegExp(background.beginsPattern),
      new RegExp(background.endsPattern),
    );
    assert.deepEqual(
      lines.filter((l) => /\[ERROR\]/.test(l)),
      [],
    );
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      main: string;
      contributes: { notebookRenderer: { entrypoint: string }[] };
    };
    const outputs = [
      pkg.main,
      ...pkg.contributes.notebookRenderer.map((r) => r.entrypoint),
      'dist/webview/generation.js',
    ];
    for (const out of outputs) {
      const file = join(ROOT, out);
      assert.ok(existsSync(file), `${out} built`);
      assert.ok(statSync(file).mtimeMs >= started - 1000, `${out} rebuilt by the task`);
    }
  });

  it('Extension Tests: its task builds the module --extensionTestsPath names', () => {
    const c = config('Extension Tests');
    const testsPath = argValue(c, '--extensionTestsPath');
    assert.ok(testsPath, '--extensionTestsPath is given');
    const started = Date.now();
    const r = spawnSync('sh', ['-c', commandOf(taskOf(c)!)], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const module = substitute(testsPath);
    assert.ok(existsSync(module), `${testsPath} built`);
    assert.ok(statSync(module).mtimeMs >= started - 1000, `${testsPath} rebuilt by the task`);
  });

  it('stay in git but out of the .vsix', () => {
    for (const f of ['.vscode/launch.json', '.vscode/tasks.json']) {
      const ignored = spawnSync('git', ['check-ignore', '-q', f], { cwd: ROOT });
      assert.equal(ignored.status, 1, `${f} is not git-ignored`);
    }
    const vscodeignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(vscodeignore.includes('**') || vscodeignore.includes('.vscode/**'), '.vscode is left out of the package');
    assert.ok(!vscodeignore.some((l) => l.startsWith('!.vscode')), 'and not let back in');
  });
});
