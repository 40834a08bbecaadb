import * as vscode from 'vscode';
import type * as SandboxChunk from '../sandbox/chunk';
import type { SandboxInstance } from '../sandbox/instance';

/** The sandbox bundle (dist/sandbox.js): the emulators' code, loaded only when the sandbox is first needed. */
export type SandboxModule = typeof SandboxChunk;

/**
 * The sandbox the extension uses, started on first use. With a data directory (the extension's global
 * storage by default) its state survives reloads, and a sandbox another process already runs over that
 * directory (`npm start`, `api-workbench sandbox --data DIR`) is used instead of starting a second one.
 * Concurrent first uses share one start. The emulators are their own bundle: `load` brings them in at
 * that first use, so activation never pays for them.
 */
export class SandboxHost implements vscode.Disposable {
  private starting: Promise<SandboxInstance> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the sandbox was stopped (reset, restart) so views reconnect. */
  readonly onDidChange = this.changed.event;
  private readonly started = new vscode.EventEmitter<SandboxInstance>();
  /** Fires when a sandbox is started or found (the status bar shows its URL). */
  readonly onDidStart = this.started.event;

  /** The extension's sandbox: its data under the extension's global storage when that is on disk. */
  static forContext(
    context: vscode.ExtensionContext,
    log: vscode.LogOutputChannel,
    load: () => SandboxModule,
  ): SandboxHost {
    const storage = context.globalStorageUri;
    return new SandboxHost(
      log,
      load,
      storage.scheme === 'file' ? vscode.Uri.joinPath(storage, 'sandbox').fsPath : undefined,
    );
  }

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly load: () => SandboxModule,
    readonly dataDir?: string,
  ) {}

  get(): Promise<SandboxInstance> {
    const current = this.starting;
    if (current) {
      // A sandbox of another process may have gone away (its terminal closed): start our own then.
      return current.then((sb) => (sb.owned || this.load().processAlive(sb.pid) ? sb : this.replace(current)));
    }
    // Promise.resolve first, so that a bundle that cannot be loaded rejects instead of throwing here.
    this.starting = Promise.resolve()
      .then(() => this.open())
      .then(
        (s) => {
          this.log.info(
            s.owned
              ? `Sandbox started at ${s.url}${this.dataDir ? ` (data in ${this.dataDir})` : ''}`
              : `Using the sandbox of process ${s.pid} at ${s.url}`,
          );
          this.started.fire(s);
          return s;
        },
        (err: unknown) => {
          this.starting = undefined; // let the next use try again
          throw err;
        },
      );
    return this.starting;
  }

  /** The sandbox in use, without starting one. */
  async current(): Promise<SandboxInstance | undefined> {
    return this.starting?.catch(() => undefined);
  }

  get running(): boolean {
    return this.starting !== undefined;
  }

  private replace(stale: Promise<SandboxInstance>): Promise<SandboxInstance> {
    if (this.starting === stale) {
      this.starting = undefined;
      this.changed.fire();
    }
    return this.get();
  }

  /** Stops the sandbox (its state is on disk) and starts it again on next use. */
  async restart(): Promise<SandboxInstance> {
    await this.stop();
    this.changed.fire();
    return this.get();
  }

  /** Stops the sandbox, deletes its files, and lets the next use start from the seed. */
  async reset(): Promise<void> {
    if (!this.dataDir) throw new Error('The sandbox keeps no data on disk.');
    await this.stop();
    await this.load().resetData(this.dataDir);
    this.log.info(`Sandbox data in ${this.dataDir} reset.`);
    this.changed.fire();
  }

  private open(): Promise<SandboxInstance> {
    const { openSandbox, startSandbox } = this.load();
    if (this.dataDir)
      return openSandbox({ dataDir: this.dataDir }).catch((e: unknown) => {
        // The CLI names its own flag; here the way back is the command.
        if (e instanceof Error && e.name === 'DamagedStateError')
          throw new Error(`${e.message} Run "API Workbench: Reset Sandbox Data" to start over with the sample files.`, {
            cause: e,
          });
        throw e;
      });
    return startSandbox({ host: '127.0.0.1', port: 0 }).then((s) => ({
      ...s,
      dataDir: '',
      pid: process.pid,
      owned: true,
      close: () => s.close(),
    }));
  }

  private async stop(): Promise<void> {
    const s = this.starting;
    this.starting = undefined;
    await s?.then((sb) => sb.close()).catch(() => undefined);
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
    this.started.dispose();
  }
}
