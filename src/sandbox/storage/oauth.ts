// A small OAuth 2.0 authorization server for the sandbox, so the whole sign-in flow (authorization
// code with PKCE on a loopback redirect, refresh, revoke) runs without an account:
//   GET  /o/oauth2/v2/auth          approve page (the user's browser)
//   POST /o/oauth2/v2/auth/decision the page's form → 302 to the redirect URI with code or error
//   POST /o/oauth2/token            authorization_code and refresh_token grants (form-encoded)
//   POST /o/oauth2/revoke           revokes an access or refresh token
// Issued access tokens are accepted by the storage API until they expire.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { readBody } from '../http';

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  expires: number;
}

export class OAuthServer {
  private readonly codes = new Map<string, PendingCode>();
  private readonly access = new Map<string, { expires: number; refresh?: string }>();
  private readonly refresh = new Map<string, { clientId: string; scope: string }>();
  /** Lifetime of issued access tokens; tests shorten it to exercise refreshing. */
  accessTtlSeconds = 3600;

  constructor(private readonly now: () => number = Date.now) {}

  accepts(token: string | undefined | null): boolean {
    if (!token) return false;
    const t = this.access.get(token);
    return !!t && t.expires > this.now();
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const p = url.pathname;
    if (req.method === 'GET' && p === '/o/oauth2/v2/auth') return this.approvePage(res, url.searchParams);
    if (req.method === 'POST' && p === '/o/oauth2/v2/auth/decision') return this.decision(res, await form(req));
    if (req.method === 'POST' && p === '/o/oauth2/token') return this.token(res, await form(req));
    if (req.method === 'POST' && p === '/o/oauth2/revoke') return this.revoke(res, url.searchParams.get('token') ?? (await form(req)).get('token'));
    json(res, 404, { error: 'not_found', error_description: `No OAuth endpoint at ${p}` });
  }

  private checkRequest(q: URLSearchParams): string | undefined {
    if (q.get('response_type') !== 'code') return 'response_type must be code';
    if (!q.get('client_id')) return 'client_id is required';
    const redirect = q.get('redirect_uri') ?? '';
    let u: URL;
    try {
      u = new URL(redirect);
    } catch {
      return 'redirect_uri is not a URL';
    }
    // Desktop clients must use a loopback redirect (the out-of-band flow is gone).
    if (u.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) return 'redirect_uri must be a loopback address';
    if (!q.get('code_challenge') || q.get('code_challenge_method') !== 'S256') return 'PKCE with code_challenge_method=S256 is required';
    return undefined;
  }

  private approvePage(res: ServerResponse, q: URLSearchParams): void {
    const problem = this.checkRequest(q);
    if (problem) return html(res, 400, `<h1>Sign-in request rejected</h1><p>${esc(problem)}</p>`);
    const hidden = [...q.entries()].map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('');
    const scopes = (q.get('scope') ?? '').split(/\s+/).filter(Boolean).map((s) => `<li><code>${esc(s)}</code></li>`).join('');
    html(
      res,
      200,
      `<h1>API Workbench sandbox</h1><p><strong>${esc(q.get('client_id')!)}</strong> wants to access the sandbox storage of <strong>Sandbox User</strong>.</p><ul>${scopes}</ul>` +
        `<form method="post" action="/o/oauth2/v2/auth/decision">${hidden}<button name="decision" value="approve" id="approve">Approve</button> <button name="decision" value="deny" id="deny">Deny</button></form>`,
    );
  }

  private decision(res: ServerResponse, f: URLSearchParams): void {
    const problem = this.checkRequest(f);
    if (problem) return html(res, 400, `<h1>Sign-in request rejected</h1><p>${esc(problem)}</p>`);
    const target = new URL(f.get('redirect_uri')!);
    const state = f.get('state');
    if (state) target.searchParams.set('state', state);
    if (f.get('decision') !== 'approve') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(24).toString('base64url');
      this.codes.set(code, { clientId: f.get('client_id')!, redirectUri: f.get('redirect_uri')!, challenge: f.get('code_challenge')!, scope: f.get('scope') ?? '', expires: this.now() + 10 * 60_000 });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, { location: target.href, 'content-length': '0' });
    res.end();
  }

  private token(res: ServerResponse, f: URLSearchParams): void {
    const grant = f.get('grant_type');
    if (grant === 'authorization_code') {
      const code = f.get('code') ?? '';
      const pending = this.codes.get(code);
      this.codes.delete(code); // single use
      if (!pending || pending.expires < this.now()) return json(res, 400, { error: 'invalid_grant', error_description: 'The authorization code is invalid or expired.' });
      if (pending.clientId !== f.get('client_id') || pending.redirectUri !== f.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'client_id or redirect_uri does not match the authorization request.' });
      const verifier = f.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'The code verifier does not match the challenge.' });
      const refreshToken = `sbr-${randomBytes(24).toString('base64url')}`;
      this.refresh.set(refreshToken, { clientId: pending.clientId, scope: pending.scope });
      return json(res, 200, { ...this.issue(refreshToken), refresh_token: refreshToken, scope: pending.scope });
    }
    if (grant === 'refresh_token') {
      const rt = f.get('refresh_token') ?? '';
      const known = this.refresh.get(rt);
      if (!known || known.clientId !== f.get('client_id')) return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return json(res, 200, { ...this.issue(rt), scope: known.scope });
    }
    json(res, 400, { error: 'unsupported_grant_type', error_description: `Unsupported grant_type ${grant ?? ''}` });
  }

  private issue(refreshToken: string): { access_token: string; expires_in: number; token_type: 'Bearer' } {
    const token = `sba-${randomBytes(24).toString('base64url')}`;
    this.access.set(token, { expires: this.now() + this.accessTtlSeconds * 1000, refresh: refreshToken });
    return { access_token: token, expires_in: this.accessTtlSeconds, token_type: 'Bearer' };
  }

  private revoke(res: ServerResponse, token: string | null): void {
    if (!token || (!this.access.has(token) && !this.refresh.has(token))) return json(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
    if (this.refresh.delete(token)) {
      // Revoking a refresh token also ends the access tokens issued from it.
      for (const [a, t] of this.access) if (t.refresh === token) this.access.delete(a);
    }
    this.access.delete(token);
    json(res, 200, {});
  }
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store' });
  res.end(text);
}

function html(res: ServerResponse, status: number, body: string): void {
  const text = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sandbox sign-in</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto">${body}</body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
