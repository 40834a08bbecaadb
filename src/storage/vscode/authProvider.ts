// Storage sign-in as a VS Code authentication provider: the session shows in the Accounts menu (sign
// out there works), and the client takes its token from `vscode.authentication.getSession`.
//
// Redirect: a loopback listener in the extension host, exposed with `env.asExternalUri`. Chosen over a
// `vscode://` URI handler because Google's "Desktop app" OAuth clients (our default authorization
// server) accept only loopback redirects; asExternalUri keeps the redirect loopback where the browser
// runs next to the extension host or behind a port forward (local, Remote-SSH, WSL, dev containers),
// and gives the forwarded URL (code-server's /proxy/<port>/, Codespaces) where it does not. The flow
// itself (PKCE S256, state, ticket, token exchange) is in core/authorization.ts and core/oauth.ts.
import * as vscode from 'vscode';
import type { Endpoints, FeatureShell, ResolvedEndpoint } from '../../platform/services';
import { accountOf, newSessionRecord, SessionKeeper, type SessionRecord } from '../core/authSessions';
import { buildAuthorization, LoopbackReceiver, rebaseOnto } from '../core/authorization';
import { exchangeCode, OAuthError, type OAuthConfig } from '../core/oauth';
import { clientFor, oauthConfig, type SessionSource } from './connection';
import { registerCommand } from '../../platform/lazy/commandTable';

/** Also in src/storage/contributes.json (`contributes.authentication`). */
export const STORAGE_AUTH_PROVIDER_ID = 'api-workbench-storage';
const RECORD_KEY = 'apiWorkbench.storage.oauthSession';
/** Where earlier versions kept the tokens; removed so no refresh token lingers unused. */
const LEGACY_KEY = 'apiWorkbench.storage.oauthTokens';

const toSession = (r: SessionRecord): vscode.AuthenticationSession => ({
  id: r.id,
  accessToken: r.tokens.accessToken,
  account: r.account,
  scopes: r.scopes,
});

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/** A loopback URL as the user's browser can reach it (only the origin goes through asExternalUri; see rebaseOnto). */
async function reachable(url: string): Promise<string> {
  if (!isLoopback(url)) return url;
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(`${new URL(url).origin}/`));
  return rebaseOnto(url, external.toString(true));
}

