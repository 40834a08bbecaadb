// multipart/related bodies of `uploadType=multipart`: a JSON metadata part, then the media part.
// Binary-safe (works on Buffers), tolerant of CRLF or LF line ends like real servers are.
import { badRequest } from './errors';

export interface MultipartUpload {
  metadata: Record<string, unknown>;
  media: Buffer;
  mediaType?: string;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : undefined;
}

export function parseMultipart(body: Buffer, boundary: string): MultipartUpload {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw badRequest('Multipart body does not contain the boundary.', undefined, 'badContent');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === '--') break;
    // Skip the line end after the delimiter.
    if (body[pos] === 0x0d) pos++;
    if (body[pos] === 0x0a) pos++;
    const next = body.indexOf(delimiter, pos);
    if (next < 0) throw badRequest('Multipart body is not terminated.', undefined, 'badContent');
    let part = body.subarray(pos, next);
    // Drop the line end that precedes the next delimiter.
    if (part[part.length - 1] === 0x0a) part = part.subarray(0, part.length - 1);
    if (part[part.length - 1] === 0x0d) part = part.subarray(0, part.length - 1);
    let headerEnd = part.indexOf('\r\n\r\n');
    let sepLen = 4;
    if (headerEnd < 0) {
      headerEnd = part.indexOf('\n\n');
      sepLen = 2;
    }
    const headerText = headerEnd < 0 ? '' : part.subarray(0, headerEnd).toString('utf8');
    const headers: Record<string, string> = {};
    for (const line of headerText.split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    parts.push({ headers, body: headerEnd < 0 ? part : part.subarray(headerEnd + sepLen) });
    pos = next;
  }
  if (parts.length !== 2) throw badRequest(`Multipart upload needs exactly two parts (metadata, media); got ${parts.length}.`, undefined, 'badContent');
  let metadata: Record<string, unknown>;
  try {
    const text = parts[0].body.toString('utf8').trim();
    metadata = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    throw badRequest('The metadata part is not valid JSON.', undefined, 'parseError');
  }
  return { metadata, media: Buffer.from(parts[1].body), mediaType: parts[1].headers['content-type'] };
}
