import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { StorageError } from '../../../src/storage/core/errors';
import {
  buildAuthorization,
  LoopbackReceiver,
  readRedirect,
  rebaseOnto,
  type AuthorizationRequest,
} from '../../../src/storage/core/authorization';
import {
  accountOf,
  newSessionRecord,
  parseSessionRecord,
  SessionKeeper,
  type RecordStore,
} from '../../../src/storage/core/authSessions';
import {
  exchangeCode,
  OAuthError,
  parseTokenResponse,
  refreshTokens,
  revokeToken,
  type OAuthConfig,
  type TokenSet,
} from '../../../src/storage/core/oauth';
import { CONSENT_TICKET_PARAM, ticketMatches } from '../../../src/shared/wire/sandboxConsent';
import type { HttpFetch } from '../../../src/shared/http';

/** Plays the user in the browser: loads the consent page, submits its form, follows the redirect. */
async function browse(url: string, decision: 'approve' | 'deny'): Promise<void> {
  const page = await fetch(url);
  assert.equal(page.status, 200, await page.clone().text());
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    form.set(m[1], m[2].replace(/&amp;/g, '&'));
  form.set('decision', decision);
  const action = new URL(/<form method="post" action="([^"]*)"/.exec(html)![1], url);
  const res = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(res.status, 302);
  await fetch(res.headers.get('location')!);
}

const memoryStore = (): RecordStore & { text?: string } => {
  const s: RecordStore & { text?: string } = {
    read: () => Promise.resolve(s.text),
    write: (t) => {
      s.text = t;
      return Promise.resolve();
    },
  };
  return s;
};

