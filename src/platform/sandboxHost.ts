import type * as vscode from 'vscode';
import { startSandbox, type RunningSandbox } from '../sandbox/server';

/**
 * Starts the embedded sandbox the first time a feature needs it, on a random loopback port,
 * and stops it when the extension deactivates. Concurrent first uses share one start.
 */
export class SandboxHost implements vscode.Disposable {
  private starting: Promise<RunningSandbox> | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly dataDir?: string,
  ) {}

  get(): Promise<RunningSandbox> {
    this.starting ??= startSandbox({ host: '127.0.0.1', port: 0, dataDir: this.dataDir }).then(
      (s) => {
        this.log.info(`Sandbox started at ${s.url}`);
        return s;
      },
      (err: unknown) => {
        this.starting = undefined; // let the next use try again
        throw err;
      },
    );
    return this.starting;
  }

  get running(): boolean {
    return this.starting !== undefined;
  }

  dispose(): void {
    const s = this.starting;
    this.starting = undefined;
    void s?.then((sb) => sb.close()).catch(() => undefined);
  }
}
