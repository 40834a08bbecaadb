// The subcommands' flag parsing is node:util `parseArgs` (strict: unknown options, missing values and values
// given to boolean flags are usage errors); this file only adapts its result to a map the subcommands query
// and turns its errors into UsageError, which main.ts reports with exit code 2.
import { parseArgs as parseNodeArgs } from 'node:util';

export interface ParsedArgs {
  flags: Map<string, string | true>;
  /** Every value of a flag that may be given more than once, in order. */
  lists: Map<string, string[]>;
  positionals: string[];
}

export class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** The error codes node:util's parseArgs gives to what the user typed wrong (anything else is our bug). */
const USAGE_CODES = new Set([
  'ERR_PARSE_ARGS_UNKNOWN_OPTION',
  'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
  'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
]);

function isUsageFailure(err: unknown): err is Error {
  return err instanceof Error && USAGE_CODES.has((err as NodeJS.ErrnoException).code ?? '');
}

/** node:util's messages name the option in quotes and run long; the CLI's usage lines are short. */
function shortMessage(message: string): string {
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  if (!option) return message;
  if (message.startsWith('Unknown option')) return `unknown option ${option}`;
  if (message.endsWith('argument missing')) return `${option} needs a value`;
  if (message.includes('does not take an argument')) return `${option} takes no value`;
  if (message.includes('argument is ambiguous'))
    return `${option} needs a value (one starting with "-" goes as ${option}=-…)`;
  return message;
}

export function parseArgs(
  args: string[],
  spec: { values?: string[]; booleans?: string[]; repeatable?: string[] },
): ParsedArgs {
  const options: OptionSpec = {};
  for (const name of spec.values ?? []) options[name] = { type: 'string' };
  for (const name of spec.repeatable ?? []) options[name] = { type: 'string', multiple: true };
  for (const name of spec.booleans ?? []) options[name] = { type: 'boolean' };
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseNodeArgs({ args, options, strict: true, allowPositionals: true });
  } catch (err) {
    if (isUsageFailure(err)) throw new UsageError(shortMessage(err.message));
    throw err;
  }
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) lists.set(name, value.map(String));
    else if (typeof value === 'string') flags.set(name, value);
    else if (value === true) flags.set(name, true);
  }
  return { flags, lists, positionals: parsed.positionals };
}

export function stringFlag(p: ParsedArgs, name: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}
