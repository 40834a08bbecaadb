import * as vscode from 'vscode';
import type { Endpoints, ResolvedEndpoint, ServiceId, WorkbenchServices } from './services';
import type { SandboxHost } from './sandboxHost';
import { serviceOfSecretKey } from './secrets';

export const SERVICES: readonly ServiceId[] = ['storage', 'generation', 'waterData', 'directory'];

export const SERVICE_LABELS: Record<ServiceId, string> = {
  storage: 'File storage',
  generation: 'Content generation',
  waterData: 'Water-quality data',
  directory: 'Discovery directory',
};

export const SETTING_OF: Record<ServiceId, string> = {
  storage: 'storage.baseUrl',
  generation: 'generation.baseUrl',
  waterData: 'waterData.baseUrl',
  directory: 'directory.url',
};

export function configuredUrl(service: ServiceId): string {
  return (vscode.workspace.getConfiguration('apiWorkbench').get<string>(SETTING_OF[service]) ?? '').trim().replace(/\/+$/, '');
}

export class EndpointResolver implements Endpoints, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ServiceId>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly sandbox: SandboxHost,
    private readonly secrets: WorkbenchServices['secrets'],
    secretStorage: vscode.SecretStorage,
  ) {
    this.subscriptions = [
      this.emitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        for (const s of SERVICES) if (e.affectsConfiguration(`apiWorkbench.${SETTING_OF[s]}`)) this.emitter.fire(s);
      }),
      secretStorage.onDidChange((e) => {
        const s = serviceOfSecretKey(e.key);
        if (s) this.emitter.fire(s);
      }),
    ];
  }

  async resolve(service: ServiceId): Promise<ResolvedEndpoint> {
    const url = configuredUrl(service);
    if (url) return { baseUrl: url, credential: await this.secrets.get(service), sandbox: false };
    const sb = await this.sandbox.get();
    const baseUrl = { storage: sb.storage, generation: sb.generation, waterData: sb.waterData, directory: sb.directory }[service];
    const credential = service === 'storage' ? sb.accessToken : service === 'directory' ? undefined : sb.apiKey;
    return { baseUrl, credential, sandbox: true, ...(service === 'storage' ? { consentSecret: sb.consentSecret } : {}) };
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
