// One sandbox per data directory, shared by the extension, `npm start` and `api-workbench sandbox --data DIR`.
// Whoever starts it writes `DIR/sandbox.json` (owner-only permissions: it holds the credentials) naming its
// URL, port and pid; the others find a live one there and use it instead of starting a second server over
// the same files. The credentials and port are kept for the next start, so a token copied into a terminal
// and a URL saved in a document stay valid across reloads.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { startSandbox, type RunningSandbox } from './server';
import { FolderLockedError, lockFolder } from './folderLock';
import type { SandboxInfo, SandboxOptions } from './types';

const INSTANCE_FILE = 'sandbox.json';
/** Where `--tls` keeps the sandbox's certificate: beside the state, kept by a reset so it stays trusted. */
export const TLS_DIR = 'tls';

interface InstanceInfo extends SandboxInfo {
  port: number;
  pid: number;
  consentSecret: string;
  dataDir: string;
}

/** A sandbox in use: started by this process (`owned`) or found running in another. */
export interface SandboxInstance extends SandboxInfo {
  readonly consentSecret: string;
  readonly dataDir: string;
  readonly pid: number;
  readonly owned: boolean;
  /** Stops the server when owned; a sandbox of another process is left alone. */
  close(): Promise<void>;
}

export function instanceFile(dataDir: string): string {
  return path.join(dataDir, INSTANCE_FILE);
}

/** The instance file of `dataDir`, or undefined when missing or unreadable (a broken file is simply replaced). */
export function readInstance(dataDir: string): InstanceInfo | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(instanceFile(dataDir), 'utf8')) as Partial<InstanceInfo>;
    if (
      typeof v.url !== 'string' ||
      typeof v.port !== 'number' ||
      typeof v.pid !== 'number' ||
      typeof v.apiKey !== 'string' ||
      typeof v.accessToken !== 'string' ||
      typeof v.consentSecret !== 'string'
    )
      return undefined;
    return { ...(v as InstanceInfo), dataDir };
  } catch {
    return undefined;
  }
}

function writeInstance(info: InstanceInfo): void {
  fs.mkdirSync(info.dataDir, { recursive: true, mode: 0o700 });
  const file = instanceFile(info.dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(tmp, 0o600); // an existing tmp file keeps its mode on write
  fs.renameSync(tmp, file);
}

/** True when the process exists (signal 0 only checks; EPERM means it exists under another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function portAnswers(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The sandbox another process runs over `dataDir`, if its process lives and its port answers. */
async function findRunning(dataDir: string): Promise<InstanceInfo | undefined> {
  const info = readInstance(dataDir);
  if (!info || info.pid === process.pid || !processAlive(info.pid)) return undefined;
  return (await portAnswers(info.port)) ? info : undefined;
}

export interface OpenOptions extends Pick<SandboxOptions, 'host' | 'allowedHosts' | 'tls' | 'water'> {
  dataDir: string;
  /** Port to listen on; default the one of the last run, else a free one. */
  port?: number;
  /** Credentials to use; default those of the last run, else fresh random ones. */
  apiKey?: string;
  accessToken?: string;
}

/** Uses the live sandbox of `dataDir`, or starts one over it (same credentials and, if free, the same port as last time). */
export async function openSandbox(options: OpenOptions): Promise<SandboxInstance> {
  const running = await findRunning(options.dataDir);
  if (running) return attached(running);
  try {
    return await startOver(options);
  } catch (e) {
    if (!(e instanceof FolderLockedError)) throw e;
  }
  // Another process took the folder a moment ago (two started together): use it once it serves.
  const deadline = Date.now() + JOIN_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const other = await findRunning(options.dataDir);
    if (other) return attached(other);
  }
  throw new Error(
    `Another process holds the sandbox data in ${options.dataDir} but does not serve it; stop that process or use another data folder.`,
  );
}

/** How long a sandbox that lost the race for a folder waits for the winner to serve it. */
const JOIN_WAIT_MS = 20_000;

async function startOver(options: OpenOptions): Promise<SandboxInstance> {
  // The folder holds the credentials file and the user's data: owner-only from the start.
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const last = readInstance(options.dataDir);
  const base: SandboxOptions = {
    water: options.water,
    host: options.host ?? '127.0.0.1',
    allowedHosts: options.allowedHosts,
    dataDir: options.dataDir,
    apiKey: options.apiKey ?? last?.apiKey,
    accessToken: options.accessToken ?? options.apiKey ?? last?.accessToken,
    consentSecret: last?.consentSecret,
    tls: options.tls,
  };
  let sandbox: RunningSandbox;
  const wanted = options.port ?? last?.port ?? 0;
  try {
    sandbox = await startSandbox({ ...base, port: wanted });
  } catch (e) {
    // The last run's port is taken by something else now: any free port will do. An explicit port is not given up.
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port !== undefined || wanted === 0) throw e;
    sandbox = await startSandbox({ ...base, port: 0 });
  }
  const info: InstanceInfo = {
    url: sandbox.url,
    storage: sandbox.storage,
    generation: sandbox.generation,
    waterData: sandbox.waterData,
    directory: sandbox.directory,
    apiKey: sandbox.apiKey,
    accessToken: sandbox.accessToken,
    consentSecret: sandbox.consentSecret,
    port: Number(new URL(sandbox.url).port),
    pid: process.pid,
    dataDir: options.dataDir,
  };
  try {
    writeInstance(info);
  } catch (e) {
    await sandbox.close();
    throw e;
  }
  return { ...info, owned: true, close: () => sandbox.close() };
}

function attached(info: InstanceInfo): SandboxInstance {
  return { ...info, owned: false, close: () => Promise.resolve() };
}

/**
 * Deletes the persisted state of `dataDir` (files, blobs), keeping the instance file so the credentials and
 * port stay the same, and the TLS certificate so a client that trusts it still does. Refuses while another process's sandbox serves the directory.
 */
export async function resetData(dataDir: string): Promise<void> {
  const running = await findRunning(dataDir);
  if (running)
    throw new Error(
      `The sandbox at ${running.url} (process ${running.pid}) uses this data; stop it first, then reset.`,
    );
  if (!fs.existsSync(dataDir)) return;
  // A process that holds the folder but does not serve it yet (starting) is refused the same way.
  let lock;
  try {
    lock = await lockFolder(dataDir);
  } catch (e) {
    if (e instanceof FolderLockedError)
      throw new Error(`Another sandbox process is starting over ${dataDir}; stop it first, then reset.`, { cause: e });
    throw e;
  }
  try {
    resetFiles(dataDir);
  } finally {
    await lock.release();
  }
}

function resetFiles(dataDir: string): void {
  for (const name of fs.readdirSync(dataDir)) {
    if (name === INSTANCE_FILE || name === TLS_DIR) continue;
    fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
  }
}
