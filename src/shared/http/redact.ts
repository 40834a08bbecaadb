// The one redaction of credentials for every error message, log line and stored record: URLs lose
// the values of credential query parameters (and any user:password), headers lose credential values.
import { putOwn } from '../wire/ownKeys';

/** Query parameters that carry a credential or act as one (a resumable-upload session id is a bearer capability). */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set([
  'key',
  'api_key',
  'apikey',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  'code',
  'code_verifier',
  'upload_id',
  'password',
]);

/** Request headers whose value is a credential. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-goog-api-key',
  'x-api-key',
  'cookie',
]);

export const REDACTED = 'REDACTED';

const PARAM_NAMES = [...CREDENTIAL_PARAMS].join('|');
// `name=value` after `?`, `&` or `;`; the value runs to the next separator, quote or space.
const PARAM_IN_TEXT = new RegExp(`([?&;](?:${PARAM_NAMES})=)[^&#\\s"'<>]*`, 'gi');
const USERINFO_IN_TEXT = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@"'<>]*@/gi;
const BEARER_IN_TEXT = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/** A URL without credentials: credential parameters keep their name with the value REDACTED. */
export function redactUrl(url: string): string {
  return redactText(url);
}

/**
 * Redacts every URL-embedded or header-style credential found anywhere in a text: error messages
 * from HTTP libraries quote the whole request URL, so they pass through here before anyone sees them.
 */
export function redactText(text: string): string {
  return text
    .replace(PARAM_IN_TEXT, `$1${REDACTED}`)
    .replace(USERINFO_IN_TEXT, `$1${REDACTED}@`)
    .replace(BEARER_IN_TEXT, `$1 ${REDACTED}`);
}

/** A copy of the headers with every credential value replaced; names are kept so logs show what was sent. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    putOwn(out, name, CREDENTIAL_HEADERS.has(name.toLowerCase()) ? REDACTED : redactText(value));
  return out;
}

/** An Error whose message (and stack) no longer hold a credential, keeping its name and system code. */
export function redactError(err: unknown): Error {
  const source = err instanceof Error ? err : new Error(String(err));
  const clean = new Error(redactText(source.message));
  clean.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') (clean as Error & { code?: string }).code = code;
  // The stack's first line repeats the message; the frames hold no request data.
  clean.stack = source.stack ? redactText(source.stack) : undefined;
  return clean;
}
