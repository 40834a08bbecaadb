// Types of hostRunner.mjs for TypeScript callers (the activation benchmark).
export interface HostTestOptions {
  extensionPath: string;
  testsModule: string;
  folder: string;
  timeoutMs?: number;
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  /** Given the Playwright page once the workbench has loaded. */
  onPage?: (page: unknown) => unknown;
  /** Each new line of the report file as it is written. */
  onLine?: (line: string, reportFile: string) => void;
  quiet?: boolean;
  extensionsDir?: string;
}

/** Resolves with the exit code the test module reported. */
export function runHostTests(options: HostTestOptions): Promise<number>;
