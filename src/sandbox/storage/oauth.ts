// A small OAuth 2.0 authorization server for the sandbox, so the whole sign-in flow (authorization
// code with PKCE, refresh, revoke) runs without an account:
//   GET  /o/oauth2/v2/auth          consent page (the user's browser)
//   POST /o/oauth2/v2/auth/decision the page's form → 302 to the redirect URI with code or error
//   POST /o/oauth2/token            authorization_code and refresh_token grants (form-encoded)
//   POST /o/oauth2/revoke           revokes an access or refresh token
// Issued access tokens are accepted by the storage API until they expire.
//
// Consent is not free for the asking: the sandbox listens on loopback, so every local process can
// reach this page. The consent page is only shown for a request that carries a ticket signed with
// the per-run consent secret (known only to whoever started the sandbox: the extension), and the
// approving POST must bring both that ticket and the CSRF token of the page that was shown; each
// consent is single use. Anything else gets 403 with an OAuth error, and no code is issued.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { readBody } from '../http';
import { CONSENT_TICKET_PARAM, ticketMatches, type ConsentBinding } from '../../shared/wire/sandboxConsent';

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  expires: number;
}

/** An authorization request whose consent page was shown, keyed by the page's CSRF token. */
interface ShownConsent {
  binding: ConsentBinding;
  ticket: string;
  scope: string;
  expires: number;
}

/** Consent pages shown but not yet answered; old ones are dropped beyond this many. */
const MAX_SHOWN = 64;
const CONSENT_TTL_MS = 10 * 60_000;
/** Schemes a redirect may never use: they would run or read something in the browser. */
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'about:', 'vbscript:', 'filesystem:']);

export class OAuthServer {
  private readonly codes = new Map<string, PendingCode>();
  private readonly access = new Map<string, { expires: number; refresh?: string }>();
  private readonly refresh = new Map<string, { clientId: string; scope: string }>();
  private readonly shown = new Map<string, ShownConsent>();
  /** Tickets already answered (approve or deny): a consent link works once. */
  private readonly answered = new Set<string>();
  /** Lifetime of issued access tokens; tests shorten it to exercise refreshing. */
  accessTtlSeconds = 3600;

  /** Without a consent secret no consent page is ever shown (fail closed). */
  constructor(
    private readonly consentSecret?: string,
    private readonly now: () => number = Date.now,
  ) {}

  accepts(token: string | undefined | null): boolean {
    if (!token) return false;
    const t = this.access.get(token);
    return !!t && t.expires > this.now();
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const p = url.pathname;
    if (req.method === 'GET' && p === '/o/oauth2/v2/auth') return this.consentPage(res, url.searchParams);
    if (req.method === 'POST' && p === '/o/oauth2/v2/auth/decision') return this.decision(res, await form(req));
    if (req.method === 'POST' && p === '/o/oauth2/token') return this.token(res, await form(req));
    if (req.method === 'POST' && p === '/o/oauth2/revoke')
      return this.revoke(res, url.searchParams.get('token') ?? (await form(req)).get('token'));
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
    // The sandbox's client is registered for native-app redirects (RFC 8252): a loopback listener,
    // the same listener behind a remote window's port forward (https, or http on loopback), or an
    // app-claimed scheme. Plain http to another host would carry the code in the clear.
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
    if (UNSAFE_SCHEMES.has(u.protocol) || (u.protocol === 'http:' && !loopback))
      return 'redirect_uri must be a loopback address, https, or an app scheme';
    if (!q.get('code_challenge') || q.get('code_challenge_method') !== 'S256')
      return 'PKCE with code_challenge_method=S256 is required';
    return undefined;
  }

