// The browser half of storage sign-in (authorization code with PKCE S256, RFC 7636 / RFC 8252):
// building the authorization URL, receiving the redirect on a loopback listener, and checking it.
// Editor-free: the adapter decides how the browser is opened and how the listener's address is
// exposed to a browser that may run on another machine (VS Code's asExternalUri).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { CONSENT_TICKET_PARAM, consentTicket } from '../../shared/wire/sandboxConsent';
import { OAuthError, type OAuthConfig } from './oauth';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** One authorization attempt: what to open, and what the answer must match. */
export interface AuthorizationRequest {
  url: string;
  state: string;
  verifier: string;
  redirectUri: string;
}

export function buildAuthorization(
  config: OAuthConfig,
  redirectUri: string,
  scopes: readonly string[] = config.scopes,
): AuthorizationRequest {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(16).toString('base64url');
  const params = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: scopes.join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    access_type: 'offline',
    prompt: 'consent',
  });
  if (config.consentSecret) {
    params.set(
      CONSENT_TICKET_PARAM,
      consentTicket(config.consentSecret, { clientId: config.clientId, redirectUri, state, codeChallenge: challenge }),
    );
  }
  const url = new URL(config.authorizationEndpoint);
  // Keep any query the endpoint already has (some providers put a tenant there).
  for (const [k, v] of params) url.searchParams.set(k, v);
  return { url: url.href, state, verifier, redirectUri };
}

export type RedirectOutcome =
  { kind: 'code'; code: string } | { kind: 'error'; error: OAuthError } | { kind: 'foreign' };

/**
 * Reads the redirect's query. A foreign or missing `state` is not our answer (it may be forged by
 * another local process, or belong to an earlier attempt): it is ignored, never an error.
 */
export function readRedirect(request: Pick<AuthorizationRequest, 'state'>, query: URLSearchParams): RedirectOutcome {
  if (query.get('state') !== request.state) return { kind: 'foreign' };
  const error = query.get('error');
  if (error)
    return {
      kind: 'error',
      error: new OAuthError(error, query.get('error_description') ?? 'The authorization was denied.'),
    };
  const code = query.get('code');
  if (!code)
    return {
      kind: 'error',
      error: new OAuthError('invalid_response', 'The redirect carried neither a code nor an error.'),
    };
  return { kind: 'code', code };
}

/**
 * Puts a URL's path and query under an external base. VS Code's asExternalUri maps a loopback origin
 * to what the user's browser can reach (the same origin locally, a forwarded port in a remote window,
 * a `/proxy/<port>/` path in code-server, which keeps only the origin of what it is given), so only the
 * origin is resolved and the rest is carried over here.
 */
export function rebaseOnto(url: string, externalBase: string): string {
  const inner = new URL(url);
  const base = new URL(externalBase);
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  base.pathname = basePath + inner.pathname.replace(/^\/+/, '');
  base.search = inner.search;
  base.hash = '';
  return base.href;
}

const PAGE = (title: string, text: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * A one-shot loopback listener for the redirect (`/callback`). `waitFor` resolves with the code of the
 * matching request; callbacks with another state are answered and ignored.
 */
export class LoopbackReceiver {
  private server: http.Server | undefined;
  private waiting:
    { request: AuthorizationRequest; resolve: (code: string) => void; reject: (e: Error) => void } | undefined;

  /** Listens on 127.0.0.1 on a free port; returns the local redirect URI. */
  async listen(): Promise<string> {
    const server = http.createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  }

  /** Waits for the redirect of `request`; rejects on an OAuth error, abort, or after `timeoutMs`. */
  waitFor(request: AuthorizationRequest, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new OAuthError('timeout', 'The browser did not return from the sign-in page in time.')),
        opts.timeoutMs ?? 5 * 60_000,
      );
      const onAbort = () => fail(new OAuthError('cancelled', 'Sign-in was cancelled.'));
      const done = () => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        this.waiting = undefined;
      };
      const fail = (e: Error) => {
        done();
        reject(e);
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort);
      this.waiting = {
        request,
        resolve: (code) => {
          done();
          resolve(code);
        },
        reject: fail,
      };
    });
  }

  close(): void {
    this.server?.close();
    this.server?.closeAllConnections();
    this.server = undefined;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, title: string, text: string) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      });
      res.end(PAGE(title, text));
    };
    if (req.method !== 'GET' || url.pathname !== '/callback') return send(404, 'Not found', 'Nothing here.');
    const waiting = this.waiting;
    const outcome = waiting ? readRedirect(waiting.request, url.searchParams) : ({ kind: 'foreign' } as const);
    if (outcome.kind === 'foreign' || !waiting)
      return send(400, 'Sign-in failed', 'Unexpected sign-in response. Start the sign-in again from VS Code.');
    if (outcome.kind === 'error') {
      send(200, 'Sign-in failed', 'Access was not granted. You can close this window.');
      return waiting.reject(outcome.error);
    }
    send(200, 'Signed in', 'You can close this window and return to VS Code.');
    waiting.resolve(outcome.code);
  }
}
