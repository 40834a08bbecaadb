// Builds the storage client from the resolved endpoint (settings → sandbox or a real URL) and
// rebuilds it when the endpoint changes. Requests use the signed-in session of that endpoint, taken
// per request from VS Code's authentication API (our provider refreshes it), else the pasted or
// sandbox token. Tokens live only in SecretStorage.
import * as vscode from 'vscode';
import type { Endpoints, ResolvedEndpoint } from '../../platform/services';
import { StorageClient } from '../core/client';
import type { OAuthConfig } from '../core/oauth';
import type { AuthProvider } from '../core/transport';

/** Sign-in settings: the sandbox's own authorization server, or the configured (Google's by default). */
export function oauthConfig(endpoint: ResolvedEndpoint): OAuthConfig {
  if (endpoint.sandbox) {
    return {
      authorizationEndpoint: `${endpoint.baseUrl}/o/oauth2/v2/auth`,
      tokenEndpoint: `${endpoint.baseUrl}/o/oauth2/token`,
      revocationEndpoint: `${endpoint.baseUrl}/o/oauth2/revoke`,
      clientId: 'api-workbench',
      scopes: ['https://api-workbench.dev/auth/store'],
      consentSecret: endpoint.consentSecret,
    };
  }
  const c = vscode.workspace.getConfiguration('apiWorkbench.storage.oauth');
  return {
    authorizationEndpoint: c.get<string>('authorizationEndpoint') || 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: c.get<string>('tokenEndpoint') || 'https://oauth2.googleapis.com/token',
    revocationEndpoint: c.get<string>('revocationEndpoint') || 'https://oauth2.googleapis.com/revoke',
    clientId: c.get<string>('clientId') ?? '',
    scopes: c.get<string[]>('scopes') ?? ['https://www.googleapis.com/auth/drive'],
  };
}

/** A client of `endpoint` (the sandbox always serves /store/v2; a real service may use drive/v2/). */
export function clientFor(endpoint: ResolvedEndpoint, auth: AuthProvider): StorageClient {
  const servicePath = endpoint.sandbox
    ? undefined
    : vscode.workspace.getConfiguration('apiWorkbench.storage').get<string>('servicePath')?.trim() || undefined;
  return new StorageClient({
    baseUrl: endpoint.baseUrl,
    servicePath,
    uploadPath: servicePath ? `upload/${servicePath.replace(/^\/+/, '')}` : undefined,
    auth,
  });
}

/** Where a signed-in session's token comes from (the authentication provider of storage). */
export interface SessionSource {
  /** The session's access token for `endpoint`, if signed in there and this extension may use it. */
  accessToken(endpoint: ResolvedEndpoint): Promise<string | undefined>;
  /** After a 401: refreshes the session; true when a new token is available. */
  refresh(endpoint: ResolvedEndpoint): Promise<boolean>;
}

export class StorageConnection {
  private current: Promise<{ client: StorageClient; endpoint: ResolvedEndpoint }> | undefined;

  /** Runs whenever a client is about to be built: at the first request for one and at the first after each reset. */
  onConnect: (() => void) | undefined;

  constructor(
    private readonly endpoints: Endpoints,
    private readonly sessions: SessionSource,
  ) {}

  /** The client for the current endpoint; throws when it cannot be resolved. */
  async client(): Promise<StorageClient> {
    return (await this.connect()).client;
  }

  async endpoint(): Promise<ResolvedEndpoint> {
    return (await this.connect()).endpoint;
  }

  reset(): void {
    this.current = undefined;
  }

  private connect(): Promise<{ client: StorageClient; endpoint: ResolvedEndpoint }> {
    if (this.current) return this.current;
    this.current = (async () => {
      const endpoint = await this.endpoints.resolve('storage');
      const client = clientFor(endpoint, {
        token: async () => {
          const now = await this.endpoints.resolve('storage');
          return (await this.sessions.accessToken(now)) ?? now.credential;
        },
        refresh: async () => this.sessions.refresh(await this.endpoints.resolve('storage')),
      });
      return { client, endpoint };
    })();
    const current = this.current;
    current.catch(() => this.current === current && (this.current = undefined));
    this.onConnect?.();
    return current;
  }
}
