// Redirect policy, applied by hand to every hop: a credential never reaches an origin other than the
// one the request was addressed to. Like browsers (Fetch spec) and node-fetch for `authorization`, we
// STRIP credentials on a cross-origin hop rather than refuse it, so signed download links on another
// host keep working; when a credential would still travel (the new URL itself carries it) we refuse.
import { Readable } from 'node:stream';
import { sameOrigin } from './credentialOrigin';
import { CREDENTIAL_HEADERS, CREDENTIAL_PARAMS, redactUrl } from './redact';
import type { HttpBody } from './types';

export const MAX_REDIRECTS = 10;

export class RedirectError extends Error {
  override readonly name = 'RedirectError';
}

export interface Hop {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: HttpBody;
}

export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The request to send after `status` with `location` answered `from`; throws RedirectError when it may not be followed. */
export function nextHop(from: Hop, status: number, location: string): Hop {
  let target: URL;
  try {
    target = new URL(location, from.url);
  } catch {
    throw new RedirectError(`${redactUrl(from.url)} redirected to an invalid URL.`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new RedirectError(`${redactUrl(from.url)} redirected to a ${target.protocol} URL, which is not followed.`);
  }
  // 303, and 301/302 after a POST, continue as a body-less GET (what every browser does).
  const toGet = status === 303 || ((status === 301 || status === 302) && from.method === 'POST');
  let headers = { ...from.headers };
  let body = from.body;
  let method = from.method;
  if (toGet) {
    method = from.method === 'HEAD' ? 'HEAD' : 'GET';
    body = undefined;
    headers = withoutHeaders(headers, ['content-type', 'content-length', 'content-encoding', 'content-range']);
  } else if (body instanceof Readable) {
    throw new RedirectError(
      `${redactUrl(from.url)} redirected (${status}) a streamed upload, which cannot be sent twice.`,
    );
  }
  const hop: Hop = { url: target.href, method, headers, body };
  return sameOrigin(from.url, hop.url) ? hop : withoutCredentials(from, hop);
}

/** The hop to another origin with every credential of `from` removed; refuses when one is still inside the URL. */
export function withoutCredentials(from: Hop, hop: Hop): Hop {
  const secrets = credentialValues(from);
  const headers = withoutHeaders(hop.headers, [...CREDENTIAL_HEADERS]);
  const url = new URL(hop.url);
  for (const [name, value] of [...url.searchParams]) {
    if (CREDENTIAL_PARAMS.has(name.toLowerCase()) && secrets.has(value)) url.searchParams.delete(name, value);
  }
  const decoded = safeDecode(url.href);
  for (const s of secrets) {
    if (decoded.includes(s)) {
      throw new RedirectError(
        `Refused a redirect from ${new URL(from.url).origin} to ${url.origin}: the new address carries the credential meant for ${new URL(from.url).origin}.`,
      );
    }
  }
  return { ...hop, url: url.href, headers };
}

/** Credential values a request carries (header values, the token after an auth scheme, credential query values). */
function credentialValues(req: Hop): Set<string> {
  const out = new Set<string>();
  const add = (v: string | undefined) => {
    // Very short values would match by accident; real keys and tokens are long.
    if (v && v.length >= 8) out.add(v);
  };
  for (const [name, value] of Object.entries(req.headers)) {
    if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
    add(value);
    add(/^\S+\s+(\S+)$/.exec(value)?.[1]);
  }
  for (const [name, value] of new URL(req.url).searchParams) if (CREDENTIAL_PARAMS.has(name.toLowerCase())) add(value);
  return out;
}

function withoutHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!drop.has(k.toLowerCase())) out[k] = v;
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
