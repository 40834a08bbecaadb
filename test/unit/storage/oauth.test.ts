import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { StorageError } from '../../../src/storage/core/errors';
import { OAuthError, OAuthSession, revokeToken, signIn, type OAuthConfig, type TokenSet } from '../../../src/storage/core/oauth';

/** Plays the user in the browser: loads the approve page, submits its form, follows the redirect. */
function browser(decision: 'approve' | 'deny', seen: string[] = []) {
  return async (url: string) => {
    seen.push(url);
    const page = await (await fetch(url)).text();
    const form = new URLSearchParams();
    for (const m of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) form.set(m[1], m[2].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
    form.set('decision', decision);
    const action = new URL('/o/oauth2/v2/auth/decision', url);
    const res = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
    assert.equal(res.status, 302);
    await fetch(res.headers.get('location')!);
  };
}

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
    };
  });
  after(async () => sb.close());

  const memoryStore = () => {
    let saved: TokenSet | undefined;
    return { load: async () => saved, save: async (t: TokenSet | undefined) => void (saved = t), peek: () => saved };
  };
  const control = (body: unknown) => fetch(`${sb.storage}/store/v2/__sandbox/oauth`, { method: 'POST', headers: { authorization: `Bearer ${sb.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('signs in through a loopback redirect and the issued token works with the API', async () => {
    const urls: string[] = [];
    const tokens = await signIn(config, { openBrowser: browser('approve', urls) });
    const auth = new URL(urls[0]);
    assert.equal(auth.searchParams.get('code_challenge_method'), 'S256');
    assert.match(auth.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.ok(tokens.accessToken && tokens.refreshToken);
    const store = memoryStore();
    await store.save(tokens);
    const client = new StorageClient({ baseUrl: sb.storage, auth: new OAuthSession(config, store) });
    assert.equal((await client.about('user(emailAddress)')).user?.emailAddress, 'sandbox.user@example.com');
  });

  it('refreshes an expired access token (before use, and after a 401)', async () => {
    await control({ accessTokenTtlSeconds: 0 });
    try {
      const store = memoryStore();
      await store.save(await signIn(config, { openBrowser: browser('approve') }));
      await control({ accessTokenTtlSeconds: 3600 });
      const first = store.peek()!.accessToken;
      const session = new OAuthSession(config, store);
      const client = new StorageClient({ baseUrl: sb.storage, auth: session, retry: { maxRetries: 0 } });
      await client.about('kind');
      assert.notEqual(store.peek()!.accessToken, first, 'a fresh token was fetched');
      // The server rejects a token the client still believes valid: one refresh on 401.
      await store.save({ ...store.peek()!, accessToken: 'revoked-elsewhere', expiresAt: Date.now() + 3_600_000 });
      assert.equal((await client.about('kind')).kind, 'drive#about');
    } finally {
      await control({ accessTokenTtlSeconds: 3600 });
    }
  });

  it('reports a denied consent, and a revoked grant asks for a new sign-in', async () => {
    await assert.rejects(signIn(config, { openBrowser: browser('deny') }), (e: unknown) => e instanceof OAuthError && e.code === 'access_denied');
    const store = memoryStore();
    const tokens = await signIn(config, { openBrowser: browser('approve') });
    await store.save(tokens);
    await revokeToken(config, tokens.refreshToken!);
    const session = new OAuthSession(config, store, () => undefined);
    assert.equal(await session.refresh(), false);
    assert.equal(store.peek(), undefined, 'the dead grant is forgotten');
    const client = new StorageClient({ baseUrl: sb.storage, auth: session, retry: { maxRetries: 0 } });
    await assert.rejects(client.about(), (e: unknown) => e instanceof StorageError && e.action === 'signIn');
  });

  it('rejects non-loopback redirects, plain challenges and a wrong verifier', async () => {
    const base = { client_id: 'x', response_type: 'code', code_challenge: 'abc', code_challenge_method: 'S256', redirect_uri: 'https://evil.example/cb' };
    assert.equal((await fetch(`${config.authorizationEndpoint}?${new URLSearchParams(base)}`)).status, 400);
    assert.equal((await fetch(`${config.authorizationEndpoint}?${new URLSearchParams({ ...base, redirect_uri: 'http://127.0.0.1:9/cb', code_challenge_method: 'plain' })}`)).status, 400);
    const bad = await fetch(config.tokenEndpoint, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'made-up', code_verifier: 'x', client_id: 'x', redirect_uri: 'http://127.0.0.1:9/cb' }) });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: string }).error, 'invalid_grant');
  });
});
