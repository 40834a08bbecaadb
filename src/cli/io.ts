/** What a CLI command needs from the process; injected so commands are testable in-process. */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Resolves when the user interrupts (SIGINT/SIGTERM); long-running commands await it. */
  interrupted: Promise<void>;
}

/** Exit codes shared by every command. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export type CliCommand = (args: string[], io: CliIO) => Promise<number>;

/** Where the CLI's user sets each key: its own flags and environment variables, never an editor command. */
export const CLI_SET_GENERATION_KEY = 'pass --api-key KEY or set GEMINI_API_KEY';
export const CLI_SET_WATER_KEY = 'pass --api-key KEY or set DATASTREAM_API_KEY';

/**
 * A reader that goes away (`api-workbench … | head -c 500`) makes the next write fail with EPIPE, an
 * 'error' event that would otherwise end the process with a stack trace. Stop quietly instead, as Unix
 * tools do: nobody reads what is left, so exit 0 (stderr's own broken pipe is ignored: a message nobody
 * can read is no reason to stop).
 */
export function stopWhenReaderGoes(
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
  exit: (code: number) => void,
): void {
  const gone = (e: NodeJS.ErrnoException) => e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED';
  stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (gone(e)) exit(EXIT_OK);
    else {
      stderr.write(`api-workbench: cannot write the output: ${e.message}\n`);
      exit(EXIT_FAILURE);
    }
  });
  stderr.on('error', () => undefined);
}