  private consentPage(res: ServerResponse, q: URLSearchParams): void {
    const problem = this.checkRequest(q);
    if (problem)
      return html(res, 400, `<h1>Sign-in request rejected</h1><p>Error 400: invalid_request</p><p>${esc(problem)}</p>`);
    const binding: ConsentBinding = {
      clientId: q.get('client_id')!,
      redirectUri: q.get('redirect_uri')!,
      state: q.get('state') ?? '',
      codeChallenge: q.get('code_challenge')!,
    };
    const ticket = q.get(CONSENT_TICKET_PARAM);
    if (!ticketMatches(this.consentSecret, binding, ticket) || this.answered.has(ticket!)) {
      return refused(
        res,
        'This sign-in request was not started by API Workbench for this sandbox, or it was already answered. Start the sign-in again from VS Code.',
      );
    }
    const csrf = randomBytes(32).toString('base64url');
    this.remember(csrf, {
      binding,
      ticket: ticket!,
      scope: q.get('scope') ?? '',
      expires: this.now() + CONSENT_TTL_MS,
    });
    const scopes = (q.get('scope') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((s) => `<li><code>${esc(s)}</code></li>`)
      .join('');
    // The action is relative: behind a remote window's port forward the page lives under a path prefix.
    html(
      res,
      200,
      `<h1>API Workbench sandbox</h1><p><strong>${esc(binding.clientId)}</strong> wants to access the sandbox storage of <strong>Sandbox User</strong>.</p><ul>${scopes}</ul>` +
        `<form method="post" action="auth/decision"><input type="hidden" name="csrf_token" value="${esc(csrf)}"><input type="hidden" name="${CONSENT_TICKET_PARAM}" value="${esc(ticket!)}">` +
        `<button name="decision" value="approve" id="allow">Allow</button> <button name="decision" value="deny" id="deny">Deny</button></form>`,
    );
  }

  private remember(csrf: string, consent: ShownConsent): void {
    const now = this.now();
    for (const [k, v] of this.shown) if (v.expires <= now) this.shown.delete(k);
    while (this.shown.size >= MAX_SHOWN) this.shown.delete(this.shown.keys().next().value!);
    this.shown.set(csrf, consent);
  }

  private decision(res: ServerResponse, f: URLSearchParams): void {
    const csrf = f.get('csrf_token') ?? '';
    const consent = this.shown.get(csrf);
    const ticket = f.get(CONSENT_TICKET_PARAM);
    // The CSRF token names the request the user saw; the ticket proves the extension started it.
    if (
      !consent ||
      consent.expires <= this.now() ||
      consent.ticket !== ticket ||
      !ticketMatches(this.consentSecret, consent.binding, ticket) ||
      this.answered.has(consent.ticket)
    ) {
      return refused(
        res,
        'This consent form was not issued for this sign-in request, has expired, or was already answered. Start the sign-in again from VS Code.',
      );
    }
    this.shown.delete(csrf);
    this.answered.add(consent.ticket);
    const { binding } = consent;
    const target = new URL(binding.redirectUri);
    if (binding.state) target.searchParams.set('state', binding.state);
    if (f.get('decision') !== 'approve') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(24).toString('base64url');
      this.codes.set(code, {
        clientId: binding.clientId,
        redirectUri: binding.redirectUri,
        challenge: binding.codeChallenge,
        scope: consent.scope,
        expires: this.now() + 10 * 60_000,
      });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, {
      location: target.href,
      'content-length': '0',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    res.end();
  }

  private token(res: ServerResponse, f: URLSearchParams): void {
    const grant = f.get('grant_type');
    if (grant === 'authorization_code') {
      const code = f.get('code') ?? '';
      const pending = this.codes.get(code);
      this.codes.delete(code); // single use
      if (!pending || pending.expires < this.now())
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'The authorization code is invalid or expired.',
        });
      if (pending.clientId !== f.get('client_id') || pending.redirectUri !== f.get('redirect_uri'))
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'client_id or redirect_uri does not match the authorization request.',
        });
      const verifier = f.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge)
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'The code verifier does not match the challenge.',
        });
      const refreshToken = `sbr-${randomBytes(24).toString('base64url')}`;
      this.refresh.set(refreshToken, { clientId: pending.clientId, scope: pending.scope });
      return json(res, 200, { ...this.issue(refreshToken), refresh_token: refreshToken, scope: pending.scope });
    }
    if (grant === 'refresh_token') {
      const rt = f.get('refresh_token') ?? '';
      const known = this.refresh.get(rt);
      if (!known || known.clientId !== f.get('client_id'))
        return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
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
    if (!token || (!this.access.has(token) && !this.refresh.has(token)))
      return json(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
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
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** 403 with the OAuth error code on the page, the way the real consent screen reports a blocked request. */
function refused(res: ServerResponse, description: string): void {
  html(res, 403, `<h1>Access blocked</h1><p>Error 403: access_denied</p><p>${esc(description)}</p>`);
}

function html(res: ServerResponse, status: number, body: string): void {
  const text = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sandbox sign-in</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto">${body}</body></html>`;
  // Not framable (no click-jacking of Allow), not cached, and the ticket in the URL is not sent on as a referrer.
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-frame-options': 'DENY',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
  res.end(text);
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
