// The generation endpoint's models (those that generate content), asked once and kept until the endpoint's
// settings change: the .prompt completion lists them and the diagnostics warn of a model not among them.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import type { Model } from '../../shared/wire/generation';
import { listModels } from '../core/client';
import { keyInQuery } from './chatEnvironment';

export class PromptModels implements vscode.Disposable {
  private cached: Promise<Model[] | undefined> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the endpoint changed: what was checked against the old list is checked again. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: WorkbenchServices) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('apiWorkbench.generation')) return;
      this.cached = undefined;
      this.changed.fire();
    });
  }

  /** The models, or undefined when they cannot be known now (no credential, the endpoint unreachable). */
  list(): Promise<Model[] | undefined> {
    return (this.cached ??= (async () => {
      const ep = await this.services.endpoints.resolve('generation');
      if (!ep.credential) return undefined;
      const r = await listModels({
        baseUrl: ep.baseUrl,
        apiKey: ep.credential,
        keyInQuery: keyInQuery(),
        generateOnly: true,
      });
      if (!r.error) return r.models;
      // Asked again next time: a network fault or a missing key may be gone by then.
      this.cached = undefined;
      return undefined;
    })());
  }

  async names(): Promise<string[] | undefined> {
    return (await this.list())?.map((m) => m.name.replace(/^models\//, ''));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
