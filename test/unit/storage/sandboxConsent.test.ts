// The sandbox's consent page must only approve requests the extension started: a per-run consent
// secret (as a ticket bound to the request) plus a CSRF token bound to the page the user saw.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { CONSENT_TICKET_PARAM, consentTicket } from '../../../src/shared/wire/sandboxConsent';
import { startStorage } from './emulatorHarness';

const SECRET = 'per-run-consent-secret-for-tests';

function request(overrides: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const q: Record<string, string> = {
    client_id: 'api-workbench',
    redirect_uri: 'http://127.0.0.1:9/callback',
    response_type: 'code',
    scope: 'https://api-workbench.dev/auth/store',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...overrides,
  };
  const ticket = consentTicket(SECRET, {
    clientId: q.client_id,
    redirectUri: q.redirect_uri,
    state: q.state,
    codeChallenge: q.code_challenge,
  });
  return { q, verifier, ticket };
}

function hiddenFields(page: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    out[m[1]] = m[2].replace(/&amp;/g, '&');
  return out;
}

describe('sandbox OAuth consent: only the extension that started the sandbox can approve', () => {
  let sb: RunningSandbox;
  let auth: string;
  before(async () => {
    sb = await startSandbox({ consentSecret: SECRET });
    auth = `${sb.storage}/o/oauth2/v2/auth`;
  });
  after(async () => sb.close());

  const decide = (form: Record<string, string>) =>
    fetch(`${auth}/decision`, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });

  it('refuses the consent page without a ticket, or with one minted for another request', async () => {
    const { q, ticket } = request();
    const bare = await fetch(`${auth}?${new URLSearchParams(q)}`);
    assert.equal(bare.status, 403);
    assert.match(await bare.text(), /access_denied/);
    const other = request();
    const wrong = await fetch(`${auth}?${new URLSearchParams({ ...q, [CONSENT_TICKET_PARAM]: other.ticket })}`);
    assert.equal(wrong.status, 403);
    const forged = await fetch(
      `${auth}?${new URLSearchParams({ ...q, state: 'changed', [CONSENT_TICKET_PARAM]: ticket })}`,
    );
    assert.equal(forged.status, 403, 'a ticket does not cover a changed request');
  });

  it('refuses an approving POST a local process forges from the request fields alone', async () => {
    const { q, ticket } = request();
    const res = await decide({ ...q, [CONSENT_TICKET_PARAM]: ticket, decision: 'approve' });
    assert.equal(res.status, 403, 'no CSRF token of a shown consent page');
    assert.equal(res.headers.get('location'), null, 'no code was issued');
    assert.match(await res.text(), /access_denied/);
  });

  it('approves with both the ticket and the page CSRF token, once; the code redeems with PKCE', async () => {
    const { q, ticket, verifier } = request();
    const page = await fetch(`${auth}?${new URLSearchParams({ ...q, [CONSENT_TICKET_PARAM]: ticket })}`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-frame-options'), 'DENY', 'the consent page cannot be framed');
    const html = await page.text();
    assert.match(html, />Allow</);
    const fields = hiddenFields(html);
    assert.ok(fields.csrf_token, 'the page carries a CSRF token');
    assert.equal(fields[CONSENT_TICKET_PARAM], ticket);

    assert.equal(
      (await decide({ [CONSENT_TICKET_PARAM]: ticket, decision: 'approve' })).status,
      403,
      'ticket without CSRF',
    );
    assert.equal(
      (await decide({ csrf_token: fields.csrf_token, decision: 'approve' })).status,
      403,
      'CSRF without ticket',
    );
    const otherPage = request();
    const otherHtml = await (
      await fetch(`${auth}?${new URLSearchParams({ ...otherPage.q, [CONSENT_TICKET_PARAM]: otherPage.ticket })}`)
    ).text();
    assert.equal(
      (
        await decide({
          csrf_token: hiddenFields(otherHtml).csrf_token,
          [CONSENT_TICKET_PARAM]: ticket,
          decision: 'approve',
        })
      ).status,
      403,
      'CSRF token of another request',
    );

    const ok = await decide({ ...fields, decision: 'approve' });
    assert.equal(ok.status, 302);
    const target = new URL(ok.headers.get('location')!);
    assert.equal(`${target.origin}${target.pathname}`, q.redirect_uri);
    assert.equal(target.searchParams.get('state'), q.state);
    const code = target.searchParams.get('code');
    assert.ok(code);
    assert.equal((await decide({ ...fields, decision: 'approve' })).status, 403, 'a consent is single use');

    const token = await fetch(`${sb.storage}/o/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: q.client_id,
        redirect_uri: q.redirect_uri,
      }),
    });
    assert.equal(token.status, 200);
    assert.ok(((await token.json()) as { access_token?: string }).access_token);
  });

  it('reports a denied consent to the redirect URI', async () => {
    const { q, ticket } = request();
    const fields = hiddenFields(
      await (await fetch(`${auth}?${new URLSearchParams({ ...q, [CONSENT_TICKET_PARAM]: ticket })}`)).text(),
    );
    const res = await decide({ ...fields, decision: 'deny' });
    assert.equal(res.status, 302);
    const target = new URL(res.headers.get('location')!);
    assert.equal(target.searchParams.get('error'), 'access_denied');
    assert.equal(target.searchParams.get('code'), null);
  });

  it("a ticket signed without this run's secret approves nothing; an emulator with no secret shows no consent page", async () => {
    const harness = await startStorage();
    try {
      const { q, ticket } = request();
      assert.equal(
        (
          await fetch(
            `${harness.origin}/o/oauth2/v2/auth?${new URLSearchParams({ ...q, [CONSENT_TICKET_PARAM]: ticket })}`,
          )
        ).status,
        403,
      );
    } finally {
      await harness.close();
    }
    const bare = await startSandbox();
    try {
      const { q, ticket } = request();
      // A ticket signed with a guessed secret, and one signed with the empty string, both fail.
      const guessed = consentTicket('', {
        clientId: q.client_id,
        redirectUri: q.redirect_uri,
        state: q.state,
        codeChallenge: q.code_challenge,
      });
      for (const t of [ticket, guessed]) {
        assert.equal(
          (await fetch(`${bare.storage}/o/oauth2/v2/auth?${new URLSearchParams({ ...q, [CONSENT_TICKET_PARAM]: t })}`))
            .status,
          403,
        );
      }
    } finally {
      await bare.close();
    }
  });
});
