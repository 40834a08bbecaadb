// A sandbox in a child process for the benches: the bytes and records it keeps do not count as the
// bench's (the client's) memory, and its work runs beside the client's instead of on the same thread.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export interface ChildSandbox {
  info: { storage: string; accessToken: string };
  child: ChildProcess;
}

/** `blobDir`: where file contents go (default: a temporary folder of the sandbox's own). */
export async function startChildSandbox(opts: { blobDir?: string } = {}): Promise<ChildSandbox> {
  const root = path.resolve(__dirname, '..', '..');
  const options = opts.blobDir ? { blobDir: opts.blobDir, durability: 'off' } : {};
  const code = `const { startSandbox } = require(${JSON.stringify(path.join(root, 'src/sandbox/server.ts'))});
startSandbox(${JSON.stringify(options)}).then((s) => console.log(JSON.stringify({ storage: s.storage, accessToken: s.accessToken })));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--max-old-space-size=8192', '-e', code], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<{ storage: string; accessToken: string }>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      const parsed: unknown = JSON.parse(line);
      const p = parsed as Partial<Record<'storage' | 'accessToken', unknown>> | null;
      if (typeof p?.storage === 'string' && typeof p.accessToken === 'string')
        resolve({ storage: p.storage, accessToken: p.accessToken });
      else reject(new Error(`unexpected sandbox line: ${line}`));
    });
    child.once('exit', (c) => reject(new Error(`sandbox exited with ${c}`)));
  });
  return { info, child };
}
