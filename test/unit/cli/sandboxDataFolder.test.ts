// `api-workbench sandbox --data DIR` as people run it: two started at the same moment over one folder never both
// serve it, and a damaged folder stops start-up with one line naming the file and the command that resets it.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  kill(): void;
  exited: Promise<void>;
}

/** Starts the CLI; resolves once it serves or uses another's, or at its exit. */
function sandbox(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sandbox', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = {
    code: null,
    stdout: '',
    stderr: '',
    kill: () => child.kill('SIGTERM'),
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
  };
  return new Promise((resolve) => {
    // It has settled once it printed its JSON line and said on stderr whether it serves or uses another's.
    const settled = () => {
      if (run.stdout.includes('\n') && /sandbox listening on|already serves/.test(run.stderr)) resolve(run);
    };
    child.stderr.on('data', (d: Buffer) => {
      run.stderr += d.toString();
      settled();
    });
    child.stdout.on('data', (d: Buffer) => {
      run.stdout += d.toString();
      settled();
    });
    child.once('exit', (code) => {
      run.code = code;
      resolve(run);
    });
  });
}

describe('sandbox --data: one process per folder, damage said in one line', function () {
  this.timeout(120_000);

  it('two started at the same moment: one serves, the other uses it (10 trials, new and existing folders)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-two-'));
    for (let trial = 0; trial < 10; trial++) {
      // Half the trials on a folder that does not exist yet.
      const data = trial % 2 === 0 ? path.join(dir, `new-${trial}`) : dir;
      const [a, b] = await Promise.all([sandbox(['--data', data]), sandbox(['--data', data])]);
      try {
        const served = [a, b].filter((r) => r.stderr.includes('sandbox listening on'));
        const joined = [a, b].filter((r) => r.stderr.includes('already serves'));
        assert.equal(served.length, 1, `trial ${trial}: ${a.stderr} | ${b.stderr}`);
        assert.equal(joined.length, 1, `trial ${trial}: ${a.stderr} | ${b.stderr}`);
        const urlA = (JSON.parse(a.stdout.split('\n')[0]) as { url: string }).url;
        const urlB = (JSON.parse(b.stdout.split('\n')[0]) as { url: string }).url;
        assert.equal(urlA, urlB, 'both name the one sandbox that serves the folder');
        await joined[0].exited;
      } finally {
        a.kill();
        b.kill();
        await Promise.all([a.exited, b.exited]);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a damaged state: one line naming the file and `--reset`, exit 1; --reset starts over', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-damaged-'));
    const first = await sandbox(['--data', dir]);
    first.kill();
    await first.exited;
    const snapshot = path.join(dir, 'storage', 'snapshot.jsonl');
    fs.writeFileSync(snapshot, '{"truncated":');
    const broken = await sandbox(['--data', dir]);
    await broken.exited;
    assert.equal(broken.code, 1);
    const lines = broken.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, broken.stderr);
    assert.ok(lines[0].includes(snapshot), lines[0]);
    assert.ok(lines[0].includes(`api-workbench sandbox --data ${dir} --reset`), lines[0]);
    assert.ok(!/\n\s+at /.test(broken.stderr), 'no stack trace');
    const again = await sandbox(['--data', dir, '--reset']);
    try {
      assert.ok(again.stderr.includes('reset'), again.stderr);
      assert.ok(again.stderr.includes('sandbox listening on'), again.stderr);
    } finally {
      again.kill();
      await again.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starting on a full disk: one line saying so, no stack trace (a real tmpfs where one can be mounted)', async () => {
    const disk = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-fullstart-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { stdio: 'ignore' });
    } catch {
      fs.rmSync(disk, { recursive: true, force: true });
      console.log('      (no tmpfs here: the storage tests inject ENOSPC instead)');
      return;
    }
    try {
      const fd = fs.openSync(path.join(disk, 'filler'), 'w');
      try {
        for (;;) fs.writeSync(fd, Buffer.alloc(4096, 1));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        fs.closeSync(fd);
      }
      const run = await sandbox(['--data', path.join(disk, 'data')]);
      await run.exited;
      assert.equal(run.code, 1, run.stderr);
      const lines = run.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], /no space left on the device/);
    } finally {
      execFileSync('umount', ['-l', disk]);
      fs.rmSync(disk, { recursive: true, force: true });
    }
  });
});
