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
