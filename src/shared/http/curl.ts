// "Copy as curl" for a logged request: the command a user can paste into a terminal to send the same
// request again. It is built from the event, which is already redacted, so it can never hold a secret;
// each redacted credential becomes a shell variable ($API_KEY, $ACCESS_TOKEN) the user sets first.
import { REDACTED } from './redact';
import type { RequestEvent } from './observe';

/** Headers curl computes itself or that would be wrong when replayed. */
const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

// Inside a text the placeholder travels as a marker no URL, header or body holds, so quoting can tell
// it apart from a literal `$top` of an OData query.
const MARK = '\u0001';
const MARKED = new RegExp(`${MARK}([A-Z][A-Z0-9_]*)${MARK}`, 'g');

/** The shell variable that stands for the credential called `name` (a query parameter, form field or header). */
export function placeholderFor(name: string): string {
  const n = name.toLowerCase();
  if (n === 'key' || n === 'api_key' || n === 'apikey' || n === 'x-goog-api-key' || n === 'x-api-key') return 'API_KEY';
  if (n === 'access_token' || n === 'token' || n === 'authorization' || n === 'proxy-authorization')
    return 'ACCESS_TOKEN';
  return n.replace(/[^a-z0-9]+/g, '_').toUpperCase();
}

function mark(name: string): string {
  return `${MARK}${placeholderFor(name)}${MARK}`;
}

/** `name=REDACTED` (a URL's query or a form body) with the value as a placeholder. */
function placeholdParams(text: string): string {
  return text.replace(new RegExp(`([?&;]|^)([A-Za-z_]+)=${REDACTED}`, 'g'), (_m, sep: string, name: string) => {
    return `${sep}${name}=${mark(name)}`;
  });
}

function placeholdHeader(name: string, value: string): string {
  if (value === REDACTED) {
    const n = name.toLowerCase();
    return n === 'authorization' || n === 'proxy-authorization' ? `Bearer ${mark(name)}` : mark(name);
  }
  return value.replace(new RegExp(`\\b(Bearer) ${REDACTED}`, 'g'), `$1 ${mark('authorization')}`);
}

/** One shell word: literal runs in single quotes, placeholders as "$NAME" (expanded, never split). */
export function shellWord(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(MARKED)) {
    if (m.index > last) parts.push(singleQuoted(text.slice(last, m.index)));
    parts.push(`"$${m[1]}"`);
    last = m.index + m[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push(singleQuoted(text.slice(last)));
  return parts.join('');
}

function singleQuoted(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The placeholders a command needs set before it runs, e.g. ["API_KEY"]. */
export function curlVariables(command: string): string[] {
  return [...new Set([...command.matchAll(/"\$([A-Z][A-Z0-9_]*)"/g)].map((m) => m[1]))];
}

/** A multi-line curl command that sends the logged request again, credentials as shell variables. */
export function toCurl(event: Pick<RequestEvent, 'method' | 'url' | 'requestHeaders' | 'requestBody'>): string {
  const args: string[] = ['curl'];
  const body = event.requestBody;
  const hasBody = body !== undefined;
  if (event.method === 'HEAD') args.push('--head');
  else if (event.method !== 'GET' || hasBody) args.push('-X', event.method);
  for (const [name, value] of Object.entries(event.requestHeaders)) {
    if (SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    args.push('-H', shellWord(`${name}: ${placeholdHeader(name, value)}`));
  }
  const comments: string[] = [];
  if (body?.text !== undefined && body.note === undefined) {
    const form = /x-www-form-urlencoded/i.test(body.contentType ?? '');
    args.push('--data-raw', shellWord(form ? placeholdParams(body.text) : body.text));
  } else if (hasBody) {
    // A stream, raw bytes or a cut text was not kept: name the file the user supplies instead.
    comments.push(`# The request body (${body.note ?? 'not kept'}) is read from ./body.bin`);
    args.push('--data-binary', '@body.bin');
  }
  args.push(shellWord(placeholdParams(event.url)));
  const vars = curlVariables(args.join(' '));
  if (vars.length) comments.unshift(`# Set ${vars.map((v) => `$${v}`).join(', ')} first (never pasted here).`);
  return [...comments, formatArgs(args)].join('\n');
}

/** `curl` and its options one pair per line, joined with backslash continuations. */
function formatArgs(args: string[]): string {
  const lines: string[] = [args[0]];
  for (let i = 1; i < args.length; i++) {
    const takesValue = args[i] === '-X' || args[i] === '-H' || args[i] === '--data-raw' || args[i] === '--data-binary';
    lines.push(takesValue ? `${args[i]} ${args[++i]}` : args[i]);
  }
  return lines.join(' \\\n  ');
}
