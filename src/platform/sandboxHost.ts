import type * as vscode from 'vscode';
import type { RunningSandbox, startSandbox } from '../sandbox/server';

/** The sandbox chunk (dist/sandbox.js): the emulators' code, loaded only when the sandbox is first started. */
export interface SandboxModule {
  startSandbox: typeof startSandbox;
}

/**
 * Starts the embedded sandbox the first time a feature needs it, on a random loopback port,
 * and stops it when the extension deactivates. Concurrent first uses share one start. The emulators are
 * their own chunk: `load` brings them in at that first start, so activation never pays for them.
 */
export class SandboxHost implements vscode.Disposable {
  private starting: Promise<RunningSandbox> | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly load: () => SandboxModule,
    private readonly dataDir?: string,
  ) {}

  get(): Promise<RunningSandbox> {
    this.starting ??= Promise.resolve()
      .then(() => this.load().startSandbox({ host: '127.0.0.1', port: 0, dataDir: this.dataDir }))
      .then(
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
