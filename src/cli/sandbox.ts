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
  try {
    const p = parseArgs(args, { values: ['port', 'host', 'data', 'api-key', 'allow-host'] });
    if (p.positionals.length) throw new UsageError(`unexpected argument ${p.positionals[0]}`);
    const portText = stringFlag(p, 'port');
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
  // With --api-key the same value also serves as the storage bearer token, so one secret opens everything.
  const sandbox = await startSandbox({ port, host, dataDir, apiKey, accessToken: apiKey, allowedHosts });
  const { url, storage, generation, waterData, directory, accessToken } = sandbox;
  io.stdout.write(
    JSON.stringify({ url, storage, generation, waterData, directory, apiKey: sandbox.apiKey, accessToken }) + '\n',
  );
  io.stderr.write(`sandbox listening on ${url} (Ctrl+C to stop)\n`);
  await io.interrupted;
  await sandbox.close();
  return EXIT_OK;
};
