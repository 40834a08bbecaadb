// Builds the storage client from the resolved endpoint (settings → sandbox or a real URL) and
// rebuilds it when the endpoint or credential changes. Requests use the signed-in OAuth session
// of that endpoint when there is one (refreshed as needed), else the pasted or sandbox token.
// Tokens are read per request and live only in SecretStorage.
import * as vscode from 'vscode';
import type { Endpoints, ResolvedEndpoint } from '../../platform/services';
import { StorageClient } from '../core/client';
import { OAuthSession, type OAuthConfig, type TokenSet, type TokenStore } from '../core/oauth';

const TOKENS_KEY = 'apiWorkbench.storage.oauthTokens';

/** Sign-in settings: the sandbox's own authorization server, or the configured (Google's by default). */
export function oauthConfig(endpoint: ResolvedEndpoint): OAuthConfig {
  if (endpoint.sandbox) {
    return {
      authorizationEndpoint: `${endpoint.baseUrl}/o/oauth2/v2/auth`,
      tokenEndpoint: `${endpoint.baseUrl}/o/oauth2/token`,
      revocationEndpoint: `${endpoint.baseUrl}/o/oauth2/revoke`,
      clientId: 'api-workbench',
      scopes: ['https://api-workbench.dev/auth/store'],
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

export class SecretTokenStore implements TokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async load(): Promise<TokenSet | undefined> {
    const raw = await this.secrets.get(TOKENS_KEY);
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as TokenSet;
    } catch {
      return undefined;
    }
  }

  async save(tokens: TokenSet | undefined): Promise<void> {
    if (tokens) await this.secrets.store(TOKENS_KEY, JSON.stringify(tokens));
    else await this.secrets.delete(TOKENS_KEY);
  }
}

export class StorageConnection {
  private current: Promise<{ client: StorageClient; endpoint: ResolvedEndpoint }> | undefined;
  readonly tokens: SecretTokenStore;

  constructor(private readonly endpoints: Endpoints, secrets: vscode.SecretStorage) {
    this.tokens = new SecretTokenStore(secrets);
  }

  /** The client for the current endpoint; throws when it cannot be resolved. */
  async client(): Promise<StorageClient> {
    return (await this.connect()).client;
  }

  async endpoint(): Promise<ResolvedEndpoint> {
    return (await this.connect()).endpoint;
  }

  /** Whether requests currently use a signed-in OAuth session of this endpoint. */
  async signedIn(): Promise<boolean> {
    const t = await this.tokens.load();
    return !!t && t.issuer === oauthConfig(await this.endpoint()).tokenEndpoint;
  }

  reset(): void {
    this.current = undefined;
  }

  private connect(): Promise<{ client: StorageClient; endpoint: ResolvedEndpoint }> {
    this.current ??= (async () => {
      const endpoint = await this.endpoints.resolve('storage');
      // The sandbox always serves /store/v2; a real service may use another service path (drive/v2/).
      const servicePath = endpoint.sandbox ? undefined : vscode.workspace.getConfiguration('apiWorkbench.storage').get<string>('servicePath')?.trim() || undefined;
      const session = new OAuthSession(oauthConfig(endpoint), this.tokens, async () => (await this.endpoints.resolve('storage')).credential);
      const client = new StorageClient({
        baseUrl: endpoint.baseUrl,
        servicePath,
        uploadPath: servicePath ? `upload/${servicePath.replace(/^\/+/, '')}` : undefined,
        auth: session,
      });
      return { client, endpoint };
    })();
    this.current.catch(() => (this.current = undefined));
    return this.current;
  }
}
