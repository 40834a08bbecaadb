// OAuth 2.0 for desktop apps: authorization code with PKCE (S256) on a loopback redirect, token
// refresh and revocation. Editor-free: the browser is opened through an injected function, and
// tokens are handed to an injected store (SecretStorage in the extension). Tokens are never logged.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { defaultFetch, type HttpFetch } from '../../shared/http';
import type { AuthProvider } from './transport';

export interface OAuthConfig {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint?: string;
  clientId: string;
  /** Desktop clients of some providers get a (non-secret) client secret; sent when set. */
  clientSecret?: string;
  scopes: string[];
}

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  scope?: string;
  /** Token endpoint the set came from: tokens are only used with the server that issued them. */
  issuer: string;
}

export class OAuthError extends Error {
  constructor(readonly code: string, description: string) {
    super(description ? `${code}: ${description}` : code);
    this.name = 'OAuthError';
  }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function tokenRequest(config: OAuthConfig, params: Record<string, string>, fetchImpl: HttpFetch, now: () => number): Promise<TokenSet & { rawScope?: string }> {
  const body = new URLSearchParams({ client_id: config.clientId, ...(config.clientSecret ? { client_secret: config.clientSecret } : {}), ...params });
  const res = await fetchImpl(config.tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: body.toString() });
  const text = await res.text();
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a non-JSON answer is reported below
  }
  if (!res.ok || typeof data.access_token !== 'string') {
    throw new OAuthError(String(data.error ?? `http_${res.status}`), String(data.error_description ?? text.slice(0, 200)));
  }
  return {
    accessToken: data.access_token,
    refreshToken: typeof data.refresh_token === 'string' ? data.refresh_token : undefined,
    expiresAt: now() + Number(data.expires_in ?? 3600) * 1000,
    scope: typeof data.scope === 'string' ? data.scope : undefined,
    issuer: config.tokenEndpoint,
  };
}

export interface SignInOptions {
  /** Opens the authorization URL in the user's browser. */
  openBrowser(url: string): Promise<unknown> | unknown;
  signal?: AbortSignal;
  /** Gives up when the browser never comes back. Default 5 minutes. */
  timeoutMs?: number;
  fetch?: HttpFetch;
  now?: () => number;
}

/** Runs the whole authorization-code flow; resolves with the tokens. */
export async function signIn(config: OAuthConfig, opts: SignInOptions): Promise<TokenSet> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(16).toString('base64url');
  const fetchImpl = opts.fetch ?? defaultFetch;
  const now = opts.now ?? Date.now;
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  try {
    const codePromise = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new OAuthError('timeout', 'The browser did not return from the sign-in page in time.')), opts.timeoutMs ?? 5 * 60_000);
      opts.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new OAuthError('cancelled', 'Sign-in was cancelled.'));
      });
      server.on('request', (req, res) => {
        const u = new URL(req.url ?? '/', redirectUri);
        if (u.pathname !== '/callback') {
          res.writeHead(404).end();
          return;
        }
        const finish = (ok: boolean, text: string) => {
          res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!DOCTYPE html><html><body style="font-family:sans-serif"><h1>${ok ? 'Signed in' : 'Sign-in failed'}</h1><p>${text}</p></body></html>`);
        };
        // A callback with a foreign state is not ours (or is forged): ignore it, keep waiting.
        if (u.searchParams.get('state') !== state) return finish(false, 'Unexpected sign-in response.');
        clearTimeout(timer);
        const error = u.searchParams.get('error');
        if (error) {
          finish(false, 'Access was not granted. You can close this window.');
          return reject(new OAuthError(error, u.searchParams.get('error_description') ?? 'The authorization was denied.'));
        }
        finish(true, 'You can close this window and return to VS Code.');
        resolve(u.searchParams.get('code') ?? '');
      });
    });
    // The browser may come back (even with an error) before openBrowser resolves.
    codePromise.catch(() => undefined);
    const auth = new URL(config.authorizationEndpoint);
    auth.search = new URLSearchParams({
      client_id: config.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: config.scopes.join(' '),
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    }).toString();
    await opts.openBrowser(auth.href);
    const code = await codePromise;
    return await tokenRequest(config, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri }, fetchImpl, now);
  } finally {
    server.close();
    server.closeAllConnections?.();
  }
}

export async function refreshTokens(config: OAuthConfig, refreshToken: string, fetchImpl: HttpFetch = defaultFetch, now: () => number = Date.now): Promise<TokenSet> {
  const t = await tokenRequest(config, { grant_type: 'refresh_token', refresh_token: refreshToken }, fetchImpl, now);
  // Providers usually keep the refresh token unchanged and omit it from the answer.
  return { ...t, refreshToken: t.refreshToken ?? refreshToken };
}

export async function revokeToken(config: OAuthConfig, token: string, fetchImpl: HttpFetch = defaultFetch): Promise<void> {
  if (!config.revocationEndpoint) return;
  await fetchImpl(config.revocationEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() }).catch(() => undefined);
}

export interface TokenStore {
  load(): Promise<TokenSet | undefined>;
  save(tokens: TokenSet | undefined): Promise<void>;
}

/**
 * The client's AuthProvider for signed-in sessions: hands out the access token, refreshing it
 * shortly before it expires (and once more when the server says 401).
 */
export class OAuthSession implements AuthProvider {
  private refreshing: Promise<boolean> | undefined;

  constructor(private readonly config: OAuthConfig, private readonly store: TokenStore, private readonly fallback?: () => Promise<string | undefined> | string | undefined, private readonly now: () => number = Date.now, private readonly fetchImpl?: HttpFetch) {}

  async token(): Promise<string | undefined> {
    const t = await this.current();
    if (!t) return this.fallback?.();
    if (t.expiresAt - 60_000 <= this.now() && t.refreshToken) {
      if (await this.refresh()) return (await this.current())?.accessToken;
    }
    return t.accessToken;
  }

  refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      const t = await this.current();
      if (!t?.refreshToken) return false;
      try {
        await this.store.save(await refreshTokens(this.config, t.refreshToken, this.fetchImpl, this.now));
        return true;
      } catch (e) {
        // A revoked or expired grant: forget it so the user is asked to sign in again.
        if (e instanceof OAuthError && e.code === 'invalid_grant') await this.store.save(undefined);
        return false;
      }
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async current(): Promise<TokenSet | undefined> {
    const t = await this.store.load();
    return t && t.issuer === this.config.tokenEndpoint ? t : undefined;
  }
}
