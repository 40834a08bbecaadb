// OAuth 2.0 token endpoint calls for storage sign-in: exchanging an authorization code (PKCE),
// refreshing and revoking. Editor-free; tokens are never logged. A token set remembers which token
// endpoint issued it, and its refresh token is only ever sent back to that endpoint's origin.
import { defaultFetch, sameOrigin, type HttpFetch } from '../../shared/http';

export interface OAuthConfig {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint?: string;
  clientId: string;
  /** Desktop clients of some providers get a (non-secret) client secret; sent when set. */
  clientSecret?: string;
  scopes: string[];
  /** Only for the built-in sandbox: signs the consent ticket its consent page requires. */
  consentSecret?: string;
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
  constructor(
    readonly code: string,
    description: string,
  ) {
    super(description ? `${code}: ${description}` : code);
    this.name = 'OAuthError';
  }
}

/** Parses a token endpoint answer; errors keep the server's OAuth code, never the request. */
export function parseTokenResponse(status: number, text: string, issuer: string, now: number): TokenSet {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
  } catch {
    // a non-JSON answer is reported below
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const accessToken = str(data.access_token);
  if (status < 200 || status >= 300 || !accessToken) {
    const code = str(data.error) ?? `http_${status}`;
    const description = str(data.error_description) ?? (text.trim().startsWith('<') ? '' : text.slice(0, 200));
    throw new OAuthError(code, description);
  }
  const expiresIn = Number(data.expires_in);
  return {
    accessToken,
    refreshToken: str(data.refresh_token),
    expiresAt: now + (Number.isFinite(expiresIn) && expiresIn >= 0 ? expiresIn : 3600) * 1000,
    scope: str(data.scope),
    issuer,
  };
}

async function tokenRequest(
  config: OAuthConfig,
  params: Record<string, string>,
  fetchImpl: HttpFetch,
  now: () => number,
): Promise<TokenSet> {
  const body = new URLSearchParams({
    client_id: config.clientId,
    ...(config.clientSecret ? { client_secret: config.clientSecret } : {}),
    ...params,
  });
  const res = await fetchImpl(config.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: body.toString(),
    trace: { feature: 'sign-in' },
  });
  return parseTokenResponse(res.status, await res.text(), config.tokenEndpoint, now());
}

/** Redeems the code of a finished authorization (the verifier proves we started it). */
export function exchangeCode(
  config: OAuthConfig,
  code: string,
  verifier: string,
  redirectUri: string,
  fetchImpl: HttpFetch = defaultFetch,
  now: () => number = Date.now,
): Promise<TokenSet> {
  return tokenRequest(
    config,
    { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri },
    fetchImpl,
    now,
  );
}

/** Refreshes `tokens` at the endpoint that issued them; refuses to send the refresh token anywhere else. */
export async function refreshTokens(
  config: OAuthConfig,
  tokens: TokenSet,
  fetchImpl: HttpFetch = defaultFetch,
  now: () => number = Date.now,
): Promise<TokenSet> {
  if (!tokens.refreshToken) throw new OAuthError('invalid_grant', 'There is no refresh token.');
  if (tokens.issuer !== config.tokenEndpoint || !sameOrigin(tokens.issuer, config.tokenEndpoint)) {
    throw new OAuthError('issuer_mismatch', 'The sign-in belongs to another token endpoint.');
  }
  const t = await tokenRequest(
    config,
    { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
    fetchImpl,
    now,
  );
  // Providers usually keep the refresh token unchanged and omit it from the answer.
  return { ...t, refreshToken: t.refreshToken ?? tokens.refreshToken };
}

/** Best-effort revocation, only at an endpoint of the issuer's origin. Returns whether it was sent. */
export async function revokeToken(
  config: OAuthConfig,
  tokens: TokenSet,
  fetchImpl: HttpFetch = defaultFetch,
): Promise<boolean> {
  const endpoint = config.revocationEndpoint;
  if (!endpoint || !sameOrigin(tokens.issuer, endpoint)) return false;
  const token = tokens.refreshToken ?? tokens.accessToken;
  await fetchImpl(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
    trace: { feature: 'sign-in' },
  }).catch(() => undefined);
  return true;
}