describe('storage sign-in core: authorization request and redirect', () => {
  const config: OAuthConfig = {
    authorizationEndpoint: 'https://auth.example/o/auth?tenant=t1',
    tokenEndpoint: 'https://auth.example/token',
    clientId: 'c',
    scopes: ['s1', 's2'],
  };

  it('builds a PKCE S256 request with a fresh state, keeping the endpoint query', () => {
    const a = buildAuthorization(config, 'http://127.0.0.1:5/callback');
    const b = buildAuthorization(config, 'http://127.0.0.1:5/callback');
    const u = new URL(a.url);
    assert.equal(u.searchParams.get('tenant'), 't1');
    assert.equal(u.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(u.searchParams.get('code_challenge'), createHash('sha256').update(a.verifier).digest('base64url'));
    assert.equal(u.searchParams.get('scope'), 's1 s2');
    assert.equal(u.searchParams.get('state'), a.state);
    assert.notEqual(a.state, b.state);
    assert.notEqual(a.verifier, b.verifier);
    assert.equal(u.searchParams.get(CONSENT_TICKET_PARAM), null, 'no ticket for a real authorization server');
  });

  it('signs a consent ticket bound to the request when a consent secret is configured', () => {
    const a = buildAuthorization({ ...config, consentSecret: 'sec' }, 'http://127.0.0.1:5/callback');
    const u = new URL(a.url);
    const binding = {
      clientId: 'c',
      redirectUri: a.redirectUri,
      state: a.state,
      codeChallenge: u.searchParams.get('code_challenge')!,
    };
    assert.ok(ticketMatches('sec', binding, u.searchParams.get(CONSENT_TICKET_PARAM)));
    assert.ok(!ticketMatches('other', binding, u.searchParams.get(CONSENT_TICKET_PARAM)));
  });

  it('reads the redirect: foreign states are ignored, errors and missing codes reported', () => {
    const req = { state: 'abc' };
    assert.deepEqual(readRedirect(req, new URLSearchParams('code=1&state=zzz')), { kind: 'foreign' });
    assert.deepEqual(readRedirect(req, new URLSearchParams('code=1')), { kind: 'foreign' });
    assert.deepEqual(readRedirect(req, new URLSearchParams('code=1&state=abc')), { kind: 'code', code: '1' });
    const denied = readRedirect(req, new URLSearchParams('error=access_denied&state=abc'));
    assert.ok(denied.kind === 'error' && denied.error.code === 'access_denied');
    const empty = readRedirect(req, new URLSearchParams('state=abc'));
    assert.ok(empty.kind === 'error' && empty.error.code === 'invalid_response');
  });

  it('rebases a loopback URL onto what asExternalUri gave for its origin', () => {
    assert.equal(
      rebaseOnto('http://127.0.0.1:5/o/auth?a=1&b=x%20y', 'http://127.0.0.1:9/proxy/5/'),
      'http://127.0.0.1:9/proxy/5/o/auth?a=1&b=x%20y',
    );
    assert.equal(
      rebaseOnto('http://127.0.0.1:5/callback', 'https://box-5.app.example.dev'),
      'https://box-5.app.example.dev/callback',
    );
    assert.equal(rebaseOnto('http://127.0.0.1:5/callback', 'http://localhost:6/'), 'http://localhost:6/callback');
  });

  it('parses token answers without trusting their shape', () => {
    const t = parseTokenResponse(
      200,
      JSON.stringify({ access_token: 'a', refresh_token: 'r', expires_in: 10, scope: 's' }),
      'https://i/token',
      1000,
    );
    assert.deepEqual(t, {
      accessToken: 'a',
      refreshToken: 'r',
      expiresAt: 11_000,
      scope: 's',
      issuer: 'https://i/token',
    });
    assert.equal(
      parseTokenResponse(200, JSON.stringify({ access_token: 'a', expires_in: 'soon', refresh_token: 5 }), 'x', 0)
        .expiresAt,
      3_600_000,
    );
    assert.equal(
      parseTokenResponse(200, JSON.stringify({ access_token: 'a', refresh_token: 5 }), 'x', 0).refreshToken,
      undefined,
    );
    assert.throws(
      () => parseTokenResponse(400, JSON.stringify({ error: 'invalid_grant', error_description: 'gone' }), 'x', 0),
      (e: unknown) => e instanceof OAuthError && e.code === 'invalid_grant',
    );
    assert.throws(
      () => parseTokenResponse(502, '<html>bad gateway</html>', 'x', 0),
      (e: unknown) => e instanceof OAuthError && e.code === 'http_502' && !/html/.test(e.message),
    );
    assert.throws(
      () => parseTokenResponse(200, '[1]', 'x', 0),
      (e: unknown) => e instanceof OAuthError,
    );
  });
});

describe('storage sign-in: OAuth 2.0 code flow with PKCE against the sandbox', () => {
  let sb: RunningSandbox;
  let config: OAuthConfig;
  before(async () => {
    sb = await startSandbox();
    config = {
      authorizationEndpoint: `${sb.storage}/o/oauth2/v2/auth`,
      tokenEndpoint: `${sb.storage}/o/oauth2/token`,
      revocationEndpoint: `${sb.storage}/o/oauth2/revoke`,
      clientId: 'api-workbench-test',
      scopes: ['https://api-workbench.dev/auth/store'],
      consentSecret: sb.consentSecret,
    };
  });
  after(async () => sb.close());

  /** The adapter's flow without the editor: listen, open the page, wait for the redirect, redeem. */
  async function signIn(
    decision: 'approve' | 'deny',
    meddle?: (req: AuthorizationRequest) => Promise<void>,
  ): Promise<TokenSet> {
    const receiver = new LoopbackReceiver();
    try {
      const request = buildAuthorization(config, await receiver.listen());
      const answer = receiver.waitFor(request, { timeoutMs: 10_000 });
      answer.catch(() => undefined);
      await meddle?.(request);
      await browse(request.url, decision);
      return await exchangeCode(config, await answer, request.verifier, request.redirectUri);
    } finally {
      receiver.close();
    }
  }
  const control = (body: unknown) =>
    fetch(`${sb.storage}/store/v2/__sandbox/oauth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('signs in through a loopback redirect; a forged callback is ignored; the token works with the API', async () => {
    const tokens = await signIn('approve', async (req) => {
      const forged = await fetch(`${req.redirectUri}?code=stolen&state=guess`);
      assert.equal(forged.status, 400, 'a callback with a foreign state is refused and the flow keeps waiting');
    });
    assert.ok(tokens.accessToken && tokens.refreshToken);
    const client = new StorageClient({ baseUrl: sb.storage, auth: { token: () => tokens.accessToken } });
    assert.equal((await client.about('user(emailAddress)')).user?.emailAddress, 'sandbox.user@example.com');
    assert.deepEqual(accountOf(await client.about('user(displayName,emailAddress)'), config.tokenEndpoint), {
      id: 'sandbox.user@example.com',
      label: 'Sandbox User <sandbox.user@example.com>',
    });
  });

  it('reports a denied consent, and times out or cancels when the browser never returns', async () => {
    await assert.rejects(signIn('deny'), (e: unknown) => e instanceof OAuthError && e.code === 'access_denied');
    const receiver = new LoopbackReceiver();
    try {
      const request = buildAuthorization(config, await receiver.listen());
      await assert.rejects(
        receiver.waitFor(request, { timeoutMs: 50 }),
        (e: unknown) => e instanceof OAuthError && e.code === 'timeout',
      );
      const abort = new AbortController();
      const waiting = receiver.waitFor(request, { signal: abort.signal });
      abort.abort();
      await assert.rejects(waiting, (e: unknown) => e instanceof OAuthError && e.code === 'cancelled');
    } finally {
      receiver.close();
    }
  });

  it('keeps the session fresh: refresh before expiry and after a 401; a revoked grant is forgotten', async () => {
    await control({ accessTokenTtlSeconds: 0 });
    try {
      const store = memoryStore();
      const keeper = new SessionKeeper(store);
      await keeper.save(newSessionRecord(await signIn('approve'), { id: 'u', label: 'U' }, config.scopes));
      await control({ accessTokenTtlSeconds: 3600 });
      const first = (await keeper.current(config))!.tokens.accessToken;
      const auth = {
        token: async () => (await keeper.fresh(config))?.tokens.accessToken,
        refresh: async () => !!(await keeper.refresh(config)),
      };
      const client = new StorageClient({ baseUrl: sb.storage, auth, retry: { maxRetries: 0 } });
      await client.about('kind');
      assert.notEqual((await keeper.current(config))!.tokens.accessToken, first, 'a fresh token was fetched');
      // The server rejects a token the client still believes valid: one refresh on 401.
      const r = (await keeper.current(config))!;
      await keeper.save({
        ...r,
        tokens: { ...r.tokens, accessToken: 'revoked-elsewhere', expiresAt: Date.now() + 3_600_000 },
      });
      assert.equal((await client.about('kind')).kind, 'drive#about');

      assert.equal(await revokeToken(config, (await keeper.current(config))!.tokens), true);
      assert.equal(await keeper.refresh(config), undefined);
      assert.equal(store.text, undefined, 'the dead grant is forgotten');
      const signedOut = new StorageClient({ baseUrl: sb.storage, auth, retry: { maxRetries: 0 } });
      await assert.rejects(signedOut.about(), (e: unknown) => e instanceof StorageError && e.action === 'signIn');
    } finally {
      await control({ accessTokenTtlSeconds: 3600 });
    }
  });

  it('rejects plain-http foreign redirects, plain challenges and a wrong verifier', async () => {
    const base = {
      client_id: 'x',
      response_type: 'code',
      code_challenge: 'abc',
      code_challenge_method: 'S256',
      redirect_uri: 'http://evil.example/cb',
    };
    assert.equal((await fetch(`${config.authorizationEndpoint}?${new URLSearchParams(base)}`)).status, 400);
    assert.equal(
      (
        await fetch(
          `${config.authorizationEndpoint}?${new URLSearchParams({ ...base, redirect_uri: 'javascript:alert(1)' })}`,
        )
      ).status,
      400,
    );
    assert.equal(
      (
        await fetch(
          `${config.authorizationEndpoint}?${new URLSearchParams({ ...base, redirect_uri: 'http://127.0.0.1:9/cb', code_challenge_method: 'plain' })}`,
        )
      ).status,
      400,
    );
    const bad = await fetch(config.tokenEndpoint, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'made-up',
        code_verifier: 'x',
        client_id: 'x',
        redirect_uri: 'http://127.0.0.1:9/cb',
      }),
    });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: string }).error, 'invalid_grant');
  });
});

describe('storage sign-in: tokens stay with the origin that issued them', () => {
  const issuer: OAuthConfig = {
    authorizationEndpoint: 'https://auth.a.example/auth',
    tokenEndpoint: 'https://auth.a.example/token',
    revocationEndpoint: 'https://auth.a.example/revoke',
    clientId: 'c',
    scopes: ['s'],
  };
  const tokens: TokenSet = { accessToken: 'at', refreshToken: 'rt', expiresAt: 0, issuer: issuer.tokenEndpoint };
  const spy = () => {
    const calls: { url: string; body: string }[] = [];
    const f: HttpFetch = (url, init) => {
      // The token endpoint gets a form-encoded string; anything else is recorded as such.
      calls.push({ url, body: typeof init?.body === 'string' ? init.body : '(not a string)' });
      return Promise.resolve({
        status: 200,
        ok: true,
        headers: new Headers(),
        text: () => Promise.resolve(JSON.stringify({ access_token: 'new', expires_in: 3600 })),
      } as unknown as Awaited<ReturnType<HttpFetch>>);
    };
    return { calls, f };
  };

  it('never sends the refresh token to another token endpoint or revocation origin', async () => {
    const { calls, f } = spy();
    const elsewhere = {
      ...issuer,
      tokenEndpoint: 'https://evil.example/token',
      revocationEndpoint: 'https://evil.example/revoke',
    };
    await assert.rejects(
      refreshTokens(elsewhere, tokens, f),
      (e: unknown) => e instanceof OAuthError && e.code === 'issuer_mismatch',
    );
    assert.equal(await revokeToken({ ...issuer, revocationEndpoint: 'https://evil.example/revoke' }, tokens, f), false);
    const keeper = new SessionKeeper(memoryStore(), { fetch: f });
    await keeper.save(newSessionRecord(tokens, { id: 'u', label: 'U' }, ['s']));
    assert.equal(await keeper.current(elsewhere), undefined, 'a session is not used with another endpoint');
    assert.equal(await keeper.fresh(elsewhere), undefined);
    await keeper.remove(elsewhere);
    assert.equal(calls.length, 0, 'nothing was sent anywhere');

    const keeper2 = new SessionKeeper(memoryStore(), { fetch: f, now: () => 10 });
    await keeper2.save(newSessionRecord(tokens, { id: 'u', label: 'U' }, ['s']));
    assert.equal((await keeper2.fresh(issuer))?.tokens.accessToken, 'new');
    assert.equal(
      (await keeper2.current(issuer))?.tokens.refreshToken,
      'rt',
      'the refresh token is kept when not rotated',
    );
    await keeper2.remove(issuer);
    assert.deepEqual(
      calls.map((c) => new URL(c.url).origin),
      ['https://auth.a.example', 'https://auth.a.example'],
    );
    assert.match(calls[1].body, /token=rt/);
    assert.equal(await keeper2.stored(), undefined);
  });

  it('treats a malformed stored record as signed out', () => {
    for (const junk of [
      undefined,
      '',
      'not json',
      '[]',
      '{}',
      JSON.stringify({ id: 1 }),
      JSON.stringify({
        id: 'x',
        account: { id: 'a', label: 'b' },
        scopes: [],
        tokens: { accessToken: 5, issuer: 'i', expiresAt: 0 },
      }),
    ]) {
      assert.equal(parseSessionRecord(junk), undefined, String(junk));
    }
    const ok = newSessionRecord(tokens, { id: 'u', label: 'U' }, ['s']);
    assert.deepEqual(parseSessionRecord(JSON.stringify(ok)), ok);
  });
});
