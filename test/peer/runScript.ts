// Runs a peer script in a child process without blocking this one (which hosts the sandbox it talks to).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export interface ScriptResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runScript(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<ScriptResult> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, {
      cwd: resolve(__dirname, '..', '..'),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}
