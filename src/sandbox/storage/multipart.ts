// multipart/related bodies of `uploadType=multipart`: a JSON metadata part, then the media part. Read as a
// stream: the metadata is parsed first, then the media part is handed on chunk by chunk (holding back only
// enough bytes to recognise the closing delimiter), so a large multipart upload never sits in memory.
// Binary-safe, tolerant of CRLF or LF line ends like real servers are.
import { ApiError, badRequest } from './errors';
import { BodyTooLargeError, MAX_JSON_BODY } from '../http';

export interface MultipartUpload {
  metadata: Record<string, unknown>;
  mediaType?: string;
  /** The media bytes; consuming it to the end also checks that the body is properly terminated. */
  media: AsyncIterable<Buffer>;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : undefined;
}

const MAX_PART_HEADERS = 64 * 1024;
const notTerminated = () => badRequest('Multipart body is not terminated.', undefined, 'badContent');
const wrongPartCount = () =>
  badRequest('Multipart upload needs exactly two parts (metadata, media).', undefined, 'badContent');

export async function readMultipart(source: AsyncIterable<Uint8Array>, boundary: string): Promise<MultipartUpload> {
  const delimiter = Buffer.from(`--${boundary}`);
  const it = source[Symbol.asyncIterator]();
  let buf = Buffer.alloc(0);
  const more = async (): Promise<boolean> => {
    const r = await it.next();
    if (r.done) return false;
    buf = buf.length ? Buffer.concat([buf, r.value]) : Buffer.from(r.value);
    return true;
  };
  /** Position of `needle` at or after `from`, reading more input as needed (the head parts are bounded). */
  const find = async (needle: Buffer | string, from: number, missing: () => ApiError): Promise<number> => {
    for (;;) {
      const i = buf.indexOf(needle, from);
      if (i >= 0) return i;
      if (buf.length > MAX_JSON_BODY)
        throw new BodyTooLargeError(`Request payload size exceeds the limit: ${MAX_JSON_BODY} bytes.`);
      if (!(await more())) throw missing();
    }
  };
  const skipLineEnd = async (pos: number): Promise<number> => {
    while (buf.length < pos + 2 && (await more()));
    if (buf[pos] === 0x0d) pos++;
    if (buf[pos] === 0x0a) pos++;
    return pos;
  };
  /** Headers of the part starting at `pos`; returns them and where the part's body begins. */
  const headersAt = async (pos: number): Promise<{ headers: Record<string, string>; body: number }> => {
    while (buf.length < pos + 2 && (await more()));
    // A part without headers starts with the blank line itself.
    if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) return { headers: {}, body: pos + 2 };
    if (buf[pos] === 0x0a) return { headers: {}, body: pos + 1 };
    for (;;) {
      const crlf = buf.indexOf('\r\n\r\n', pos);
      const lf = buf.indexOf('\n\n', pos);
      if (crlf >= 0 || lf >= 0) {
        const useCrlf = crlf >= 0 && (lf < 0 || crlf < lf);
        const end = useCrlf ? crlf : lf;
        const headers: Record<string, string> = {};
        for (const line of buf.subarray(pos, end).toString('utf8').split(/\r?\n/)) {
          const c = line.indexOf(':');
          if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
        }
        return { headers, body: end + (useCrlf ? 4 : 2) };
      }
      if (buf.length - pos > MAX_PART_HEADERS)
        throw badRequest('The headers of a multipart part are too long.', undefined, 'badContent');
      if (!(await more())) throw notTerminated();
    }
  };
  const trimLineEnd = (b: Buffer): Buffer => {
    if (b[b.length - 1] === 0x0a) b = b.subarray(0, b.length - 1);
    if (b[b.length - 1] === 0x0d) b = b.subarray(0, b.length - 1);
    return b;
  };

  const first = await find(delimiter, 0, () =>
    badRequest('Multipart body does not contain the boundary.', undefined, 'badContent'),
  );
  const metaHead = await headersAt(await skipLineEnd(first + delimiter.length));
  const metaEnd = await find(delimiter, metaHead.body, notTerminated);
  const text = trimLineEnd(buf.subarray(metaHead.body, metaEnd)).toString('utf8').trim();
  let metadata: Record<string, unknown>;
  try {
    metadata = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    throw badRequest('The metadata part is not valid JSON.', undefined, 'parseError');
  }
  while (buf.length < metaEnd + delimiter.length + 2 && (await more()));
  if (buf.subarray(metaEnd + delimiter.length, metaEnd + delimiter.length + 2).toString('latin1') === '--')
    throw wrongPartCount();
  const mediaHead = await headersAt(await skipLineEnd(metaEnd + delimiter.length));
  buf = buf.subarray(mediaHead.body);

  // Bytes that might be the start of the closing delimiter (with its line end) are held back.
  const holdBack = delimiter.length + 2;
  async function* media(): AsyncGenerator<Buffer> {
    for (;;) {
      const i = buf.indexOf(delimiter);
      if (i >= 0) {
        const last = trimLineEnd(buf.subarray(0, i));
        if (last.length) yield last;
        buf = buf.subarray(i + delimiter.length);
        while (buf.length < 2 && (await more()));
        if (buf.subarray(0, 2).toString('latin1') !== '--') throw wrongPartCount();
        return;
      }
      if (buf.length > holdBack) {
        const out = buf.subarray(0, buf.length - holdBack);
        buf = buf.subarray(buf.length - holdBack);
        yield out;
      }
      if (!(await more())) throw notTerminated();
    }
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw badRequest('The metadata part is not a JSON object.', undefined, 'parseError');
  return { metadata, mediaType: mediaHead.headers['content-type'], media: media() };
}
