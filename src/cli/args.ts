/** Minimal flag parser shared by the subcommands: `--name value`, `--name=value`, boolean flags, positionals. */
export interface ParsedArgs {
  flags: Map<string, string | true>;
  positionals: string[];
}

export class UsageError extends Error {}

export function parseArgs(args: string[], spec: { values?: string[]; booleans?: string[] }): ParsedArgs {
  const values = new Set(spec.values ?? []);
  const booleans = new Set(spec.booleans ?? []);
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('--') || a === '-') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq === -1 ? undefined : eq);
    if (booleans.has(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (values.has(name)) {
      const v = eq !== -1 ? a.slice(eq + 1) : args[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, v);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { flags, positionals };
}

export function stringFlag(p: ParsedArgs, name: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}