export class StorageAuthProvider implements vscode.AuthenticationProvider, SessionSource, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.emitter.event;
  readonly keeper: SessionKeeper;

  constructor(
    private readonly endpoints: Endpoints,
    secrets: vscode.SecretStorage,
  ) {
    this.keeper = new SessionKeeper({
      read: () => Promise.resolve(secrets.get(RECORD_KEY)),
      write: (text) =>
        Promise.resolve(text === undefined ? secrets.delete(RECORD_KEY) : secrets.store(RECORD_KEY, text)),
    });
  }

  private async config(): Promise<OAuthConfig | undefined> {
    return oauthConfig(await this.endpoints.resolve('storage'));
  }

  async getSessions(scopes: readonly string[] | undefined): Promise<vscode.AuthenticationSession[]> {
    // VS Code asks whenever it likes (the Accounts menu): with no session stored the answer needs no endpoint,
    // and resolving one may start the in-process sandbox.
    if (!(await this.keeper.stored())) return [];
    const config = await this.config().catch(() => undefined);
    if (!config) return [];
    const before = await this.keeper.current(config);
    const r = await this.keeper.fresh(config);
    if (!r || (scopes?.length && !scopes.every((s) => r.scopes.includes(s)))) return [];
    if (before && before.tokens.accessToken !== r.tokens.accessToken)
      this.emitter.fire({ added: [], removed: [], changed: [toSession(r)] });
    return [toSession(r)];
  }

  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const endpoint = await this.endpoints.resolve('storage');
    const config = oauthConfig(endpoint);
    if (!config.clientId)
      throw new Error(
        'Set an OAuth client id for the storage service first (setting "apiWorkbench.storage.oauth.clientId"), or paste an access token.',
      );
    const wanted = scopes.length ? [...scopes] : config.scopes;
    const receiver = new LoopbackReceiver();
    try {
      const request = buildAuthorization(config, await reachable(await receiver.listen()), wanted);
      const code = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Signing in to storage: finish in your browser…'),
          cancellable: true,
        },
        async (_progress, cancel) => {
          const abort = new AbortController();
          cancel.onCancellationRequested(() => abort.abort());
          const answer = receiver.waitFor(request, { signal: abort.signal });
          // The browser may come back (even with an error) before openExternal resolves.
          answer.catch(() => undefined);
          // In a browser-hosted window a loopback URL must be rebased by hand (code-server drops its path);
          // desktop VS Code forwards the port of a loopback URL it opens, path and all.
          const open = vscode.env.uiKind === vscode.UIKind.Web ? await reachable(request.url) : request.url;
          if (!(await vscode.env.openExternal(vscode.Uri.parse(open)))) abort.abort();
          return answer;
        },
      );
      const tokens = await exchangeCode(config, code, request.verifier, request.redirectUri);
      const about = await clientFor(endpoint, { token: () => tokens.accessToken })
        .about('user(displayName,emailAddress,permissionId)')
        .catch(() => undefined);
      const record = newSessionRecord(tokens, accountOf(about, config.tokenEndpoint), wanted);
      const previous = await this.keeper.stored();
      await this.keeper.save(record);
      this.emitter.fire({ added: [toSession(record)], removed: previous ? [toSession(previous)] : [], changed: [] });
      return toSession(record);
    } finally {
      receiver.close();
    }
  }

  async removeSession(sessionId: string): Promise<void> {
    const r = await this.keeper.stored();
    if (!r || r.id !== sessionId) return;
    await this.keeper.remove(await this.config().catch(() => undefined));
    this.emitter.fire({ added: [], removed: [toSession(r)], changed: [] });
  }

  async accessToken(endpoint: ResolvedEndpoint): Promise<string | undefined> {
    // Only ask VS Code when there is a session of this endpoint: a signed-out user is not nagged.
    if (!(await this.keeper.current(oauthConfig(endpoint)))) return undefined;
    const silent = await vscode.authentication.getSession(STORAGE_AUTH_PROVIDER_ID, [], { silent: true });
    // Signed in from the Accounts menu but not yet allowed for us: VS Code shows the request there.
    return (silent ?? (await vscode.authentication.getSession(STORAGE_AUTH_PROVIDER_ID, [], {})))?.accessToken;
  }

  async refresh(endpoint: ResolvedEndpoint): Promise<boolean> {
    const r = await this.keeper.refresh(oauthConfig(endpoint));
    if (r) this.emitter.fire({ added: [], removed: [], changed: [toSession(r)] });
    return !!r;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** The provider, its registration, and the Sign In / Sign Out commands of the storage view. */
export function registerStorageAuth(
  endpoints: Endpoints,
  secrets: vscode.SecretStorage,
  shell: FeatureShell,
): { provider: StorageAuthProvider; disposables: vscode.Disposable[] } {
  const provider = new StorageAuthProvider(endpoints, secrets);
  void Promise.resolve(secrets.delete(LEGACY_KEY)).catch(() => undefined);
  const signIn = async (): Promise<boolean> => {
    const config = oauthConfig(await endpoints.resolve('storage'));
    if (!config.clientId) {
      const pick = await vscode.window.showErrorMessage(
        vscode.l10n.t(
          'Set an OAuth client id for the storage service first (setting "apiWorkbench.storage.oauth.clientId"), or paste an access token.',
        ),
        vscode.l10n.t('Open Settings'),
        vscode.l10n.t('Paste Access Token'),
      );
      if (pick === 'Open Settings')
        await vscode.commands.executeCommand('workbench.action.openSettings', 'apiWorkbench.storage.oauth');
      if (pick === 'Paste Access Token') await vscode.commands.executeCommand('apiWorkbench.setCredential');
      return false;
    }
    try {
      const session = await vscode.authentication.getSession(STORAGE_AUTH_PROVIDER_ID, config.scopes, {
        createIfNone: true,
      });
      void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to storage as {0}.', session.account.label));
      return true;
    } catch (e) {
      const message = e instanceof OAuthError ? e.message : e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(vscode.l10n.t('Sign-in failed: {0}', message));
      return false;
    }
  };
  const signOut = async (): Promise<boolean> => {
    const r = await provider.keeper.stored();
    if (r) await provider.removeSession(r.id);
    return true;
  };
  // The entry registered STORAGE_AUTH_PROVIDER_ID (one account) before storage loaded; it forwards to this one.
  shell.authenticationProvider(STORAGE_AUTH_PROVIDER_ID, provider);
  return {
    provider,
    disposables: [
      provider,
      registerCommand('apiWorkbench.storage.signIn', signIn),
      registerCommand('apiWorkbench.storage.signOut', signOut),
    ],
  };
}
