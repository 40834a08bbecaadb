// `api-workbench openapi`: a discovery document as an OpenAPI 3.1 (or 3.0) document on stdout.
import { readFile } from 'node:fs/promises';
import { NotDiscoveryDocumentError, toOpenApi, type OpenApiVersion } from '../discovery/core/openapi';
import { parseArgs, stringFlag, UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from './io';

const USAGE =
  'usage: api-workbench openapi [--version 3.1|3.0] <discovery-document.json>\n' +
  'prints the OpenAPI document as JSON; exit 1 when the file is unreadable or not a discovery document, 2 usage\n';

export const openApiCommand: CliCommand = async (args, io) => {
  let version: OpenApiVersion;
  let file: string;
  try {
    const parsed = parseArgs(args, { values: ['version'], booleans: ['help'] });
    if (parsed.flags.has('help')) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    const v = stringFlag(parsed, 'version') ?? '3.1';
    if (v !== '3.1' && v !== '3.0') throw new UsageError(`--version must be 3.1 or 3.0, not "${v}"`);
    version = v;
    if (parsed.positionals.length !== 1) throw new UsageError('give exactly one discovery document');
    file = parsed.positionals[0];
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`api-workbench openapi: ${err.message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  let value: unknown;
  try {
    const text = await readFile(file, 'utf8');
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof SyntaxError ? 'not JSON' : String(err));
    io.stderr.write(`api-workbench openapi: cannot read ${file}: ${why}\n`);
    return EXIT_FAILURE;
  }
  try {
    const { document, warnings } = toOpenApi(value, version);
    for (const w of warnings) io.stderr.write(`api-workbench openapi: ${file}: ${w}\n`);
    io.stdout.write(JSON.stringify(document, null, 2) + '\n');
    return EXIT_OK;
  } catch (err) {
    if (!(err instanceof NotDiscoveryDocumentError)) throw err;
    io.stderr.write(`api-workbench openapi: ${file}: ${err.message}\n`);
    return EXIT_FAILURE;
  }
};
