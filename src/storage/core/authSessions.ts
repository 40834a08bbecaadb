// The signed-in storage session as VS Code's Accounts menu sees it (one account, its scopes) and the
// tokens behind it, kept as one record in secret storage. Editor-free: the store is injected.
// The record is only used with the token endpoint that issued it, and refreshing is single-flight.
import { randomBytes } from 'node:crypto';
import type { HttpFetch } from '../../shared/http';
import { sameOrigin } from '../../shared/http';
import { OAuthError, refreshTokens, revokeToken, type OAuthConfig, type TokenSet } from './oauth';

export interface StorageAccount {
  id: string;
  label: string;
}

export interface SessionRecord {
  id: string;
  account: StorageAccount;
  scopes: string[];
  tokens: TokenSet;
}

/** Where the record lives (SecretStorage in the extension): text in, text out. */
export interface RecordStore {
  read(): Promise<string | undefined>;
  write(text: string | undefined): Promise<void>;
}

/** Refresh this long before the access token expires. */
const EARLY_MS = 60_000;

export function newSessionRecord(tokens: TokenSet, account: StorageAccount, scopes: readonly string[]): SessionRecord {
  return { id: randomBytes(12).toString('hex'), account, scopes: [...scopes], tokens };
}

/** The account label of an `about` answer; falls back to a neutral name, never to a token. */
export function accountOf(
  about: { user?: { displayName?: string; emailAddress?: string; permissionId?: string } } | undefined,
  issuer: string,
): StorageAccount {
  const u = about?.user;
  const id = u?.emailAddress || u?.permissionId || new URL(issuer).host;
  const label = u?.emailAddress
    ? u.displayName
      ? `${u.displayName} <${u.emailAddress}>`
      : u.emailAddress
    : u?.displayName || `Storage account (${new URL(issuer).host})`;
  return { id, label };
}

/** Reads a stored record; anything malformed (an older format, hand edits) counts as signed out. */
export function parseSessionRecord(text: string | undefined): SessionRecord | undefined {
  if (!text) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  const r = v as Partial<Record<keyof SessionRecord, unknown>>;
  const t = r.tokens as Partial<Record<keyof TokenSet, unknown>> | undefined;
  const a = r.account as Partial<Record<keyof StorageAccount, unknown>> | undefined;
  const isStr = (x: unknown): x is string => typeof x === 'string';
  if (!isStr(r.id) || !a || !isStr(a.id) || !isStr(a.label) || !Array.isArray(r.scopes) || !r.scopes.every(isStr))
    return undefined;
  if (
    !t ||
    !isStr(t.accessToken) ||
    !isStr(t.issuer) ||
    typeof t.expiresAt !== 'number' ||
    (t.refreshToken !== undefined && !isStr(t.refreshToken)) ||
    (t.scope !== undefined && !isStr(t.scope))
  )
    return undefined;
  return {
    id: r.id,
    account: { id: a.id, label: a.label },
    scopes: r.scopes,
    tokens: {
      accessToken: t.accessToken,
      expiresAt: t.expiresAt,
      issuer: t.issuer,
      ...(t.refreshToken !== undefined ? { refreshToken: t.refreshToken } : {}),
      ...(t.scope !== undefined ? { scope: t.scope } : {}),
    },
  };
}

/** Whether a record may be used with `config`: issued by exactly this token endpoint (so same origin). */
export function boundTo(record: SessionRecord, config: OAuthConfig): boolean {
  return record.tokens.issuer === config.tokenEndpoint && sameOrigin(record.tokens.issuer, config.tokenEndpoint);
}

export class SessionKeeper {
  private refreshing: Promise<SessionRecord | undefined> | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly opts: { fetch?: HttpFetch; now?: () => number } = {},
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The stored record, whatever endpoint it belongs to. */
  async stored(): Promise<SessionRecord | undefined> {
    return parseSessionRecord(await this.store.read());
  }

  /** The record of `config`'s token endpoint, if any (not refreshed). */
  async current(config: OAuthConfig): Promise<SessionRecord | undefined> {
    const r = await this.stored();
    return r && boundTo(r, config) ? r : undefined;
  }

  /** The current record with an access token that is not about to expire (refreshing when needed). */
  async fresh(config: OAuthConfig): Promise<SessionRecord | undefined> {
    const r = await this.current(config);
    if (!r || r.tokens.expiresAt - EARLY_MS > this.now() || !r.tokens.refreshToken) return r;
    return (await this.refresh(config)) ?? (await this.current(config));
  }

  /**
   * Refreshes now (after a 401, or near expiry). Resolves the refreshed record, or undefined when
   * refreshing is impossible; a dead grant (invalid_grant) is forgotten so the user signs in again.
   */
  refresh(config: OAuthConfig): Promise<SessionRecord | undefined> {
    this.refreshing ??= (async () => {
      const r = await this.current(config);
      if (!r?.tokens.refreshToken) return undefined;
      try {
        const tokens = await refreshTokens(config, r.tokens, this.opts.fetch, this.opts.now);
        const next = { ...r, tokens };
        await this.save(next);
        return next;
      } catch (e) {
        if (e instanceof OAuthError && e.code === 'invalid_grant') await this.store.write(undefined);
        return undefined;
      }
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  save(record: SessionRecord): Promise<void> {
    return this.store.write(JSON.stringify(record));
  }

  /** Signs out: revokes at the issuer's origin when `config` is that issuer's, and forgets the record. */
  async remove(config: OAuthConfig | undefined): Promise<SessionRecord | undefined> {
    const r = await this.stored();
    if (r && config && boundTo(r, config)) await revokeToken(config, r.tokens, this.opts.fetch);
    await this.store.write(undefined);
    return r;
  }
}
