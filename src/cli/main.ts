// The CLI's entry: the command table and the process's handling. Each command is loaded only when it runs
// (`import()` of its module; in the build, esbuild.mjs makes each command its own bundle, dist/cli/<name>.js,
// which this entry requires): `sync` does not pay for the emulators, the discovery rules or the prompt
// templates, which were most of a 2 MB bundle (ARCHITECTURE.md, "Folder sync").
import { redactText } from '../shared/http/redact';
import { EXIT_USAGE, stopWhenReaderGoes, type CliCommand, type CliIO } from './io';

const COMMANDS: Record<string, { run: () => Promise<CliCommand>; summary: string }> = {
  sandbox: {
    run: async () => (await import('./sandbox')).sandboxCommand,
    summary: 'start the sandbox emulators and print their endpoints as one JSON line',
  },
  lint: {
    run: async () => (await import('./lint')).lintCommand,
    summary: 'check discovery documents: lint [--format text|json] <file>... (exit 3: a document was not checked)',
  },
  diff: {
    run: async () => (await import('./diff')).diffCommand,
    summary: 'classify the changes between two revisions: diff [--format text|json] OLD NEW (exit 1: breaking)',
  },
  generate: {
    run: async () => (await import('./generate')).generateCommand,
    summary: 'stream a reply from the content generation API',
  },
  query: {
    run: async () => (await import('./query')).queryCommand,
    summary: 'run a water-quality OData query and stream rows',
  },
  eval: {
    run: async () => (await import('./eval')).evalCommand,
    summary: 'run a .prompt file over a dataset and models with assertions: eval [--format json|junit] PROMPT_FILE',
  },
  sync: {
    run: async () => (await import('./sync')).syncCommand,
    summary:
      'keep a local folder and a store folder in sync: sync [--mode two-way|upload|download] [--dry-run] [--json] [--export KIND=FORMAT,...] LOCAL_DIR STORE_FOLDER',
  },
  openapi: {
    run: async () => (await import('./openapi')).openApiCommand,
    summary: 'convert a discovery document to OpenAPI: openapi [--version 3.1|3.0] <file>',
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`);
  return `usage: api-workbench <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? io.stdout : io.stderr).write(usage());
    return name ? 0 : EXIT_USAGE;
  }
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!cmd) {
    io.stderr.write(`api-workbench: unknown command "${name}"\n${usage()}`);
    return EXIT_USAGE;
  }
  return (await cmd.run())(rest, io);
}

if (require.main === module) {
  stopWhenReaderGoes(process.stdout, process.stderr, (code) => process.exit(code));
  const interrupted = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    // Closing the terminal: stop as cleanly as on Ctrl+C.
    process.once('SIGHUP', () => resolve());
  });
  runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, interrupted }).then(
    (code) => {
      process.exitCode = code;
      // Let stdout drain, then leave even if a keep-alive socket lingers.
      process.stdout.write('', () => process.exit(code));
    },
    (err: unknown) => {
      process.stderr.write(`api-workbench: ${redactText(String((err as Error)?.stack ?? err))}\n`);
      process.exit(1);
    },
  );
}
