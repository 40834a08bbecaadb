// `api-workbench sandbox --data DIR` as its own process, for tests that kill it: resolves once it printed where it
// serves (its first stdout line), rejects when it exits before.
import { spawn, type ChildProcess } from 'node:child_process';

export interface SandboxProcess {
  child: ChildProcess;
  url: string;
  /** The storage access token (kept in the data folder, the same after a restart). */
  token: string;
}

export function startSandboxProcess(data: string, port?: number): Promise<SandboxProcess> {
  const args = [
    '--import',
    'tsx',
    'src/cli/main.ts',
    'sandbox',
    '--data',
    data,
    ...(port ? ['--port', `${port}`] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const line = JSON.parse(out.slice(0, nl)) as { url: string; accessToken: string };
      resolve({ child, url: line.url, token: line.accessToken });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox did not start (exit ${code}): ${err}`)));
  });
}
