// Batch requests (`POST /batch/store/v2`, `/batch/drive/v2`): a multipart/mixed body of up to 100
// `application/http` parts, each an ordinary API call. Every part runs as its own request against this
// sandbox (so it passes the same auth, fault and route handling) and is answered in a part of the
// multipart/mixed reply with its own status line, headers and body, its Content-ID echoed as `response-…`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readBody } from '../http';
import { ApiError, badRequest } from './errors';
import { boundaryOf } from './multipart';

export const BATCH_PATHS = ['/batch/store/v2', '/batch/drive/v2'];
const MAX_PARTS = 100;

interface InnerRequest {
  contentId?: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Splits a multipart body into its parts (headers + body), tolerant of CRLF or LF line ends. */
function splitParts(body: Buffer, boundary: string): { headers: Record<string, string>; body: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw badRequest('The batch body does not contain its boundary.', undefined, 'badContent');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') return parts;
    if (parts.length >= MAX_PARTS)
      throw badRequest(`A batch request may contain at most ${MAX_PARTS} calls.`, undefined, 'batchSizeTooLarge');
    const next = body.indexOf(delimiter, pos);
    if (next < 0) throw badRequest('The batch body is not terminated.', undefined, 'badContent');
    const { headers, rest } = splitHead(body.subarray(pos, next));
    parts.push({ headers, body: trimLineEnd(rest) });
    pos = next;
  }
}

function trimLineEnd(b: Buffer): Buffer {
  if (b[b.length - 1] === 0x0a) b = b.subarray(0, b.length - 1);
  if (b[b.length - 1] === 0x0d) b = b.subarray(0, b.length - 1);
  return b;
}

/** Header block (up to the first blank line) and what follows it; leading line ends are skipped. */
function splitHead(b: Buffer): { headers: Record<string, string>; rest: Buffer; firstLine?: string } {
  let start = 0;
  while (b[start] === 0x0d || b[start] === 0x0a) start++;
  const crlf = b.indexOf('\r\n\r\n', start);
  const lf = b.indexOf('\n\n', start);
  const useCrlf = crlf >= 0 && (lf < 0 || crlf < lf);
  const end = useCrlf ? crlf : lf;
  const headText = b.subarray(start, end < 0 ? b.length : end).toString('utf8');
  const rest = end < 0 ? Buffer.alloc(0) : b.subarray(end + (useCrlf ? 4 : 2));
  const headers: Record<string, string> = {};
  const lines = headText.split(/\r?\n/);
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, rest, firstLine: lines[0] };
}

function parseInner(part: { headers: Record<string, string>; body: Buffer }): InnerRequest | ApiError {
  const contentId = part.headers['content-id'];
  const { headers, rest, firstLine } = splitHead(part.body);
  const m = /^([A-Z]+) (\S+)(?: HTTP\/1\.[01])?$/.exec((firstLine ?? '').trim());
  if (!m)
    return badRequest(
      'A batch part must hold an HTTP request line such as "GET /store/v2/about".',
      undefined,
      'badContent',
    );
  // The request line's own header lines were read as headers too; drop it from the map.
  delete headers[
    (firstLine ?? '')
      .slice(0, (firstLine ?? '').indexOf(':'))
      .trim()
      .toLowerCase()
  ];
  return { contentId, method: m[1], target: m[2], headers, body: rest };
}

function responseId(contentId: string | undefined): string | undefined {
  if (contentId === undefined) return undefined;
  const inner = contentId.replace(/^<|>$/g, '');
  return `<response-${inner}>`;
}

/** Runs one inner call against the sandbox itself and renders its answer as an HTTP message. */
async function runInner(origin: string, outer: IncomingMessage, inner: InnerRequest): Promise<string> {
  let url: URL;
  try {
    url = new URL(inner.target, origin);
  } catch {
    return httpMessage(badRequest(`Invalid request target ${inner.target}.`));
  }
  const local = new URL(origin);
  const path = url.pathname;
  // Only API calls of this service; uploads and downloads are not available in a batch (as in Drive).
  if (!/^\/(store|drive)\/v2(\/|$)/.test(path) || url.search.includes('alt=media')) {
    return httpMessage(
      badRequest(
        `Batch parts must call ${BATCH_PATHS.map((p) => p.replace('/batch', '')).join(' or ')} without media: ${path}`,
      ),
    );
  }
  const headers: Record<string, string> = { ...inner.headers };
  delete headers['content-length'];
  delete headers.host;
  if (!headers.authorization && outer.headers.authorization)
    headers.authorization = String(outer.headers.authorization);
  const withBody =
    inner.method !== 'GET' && inner.method !== 'HEAD' && inner.method !== 'DELETE' && inner.body.length > 0;
  const res = await fetch(`${local.origin}${path}${url.search}`, {
    method: inner.method,
    headers,
    body: withBody ? new Uint8Array(inner.body) : undefined,
  });
  const text = Buffer.from(await res.arrayBuffer());
  const lines = [`HTTP/1.1 ${res.status} ${res.statusText}`];
  for (const [k, v] of res.headers)
    if (k !== 'content-length' && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding' && k !== 'date')
      lines.push(`${k}: ${v}`);
  lines.push(`content-length: ${text.length}`);
  return `${lines.join('\r\n')}\r\n\r\n${text.toString('utf8')}`;
}

function httpMessage(e: ApiError): string {
  const body = JSON.stringify(e.body(), null, 1);
  return `HTTP/1.1 ${e.status} Bad Request\r\ncontent-type: application/json; charset=UTF-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Answers a batch request; throws ApiError for a malformed batch (the whole request fails). */
export async function handleBatch(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  if (req.method !== 'POST')
    throw new ApiError(405, { domain: 'global', reason: 'httpMethodNotAllowed', message: 'Batch requests are POSTs.' });
  const contentType = String(req.headers['content-type'] ?? '');
  const boundary = boundaryOf(contentType);
  if (!/^multipart\/mixed/i.test(contentType) || !boundary)
    throw badRequest(
      'A batch request needs Content-Type multipart/mixed with a boundary.',
      'Content-Type',
      'badContent',
    );
  const parts = splitParts(await readBody(req), boundary);
  const answers: string[] = [];
  for (const part of parts) {
    const inner = parseInner(part);
    const id = responseId(part.headers['content-id']);
    const message = inner instanceof ApiError ? httpMessage(inner) : await runInner(origin, req, inner);
    answers.push(`Content-Type: application/http\r\n${id ? `Content-ID: ${id}\r\n` : ''}\r\n${message}\r\n`);
  }
  const out = `batch_${randomBytes(9).toString('base64url')}`;
  const body = answers.map((a) => `--${out}\r\n${a}`).join('') + `--${out}--\r\n`;
  res.writeHead(200, {
    'content-type': `multipart/mixed; boundary=${out}`,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
