// `api-workbench diff`: every change between two revisions of a discovery document, classified, for
// CI gates (exit 1 when anything breaking changed). The JSON shape is documented in docs/diff-codes.md.
import { readFile } from 'node:fs/promises';
import { DirectoryError, fetchDescription } from '../discovery/core/directory';
import { diffDiscovery, DiffInputError, type DiffChange, type DiffPlace } from '../discovery/core/diff';
import { parseArgs, stringFlag, UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand, type CliIO } from './io';

const USAGE =
  'usage: api-workbench diff [--format text|json] OLD NEW\n' +
  'OLD and NEW are files or http(s) URLs of two revisions of one discovery document.\n' +
  'exit: 0 nothing breaking, 1 a breaking change, 2 usage (or an input that is unreadable or not a discovery document),\n' +
  '3 the comparison itself failed (no verdict)\n';

/** The comparison failed on inputs it accepted: a defect of ours, never to be read as "breaking" by a CI gate. */
const EXIT_NOT_COMPARED = 3;

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** A file's text, or a URL's through the shared HTTP layer (a minified answer is numbered as pretty-printed). */
async function load(source: string): Promise<string> {
  if (isUrl(source)) return fetchDescription({ discoveryRestUrl: source });
  try {
    return await readFile(source, 'utf8');
  } catch (err) {
    throw new DiffInputError(`cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function where(source: string, place: DiffPlace | null): string {
  return place ? `${source}:${place.line}` : '-';
}

function printText(io: CliIO, changes: DiffChange[], oldSource: string, newSource: string): void {
  for (const c of changes)
    io.stdout.write(
      `${c.severity.padEnd(8)} ${c.code}: ${c.message} [${where(oldSource, c.old)} → ${where(newSource, c.new)}]\n`,
    );
  const count = (s: DiffChange['severity']) => changes.filter((c) => c.severity === s).length;
  io.stderr.write(
    changes.length
      ? `${count('breaking')} breaking, ${count('warning')} warning(s), ${count('info')} info\n`
      : 'No changes.\n',
  );
}

export const diffCommand: CliCommand = async (args, io) => {
  let format: string;
  let oldSource: string;
  let newSource: string;
  try {
    const parsed = parseArgs(args, { values: ['format'], booleans: ['help'] });
    if (parsed.flags.has('help')) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    format = stringFlag(parsed, 'format') ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
    if (parsed.positionals.length !== 2)
      throw new UsageError(`expected OLD and NEW, got ${parsed.positionals.length} argument(s)`);
    [oldSource, newSource] = parsed.positionals;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`api-workbench diff: ${err.message}\n${USAGE}`);
    return EXIT_USAGE;
  }

  let changes: DiffChange[];
  try {
    const [oldText, newText] = await Promise.all([load(oldSource), load(newSource)]);
    changes = diffDiscovery(oldText, newText);
  } catch (err) {
    // An input we cannot compare is the caller's to fix, never a verdict on the API: exit 2, not 1.
    if (err instanceof DiffInputError || err instanceof DirectoryError) {
      io.stderr.write(`api-workbench diff: ${err.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(
      `api-workbench diff: the documents could not be compared: ${(err as Error)?.message ?? String(err)}\n`,
    );
    return EXIT_NOT_COMPARED;
  }
  if (format === 'json') io.stdout.write(JSON.stringify({ changes }, null, 2) + '\n');
  else printText(io, changes, oldSource, newSource);
  return changes.some((c) => c.severity === 'breaking') ? EXIT_FAILURE : EXIT_OK;
};
