import { openSandbox } from '../sandbox/instance';
import { startSandbox } from '../sandbox/server';
import { parseArgs, stringFlag, UsageError } from './args';
import { EXIT_OK, EXIT_USAGE, type CliCommand } from './io';

export const SANDBOX_USAGE =
  'usage: api-workbench sandbox [--port N] [--host H] [--data DIR] [--api-key K] [--allow-host NAME[,NAME…]]';

export const sandboxCommand: CliCommand = async (args, io) => {
  let port = 0;
  let host = '127.0.0.1';
  let dataDir: string | undefined;
  let apiKey: string | undefined;
  let allowedHosts: string[];
  let portText: string | undefined;
  try {
    const p = parseArgs(args, { values: ['port', 'host', 'data', 'api-key', 'allow-host'] });
    if (p.positionals.length) throw new UsageError(`unexpected argument ${p.positionals[0]}`);
    portText = stringFlag(p, 'port');
    if (portText !== undefined) {
      port = Number(portText);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port must be 0-65535, got ${portText}`);
    }
    host = stringFlag(p, 'host') ?? host;
    dataDir = stringFlag(p, 'data');
    apiKey = stringFlag(p, 'api-key');
    // Host names (besides localhost and the loopback addresses) the sandbox answers; others are refused (DNS rebinding).
    allowedHosts = (stringFlag(p, 'allow-host') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
  } catch (err) {
    io.stderr.write(`api-workbench sandbox: ${(err as Error).message}\n${SANDBOX_USAGE}\n`);
    return EXIT_USAGE;
  }
  // With --data the sandbox is the one of that directory: a live one (the extension's, another terminal's) is
  // used as it is; otherwise it starts with the last run's credentials and port. With --api-key the same value
  // also serves as the storage bearer token, so one secret opens everything.
  const sandbox = dataDir
    ? await openSandbox({ dataDir, host, allowedHosts, apiKey, port: portText === undefined ? undefined : port })
    : { ...(await startSandbox({ port, host, apiKey, accessToken: apiKey, allowedHosts })), owned: true };
  const { url, storage, generation, waterData, directory, accessToken } = sandbox;
  io.stdout.write(
    JSON.stringify({ url, storage, generation, waterData, directory, apiKey: sandbox.apiKey, accessToken }) + '\n',
  );
  if (!sandbox.owned) {
    io.stderr.write(`a sandbox already serves ${dataDir ?? ''} at ${url}; using it (stop it there)\n`);
    return EXIT_OK;
  }
  io.stderr.write(`sandbox listening on ${url}${dataDir ? `, data in ${dataDir}` : ''} (Ctrl+C to stop)\n`);
  await io.interrupted;
  await sandbox.close();
  return EXIT_OK;
};
