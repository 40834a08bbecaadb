// How the extension proves to the sandbox's consent page that an authorization request is its own.
// The in-process sandbox is started with a per-run consent secret only the extension knows; the
// authorization URL the extension opens carries a ticket: an HMAC of that secret over the fields that
// make the request unique. The ticket is single-use and useless for any other request, so it can sit
// in the browser's history without granting anything, and a local process that never saw the secret
// cannot mint one. Shared by the sandbox (which checks) and the storage sign-in (which signs).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Query parameter (and consent-form field) that carries the ticket. */
export const CONSENT_TICKET_PARAM = 'consent_ticket';

export interface ConsentBinding {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
}

export function consentTicket(secret: string, request: ConsentBinding): string {
  const fields = [request.clientId, request.redirectUri, request.state, request.codeChallenge];
  // Length-prefixed so no two different requests serialise to the same text.
  return createHmac('sha256', secret)
    .update(fields.map((f) => `${f.length}:${f}`).join('|'))
    .digest('base64url');
}

/** Constant-time check of a presented ticket; false for a missing secret or ticket. */
export function ticketMatches(
  secret: string | undefined,
  request: ConsentBinding,
  presented: string | null | undefined,
): boolean {
  if (!secret || !presented) return false;
  const expected = Buffer.from(consentTicket(secret, request));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
