import * as os from 'node:os';
import * as path from 'node:path';
import { openSandbox, resetData, TLS_DIR } from '../sandbox/instance';
import { DamagedStateError } from '../sandbox/storage/durable/format';
import { startSandbox } from '../sandbox/server';
import { sandboxCertificate, suppliedCertificate, type SandboxCertificate } from '../sandbox/tlsCertificate';
import type { WaterFrontEndSettings } from '../sandbox/types';
import { parseArgs, stringFlag, UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from './io';

export const SANDBOX_USAGE =
  'usage: api-workbench sandbox [--port N] [--host H] [--data DIR [--reset]] [--api-key K] [--allow-host NAME[,NAME…]] [--tls | --tls-cert FILE --tls-key FILE] [--water-burst N] [--water-interval-ms MS]';

/** A whole number flag within bounds, or a UsageError naming it. */
function wholeNumber(text: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got ${text}`);
  return n;
}

/** Where `--tls` keeps its certificate without `--data`: the user's cache, so it is made (and trusted) once. */
function defaultTlsDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'api-workbench', 'sandbox-tls');
}

export const sandboxCommand: CliCommand = async (args, io) => {
  let port = 0;
  let host = '127.0.0.1';
  let dataDir: string | undefined;
  let apiKey: string | undefined;
  let allowedHosts: string[];
  let portText: string | undefined;
  let tls: { generate: true } | { certFile: string; keyFile: string } | undefined;
  let reset: boolean;
  let water: WaterFrontEndSettings | undefined;
  try {
    const p = parseArgs(args, {
      values: [
        'port',
        'host',
        'data',
        'api-key',
        'allow-host',
        'tls-cert',
        'tls-key',
        'water-burst',
        'water-interval-ms',
      ],
      booleans: ['tls', 'reset', 'help'],
    });
    if (p.flags.has('help')) {
      io.stdout.write(`${SANDBOX_USAGE}\n`);
      return EXIT_OK;
    }
    if (p.positionals.length) throw new UsageError(`unexpected argument ${p.positionals[0]}`);
    portText = stringFlag(p, 'port');
    if (portText !== undefined) {
      port = Number(portText);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port must be 0-65535, got ${portText}`);
    }
    host = stringFlag(p, 'host') ?? host;
    dataDir = stringFlag(p, 'data');
    reset = p.flags.get('reset') === true;
    if (reset && dataDir === undefined) throw new UsageError('--reset needs --data DIR');
    apiKey = stringFlag(p, 'api-key');
    // Host names (besides localhost and the loopback addresses) the sandbox answers; others are refused (DNS rebinding).
    allowedHosts = (stringFlag(p, 'allow-host') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const certFile = stringFlag(p, 'tls-cert');
    const keyFile = stringFlag(p, 'tls-key');
    if ((certFile === undefined) !== (keyFile === undefined))
      throw new UsageError('--tls-cert and --tls-key go together');
    if (certFile !== undefined && keyFile !== undefined) tls = { certFile, keyFile };
    else if (p.flags.get('tls') === true) tls = { generate: true };
    const burst = wholeNumber(stringFlag(p, 'water-burst'), 'water-burst', 1, 1000);
    const minIntervalMs = wholeNumber(stringFlag(p, 'water-interval-ms'), 'water-interval-ms', 0, 60_000);
    if (burst !== undefined || minIntervalMs !== undefined) water = { burst, minIntervalMs };
  } catch (err) {
    io.stderr.write(`api-workbench sandbox: ${(err as Error).message}\n${SANDBOX_USAGE}\n`);
    return EXIT_USAGE;
  }
  // With --data the sandbox is the one of that directory: a live one (the extension's, another terminal's) is
  // used as it is; otherwise it starts with the last run's credentials and port. With --api-key the same value
  // also serves as the storage bearer token, so one secret opens everything.
  let certificate: SandboxCertificate | undefined;
  try {
    if (tls && 'generate' in tls)
      certificate = sandboxCertificate(dataDir ? path.join(dataDir, TLS_DIR) : defaultTlsDir());
    else if (tls) certificate = suppliedCertificate(tls.certFile, tls.keyFile);
  } catch (err) {
    io.stderr.write(`api-workbench sandbox: ${(err as Error).message}\n`);
    return EXIT_USAGE;
  }
  const served = certificate ? { cert: certificate.cert, key: certificate.key } : undefined;
  let sandbox;
  try {
    if (reset && dataDir) {
      await resetData(dataDir);
      io.stderr.write(`sandbox data in ${dataDir} reset (credentials kept)\n`);
    }
    sandbox = dataDir
      ? await openSandbox({
          dataDir,
          host,
          allowedHosts,
          apiKey,
          port: portText === undefined ? undefined : port,
          tls: served,
          water,
        })
      : {
          ...(await startSandbox({ port, host, apiKey, accessToken: apiKey, allowedHosts, tls: served, water })),
          owned: true,
        };
  } catch (err) {
    // What keeps the sandbox from starting is said in one line, with what to do about it; never a stack trace.
    io.stderr.write(`api-workbench sandbox: ${startFailure(err, dataDir)}\n`);
    return EXIT_FAILURE;
  }
  const { url, storage, generation, waterData, directory, accessToken } = sandbox;
  // With TLS the certificate a client must trust is part of what the sandbox tells its user.
  const caCertificate = certificate && sandbox.owned ? certificate.certFile : undefined;
  io.stdout.write(
    JSON.stringify({
      url,
      storage,
      generation,
      waterData,
      directory,
      apiKey: sandbox.apiKey,
      accessToken,
      caCertificate,
    }) + '\n',
  );
  if (!sandbox.owned) {
    io.stderr.write(`a sandbox already serves ${dataDir ?? ''} at ${url}; using it (stop it there)\n`);
    if (water)
      io.stderr.write('its water-data limits are its own: --water-burst and --water-interval-ms are not applied\n');
    return EXIT_OK;
  }
  io.stderr.write(`sandbox listening on ${url}${dataDir ? `, data in ${dataDir}` : ''} (Ctrl+C to stop)\n`);
  if (caCertificate) io.stderr.write(`TLS certificate (self-signed; trust it in your client): ${caCertificate}\n`);
  await io.interrupted;
  await sandbox.close();
  return EXIT_OK;
};

function startFailure(err: unknown, dataDir: string | undefined): string {
  if (err instanceof DamagedStateError)
    return `${err.message} To start over with an empty store: api-workbench sandbox --data ${dataDir ?? 'DIR'} --reset`;
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOSPC' || e?.code === 'EDQUOT')
    return `no space left on the device holding ${dataDir ?? 'the sandbox data'}; free some space and start again.`;
  if (e?.code === 'EADDRINUSE') return `${e.message}: the port is taken; choose another with --port.`;
  if (e?.code === 'EACCES' || e?.code === 'EPERM' || e?.code === 'EROFS')
    return `${e.message}: the sandbox cannot write there; use another --data folder.`;
  return e?.message ?? String(err);
}
