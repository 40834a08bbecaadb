// A Try it request from the form's values: the URL expanded from the method's template (RFC 6570), the
// query, the JSON body or media upload, and the credential as a header (never in the URL, never logged).
import { isObj, type Obj } from '../model';
import { baseUrlOf, type TryForm } from './form';
import { expandTemplate } from './uriTemplate';
import { dictionary, ownValue } from '../../../shared/wire/ownKeys';

/** A credential and how the API takes it. */
export type TryCredential = { kind: 'bearer'; value: string } | { kind: 'apiKey'; value: string };

export interface TryValues {
  /** Field name → values typed (several for a repeated parameter); empty strings are left out. */
  params: Record<string, string[]>;
  body?: string;
  /** Media to upload (bytes) and its type: sent to the method's simple upload path. */
  media?: { bytes: Uint8Array; contentType: string };
}

/** The values a form sent (a webview message, so any shape): lists of strings per field, every name kept. */
export function tryValuesOf(v: unknown): TryValues {
  const params = dictionary<string[]>();
  const given = isObj(v) ? v : {};
  if (isObj(given.params))
    for (const [k, list] of Object.entries(given.params))
      if (Array.isArray(list)) params[k] = list.filter((x): x is string => typeof x === 'string');
  return { params, ...(typeof given.body === 'string' ? { body: given.body } : {}) };
}

const MEDIA_TYPES: Record<string, string> = {
  txt: 'text/plain',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  pdf: 'application/pdf',
  csv: 'text/csv',
  html: 'text/html',
};

/** The content type of a media file to upload, by its name's extension. */
export function mediaTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (
    (dot < 0 ? undefined : ownValue(MEDIA_TYPES, fileName.slice(dot + 1).toLowerCase())) ?? 'application/octet-stream'
  );
}

export interface TryRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export class TryItInputError extends Error {
  override readonly name = 'TryItInputError';
}

const CREDENTIAL_HEADERS: Record<TryCredential['kind'], string> = { bearer: 'authorization', apiKey: 'x-goog-api-key' };

function multipartBody(
  metadata: string,
  media: { bytes: Uint8Array; contentType: string },
  boundary: string,
): Uint8Array {
  const head = `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${metadata}\r\n--${boundary}\r\nContent-Type: ${media.contentType}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const enc = new TextEncoder();
  const a = enc.encode(head);
  const b = enc.encode(tail);
  const out = new Uint8Array(a.length + media.bytes.length + b.length);
  out.set(a, 0);
  out.set(media.bytes, a.length);
  out.set(b, a.length + media.bytes.length);
  return out;
}

/** Builds the request; throws TryItInputError naming what is missing (a required field, a path value). */
export function buildTryRequest(
  doc: Obj,
  method: Obj,
  form: TryForm,
  values: TryValues,
  credential?: TryCredential,
  boundary = 'api_workbench_try_it_boundary',
): TryRequest {
  const given = (name: string) => (ownValue(values.params, name) ?? []).filter((v) => v !== '');
  const missing = form.fields.filter((f) => f.required && given(f.name).length === 0).map((f) => f.name);
  if (missing.length) throw new TryItInputError(`Required: ${missing.join(', ')}.`);
  const vars = dictionary<string | string[]>();
  for (const f of form.fields) if (f.location === 'path') vars[f.name] = given(f.name)[0];
  let template = form.urlTemplate;
  let uploadType: string | undefined;
  const media = values.media;
  const simple =
    isObj(method.mediaUpload) && isObj(method.mediaUpload.protocols) && isObj(method.mediaUpload.protocols.simple)
      ? method.mediaUpload.protocols.simple
      : undefined;
  if (media) {
    if (!simple || typeof simple.path !== 'string')
      throw new TryItInputError(`${form.methodId} takes no media upload.`);
    template = baseUrlOf(doc, simple.path) + simple.path;
    uploadType = values.body?.trim() ? 'multipart' : 'media';
  }
  const url = new URL(expandTemplate(template, vars));
  for (const f of form.fields) {
    if (f.location !== 'query' || (uploadType && f.name === 'uploadType')) continue;
    for (const v of f.repeated ? given(f.name) : given(f.name).slice(0, 1)) url.searchParams.append(f.name, v);
  }
  if (uploadType) url.searchParams.set('uploadType', uploadType);
  const headers: Record<string, string> = {};
  let body: string | Uint8Array | undefined;
  if (media && uploadType === 'multipart') {
    headers['content-type'] = `multipart/related; boundary=${boundary}`;
    body = multipartBody(values.body!, media, boundary);
  } else if (media) {
    headers['content-type'] = media.contentType;
    body = media.bytes;
  } else if (form.body && values.body?.trim()) {
    headers['content-type'] = 'application/json';
    body = values.body;
  }
  if (credential)
    headers[CREDENTIAL_HEADERS[credential.kind]] =
      credential.kind === 'bearer' ? `Bearer ${credential.value}` : credential.value;
  return { method: form.httpMethod, url: url.toString(), headers, ...(body !== undefined ? { body } : {}) };
}

/** Single-quotes a word for a POSIX shell. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The request as a curl command. Credentials become shell variables ($ACCESS_TOKEN, $API_KEY) unless
 * `reveal`; a credential query parameter (key, access_token) in the URL is replaced the same way.
 */
export function toCurl(req: TryRequest, reveal = false): string {
  const url = new URL(req.url);
  const placeholders: [string, string][] = [];
  if (!reveal)
    for (const [name, variable] of [
      ['key', 'API_KEY'],
      ['access_token', 'ACCESS_TOKEN'],
    ] as const)
      if (url.searchParams.has(name)) {
        url.searchParams.set(name, `__${variable}__`);
        // Closes the single quotes, expands the variable in double quotes, reopens them.
        placeholders.push([`__${variable}__`, `'"$${variable}"'`]);
      }
  let quotedUrl = shellQuote(url.toString());
  for (const [from, to] of placeholders) quotedUrl = quotedUrl.replace(from, to);
  const lines = [`curl -X ${req.method} ${quotedUrl}`];
  for (const [name, value] of Object.entries(req.headers)) {
    if (!reveal && name === 'authorization') lines.push(`-H "Authorization: Bearer \${ACCESS_TOKEN}"`);
    else if (!reveal && name === 'x-goog-api-key') lines.push(`-H "x-goog-api-key: \${API_KEY}"`);
    else lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (typeof req.body === 'string') lines.push(`--data-raw ${shellQuote(req.body)}`);
  else if (req.body) lines.push('--data-binary @MEDIA_FILE');
  return lines.join(' \\\n  ');
}
