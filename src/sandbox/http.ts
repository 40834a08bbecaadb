// Small HTTP helpers shared by every emulator. Plain node:http keeps the sandbox
// dependency-free, so `api-workbench sandbox` starts fast and the extension can host it in-process.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_JSON_BODY = 64 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

function tooLarge(limit: number): string {
  return `Request payload size exceeds the limit: ${limit} bytes.`;
}

export async function readBody(req: IncomingMessage, limit = MAX_JSON_BODY): Promise<Buffer> {
  // A declared length over the limit is refused before a byte is read.
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new BodyTooLargeError(tooLarge(limit));
  // Listeners rather than `for await`: leaving an async iterator early destroys the request, and with it
  // the socket, before the 413 is written (the client then sees a broken pipe instead of the answer).
  // Past the limit the rest is discarded unread; the 413 goes out with `connection: close`.
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (buf: Buffer) => {
      size += buf.length;
      if (size <= limit) return void chunks.push(buf);
      req.off('data', onData);
      req.off('end', onEnd);
      chunks.length = 0;
      req.resume();
      reject(new BodyTooLargeError(tooLarge(limit)));
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/** Parses a JSON body; `undefined` for an empty body, throws SyntaxError on malformed JSON. */
export async function readJson<T = unknown>(req: IncomingMessage, limit = MAX_JSON_BODY): Promise<T | undefined> {
  const buf = await readBody(req, limit);
  if (buf.length === 0) return undefined;
  return JSON.parse(buf.toString('utf8')) as T;
}

/** How long a refused body may keep arriving before the connection is cut. */
const LINGER_MS = 5_000;

/**
 * Reads and discards what is left of a request body the answer did not need (a refusal part-way through a
 * multipart upload, a 4xx before the body was looked at), so the keep-alive connection can carry the
 * client's next request: a body left half-read stalls the connection, and the client's next request on it
 * waits for minutes. Read in paused mode, so it drains even where a reader gave up part-way (an abandoned
 * async iterator keeps its 'readable' listener, which would stop `resume()` from flowing). A client still
 * sending after LINGER_MS is cut off, so a body without end costs nothing more.
 */
function discardRest(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
  const drain = () => {
    while (req.read() !== null);
  };
  req.on('readable', drain);
  drain();
}

/**
 * Every emulator calls this first: once its answer is out, whatever of the request body is still unread is
 * read and discarded (see discardRest). One place for every refusal, whichever emulator or path sent it.
 */
export function settleBodyAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => discardRest(req));
}

/**
 * A 413 while the client may still be sending its body. The answer goes out at once and the rest of the body
 * is read and discarded, never kept (a lingering close): closing at once reset the connection under the
 * client's next write, which then failed with a broken pipe before it had read the answer.
 */
export function sendTooLarge(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  // Node ends a connection the client asked to close as soon as the answer is out, unread body or not;
  // kept open, the client ends it once its body is sent.
  if (!req.complete) res.shouldKeepAlive = true;
  sendJson(res, 413, body);
  discardRest(req);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}
