import * as vscode from 'vscode';
import { decideCredential, originOf } from '../shared/http/credentialOrigin';
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

export const REAL_DEFAULTS: Record<ServiceId, string> = {
  storage: 'https://www.googleapis.com',
  generation: 'https://generativelanguage.googleapis.com',
  waterData: 'https://api.datastream.org/v1/odata/v4',
  directory: 'https://www.googleapis.com/discovery/v1/apis',
};

export const CREDENTIAL_NAME: Record<ServiceId, string> = {
  storage: 'access token',
  generation: 'API key',
  waterData: 'API key (x-api-key)',
  directory: 'API key',
};

/** The user declined to send a stored credential to an origin it was not stored for. */
export class CredentialNotSentError extends Error {
  override readonly name = 'CredentialNotSentError';
}

export function configuredUrl(service: ServiceId): string {
  return (vscode.workspace.getConfiguration('apiWorkbench').get<string>(SETTING_OF[service]) ?? '')
    .trim()
    .replace(/\/+$/, '');
}

/** Where the endpoint in effect comes from: the user's own settings, or a workspace / folder (which a repository can ship). */
function setByWorkspace(service: ServiceId): boolean {
  const i = vscode.workspace.getConfiguration('apiWorkbench').inspect<string>(SETTING_OF[service]);
  return !!(i?.workspaceFolderValue?.trim() || i?.workspaceValue?.trim());
}

/** The endpoint a credential being stored now is meant for: the configured one, else the real service. */
export function credentialTarget(service: ServiceId): string {
  return configuredUrl(service) || REAL_DEFAULTS[service];
}

export class EndpointResolver implements Endpoints, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ServiceId>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];
  /** One question at a time per service and origin, however many requests wait for the answer. */
  private readonly asking = new Map<string, Promise<string>>();

  constructor(
    private readonly sandbox: SandboxHost,
    private readonly secrets: WorkbenchServices['secrets'],
    secretStorage: vscode.SecretStorage,
  ) {
    this.subscriptions = [
      this.emitter,
      // A restarted or reset sandbox may have another port and fresh files: every service reconnects.
      sandbox.onDidChange(() => {
        for (const s of SERVICES) if (!configuredUrl(s)) this.emitter.fire(s);
      }),
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
    if (url)
      return {
        baseUrl: url,
        credential: await this.credential(service, url, !setByWorkspace(service)),
        sandbox: false,
      };
    const sb = await this.sandbox.get();
    const baseUrl = {
      storage: sb.storage,
      generation: sb.generation,
      waterData: sb.waterData,
      directory: sb.directory,
    }[service];
    const credential = service === 'storage' ? sb.accessToken : service === 'directory' ? undefined : sb.apiKey;
    return {
      baseUrl,
      credential,
      sandbox: true,
      ...(service === 'storage' ? { consentSecret: sb.consentSecret } : {}),
    };
  }

  credentialFor(service: ServiceId, baseUrl: string): Promise<string | undefined> {
    return this.credential(service, baseUrl, true);
  }

  private async credential(
    service: ServiceId,
    baseUrl: string,
    fromUserSettings: boolean,
  ): Promise<string | undefined> {
    const decision = decideCredential(await this.secrets.get(service), baseUrl, fromUserSettings);
    switch (decision.kind) {
      case 'none':
        return undefined;
      case 'send':
        return decision.value;
      case 'bind':
        await this.secrets.allow(service, decision.origin);
        return decision.value;
      case 'ask': {
        const id = `${service} ${decision.origin}`;
        let answer = this.asking.get(id);
        if (!answer) {
          answer = this.ask(service, decision.origin, decision.boundTo, fromUserSettings, decision.value).finally(() =>
            this.asking.delete(id),
          );
          this.asking.set(id, answer);
        }
        return answer;
      }
    }
  }

  /** Like workspace trust: a modal question before a stored credential goes to an origin it was not stored for. */
  private async ask(
    service: ServiceId,
    origin: string,
    boundTo: string[],
    fromUserSettings: boolean,
    value: string,
  ): Promise<string> {
    const what = `${SERVICE_LABELS[service]} ${CREDENTIAL_NAME[service]}`;
    const stored = boundTo.length
      ? `It was stored for ${boundTo.join(', ')}.`
      : 'It was stored before API Workbench bound credentials to an endpoint.';
    const source = fromUserSettings
      ? 'your settings'
      : "this workspace's settings (.vscode/settings.json or the folder's settings), which anyone who shares the folder can change";
    const once = 'Allow Once';
    const always = 'Always for This Origin';
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Send my {0} to {1}?', what, origin),
      {
        modal: true,
        detail: vscode.l10n.t(
          '{0} The endpoint now in effect, {1}, comes from {2}. Only allow it if you trust that server with your credential.',
          stored,
          origin,
          source,
        ),
      },
      once,
      always,
    );
    if (choice === always) await this.secrets.allow(service, origin);
    if (choice === once || choice === always) return value;
    throw new CredentialNotSentError(
      `Your ${what} was not sent to ${originOf(origin)}: you declined. Change the endpoint (API Workbench: Switch Endpoints) or allow it when asked.`,
    );
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
