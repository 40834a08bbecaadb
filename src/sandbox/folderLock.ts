// One sandbox process per data folder. The lock is a listening local socket whose name comes from the folder's
// real path: only one process can listen on a name, and the operating system lets go of it when the process
// ends, however it ends (kill -9 included), so there is no stale lock to guess about. On Linux the name is in
// the abstract socket namespace, on Windows it is a named pipe; elsewhere (macOS) it is a socket file in the
// temporary folder, taken over only when nothing answers on it.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export class FolderLockedError extends Error {
  constructor(readonly folder: string) {
    super(`Another sandbox process is using ${folder}.`);
  }
}

export interface FolderLock {
  release(): Promise<void>;
}

function lockAddress(folder: string): { address: string; file?: string } {
  let real = path.resolve(folder);
  try {
    real = fs.realpathSync(folder);
  } catch {
    // Not created yet: its resolved path is its name.
  }
  const id = createHash('sha256').update(real).digest('hex').slice(0, 32);
  if (process.platform === 'linux') return { address: `\0api-workbench-sandbox-${id}` };
  if (process.platform === 'win32') return { address: `\\\\?\\pipe\\api-workbench-sandbox-${id}` };
  const file = path.join(os.tmpdir(), `api-workbench-${id}.lock`);
  return { address: file, file };
}

function listen(address: string): Promise<net.Server | 'taken'> {
  return new Promise((resolve, reject) => {
    // Whoever connects is told nothing and let go: the socket only marks the folder as taken.
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve('taken') : reject(e)));
    server.listen(address, () => {
      server.unref();
      resolve(server);
    });
  });
}

function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Takes the folder's lock, or throws FolderLockedError when another live process holds it. */
export async function lockFolder(folder: string): Promise<FolderLock> {
  const { address, file } = lockAddress(folder);
  let server = await listen(address);
  if (server === 'taken' && file && !(await answers(address))) {
    // A socket file left by a process that is gone (no abstract namespace here).
    fs.rmSync(file, { force: true });
    server = await listen(address);
  }
  if (server === 'taken') throw new FolderLockedError(folder);
  const held = server;
  return {
    release: () => new Promise<void>((resolve) => held.close(() => resolve())),
  };
}
