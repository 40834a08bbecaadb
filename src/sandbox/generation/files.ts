// Files API: resumable uploads under /upload/v1beta/files and file records under /v1beta/files.
// A record is PROCESSING for a short while after finalize, then ACTIVE (or FAILED on request).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FileRecord } from '../../shared/wire/generation';
import { BodyTooLargeError, readBody, readJson } from '../http';
import { normaliseRequest, queryParam } from './fieldNames';
import { notFound, rpcError, sendError } from './errors';

const CHUNK_GRANULARITY = 8 * 1024 * 1024;
const MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;
const KEEP_MS = 48 * 3600 * 1000;
export const DEFAULT_PROCESSING_MS = 400;

interface PendingUpload {
  id: string;
  declaredSize: number;
  mimeType: string;
  displayName?: string;
  name: string;
  chunks: Buffer[];
  received: number;
}

interface StoredFile {
  record: FileRecord;
  readyAt: number;
  fails: boolean;
}

function sendJsonPretty(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body, null, 2) + '\n';
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export class FileStore {
  private readonly uploads = new Map<string, PendingUpload>();
  private readonly files = new Map<string, StoredFile>();

  constructor(
    private readonly origin: () => string,
    private readonly processingMs = DEFAULT_PROCESSING_MS,
  ) {}

  /** The record as a client sees it now; state advances with time. */
  view(name: string): FileRecord | undefined {
    const f = this.files.get(name);
    if (!f) return undefined;
    if (Date.now() < f.readyAt) return { ...f.record, state: 'PROCESSING' };
    if (f.fails) {
      return {
        ...f.record,
        state: 'FAILED',
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: 'File processing failed: the media could not be decoded.',
        },
      };
    }
    return { ...f.record, state: 'ACTIVE' };
  }

  byUri(uri: string): FileRecord | undefined {
    const m = /\/v1beta\/(files\/[^/?#]+)$/.exec(uri);
    return m ? this.view(m[1]) : undefined;
  }

  async start(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const protocol = header(req, 'x-goog-upload-protocol');
    const command = header(req, 'x-goog-upload-command');
    if (protocol !== 'resumable' || command !== 'start') {
      sendError(
        res,
        rpcError(
          400,
          'INVALID_ARGUMENT',
          'Upload requests must use X-Goog-Upload-Protocol: resumable with X-Goog-Upload-Command: start.',
        ),
      );
      return;
    }
    let meta:
      { file?: { displayName?: string; name?: string; mimeType?: string; sizeBytes?: string | number } } | undefined;
    try {
      meta = normaliseRequest(await readJson(req), 'CreateFileRequest') as typeof meta;
    } catch (e) {
      if (e instanceof BodyTooLargeError) throw e;
      sendError(res, rpcError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
      return;
    }
    const size = Number(header(req, 'x-goog-upload-header-content-length') ?? meta?.file?.sizeBytes);
    const mimeType = header(req, 'x-goog-upload-header-content-type') ?? meta?.file?.mimeType;
    if (!Number.isFinite(size) || size < 0) {
      sendError(res, rpcError(400, 'INVALID_ARGUMENT', 'X-Goog-Upload-Header-Content-Length is required.'));
      return;
    }
    if (size > MAX_FILE_BYTES) {
      sendError(
        res,
        rpcError(400, 'INVALID_ARGUMENT', `File size ${size} exceeds the maximum of ${MAX_FILE_BYTES} bytes.`),
      );
      return;
    }
    if (!mimeType) {
      sendError(
        res,
        rpcError(
          400,
          'INVALID_ARGUMENT',
          'Mime type is required: set X-Goog-Upload-Header-Content-Type or file.mimeType.',
        ),
      );
      return;
    }
    const requested = meta?.file?.name;
    if (requested !== undefined && !/^files\/[a-z0-9-]{1,40}$/.test(requested)) {
      sendError(
        res,
        rpcError(
          400,
          'INVALID_ARGUMENT',
          'file.name must look like files/<id> with lowercase letters, digits and dashes.',
        ),
      );
      return;
    }
    const name = requested ?? `files/${randomBytes(6).toString('hex')}`;
    if (this.files.has(name)) {
      sendError(res, rpcError(409, 'ALREADY_EXISTS', `File ${name} already exists.`));
      return;
    }
    const id = randomBytes(16).toString('base64url');
    this.uploads.set(id, {
      id,
      declaredSize: size,
      mimeType,
      displayName: meta?.file?.displayName,
      name,
      chunks: [],
      received: 0,
    });
    res.writeHead(200, {
      'x-goog-upload-url': `${this.origin()}/upload/v1beta/files?upload_id=${id}&upload_protocol=resumable`,
      'x-goog-upload-status': 'active',
      'x-goog-upload-chunk-granularity': String(CHUNK_GRANULARITY),
      'x-goog-upload-control-url': `${this.origin()}/upload/v1beta/files?upload_id=${id}&upload_protocol=resumable`,
      'content-length': '0',
    });
    res.end();
  }

  async chunk(req: IncomingMessage, res: ServerResponse, uploadId: string): Promise<void> {
    const up = this.uploads.get(uploadId);
    if (!up) {
      res.writeHead(404, { 'x-goog-upload-status': 'cancelled', 'content-length': '0' });
      res.end();
      return;
    }
    const command = (header(req, 'x-goog-upload-command') ?? '').split(',').map((s) => s.trim());
    if (command.includes('query')) {
      answerActive(res, up.received);
      return;
    }
    if (command.includes('cancel')) {
      this.uploads.delete(uploadId);
      res.writeHead(200, { 'x-goog-upload-status': 'cancelled', 'content-length': '0' });
      res.end();
      return;
    }
    if (!command.includes('upload')) {
      sendError(
        res,
        rpcError(400, 'INVALID_ARGUMENT', 'X-Goog-Upload-Command must be upload, "upload, finalize", query or cancel.'),
      );
      return;
    }
    const offset = Number(header(req, 'x-goog-upload-offset'));
    const body = await readBody(req, MAX_FILE_BYTES);
    if (offset !== up.received) {
      res.writeHead(400, {
        'x-goog-upload-status': 'active',
        'x-goog-upload-size-received': String(up.received),
        'content-type': 'text/plain',
      });
      res.end(`Invalid X-Goog-Upload-Offset ${header(req, 'x-goog-upload-offset')}; expected ${up.received}.`);
      return;
    }
    up.chunks.push(body);
    up.received += body.length;
    if (!command.includes('finalize')) {
      answerActive(res, up.received);
      return;
    }
    if (up.received !== up.declaredSize) {
      res.writeHead(400, { 'x-goog-upload-status': 'active', 'content-type': 'text/plain' });
      res.end(`Upload finalized with ${up.received} bytes but ${up.declaredSize} were declared.`);
      return;
    }
    this.uploads.delete(uploadId);
    const data = Buffer.concat(up.chunks);
    const now = new Date();
    const record: FileRecord = {
      state: 'PROCESSING',
      name: up.name,
      ...(up.displayName ? { displayName: up.displayName } : {}),
      mimeType: up.mimeType,
      sizeBytes: String(data.length),
      createTime: now.toISOString(),
      updateTime: now.toISOString(),
      expirationTime: new Date(now.getTime() + KEEP_MS).toISOString(),
      sha256Hash: createHash('sha256').update(data).digest('base64'),
      uri: `${this.origin()}/v1beta/${up.name}`,
    };
    this.files.set(up.name, {
      record,
      readyAt: Date.now() + this.processingMs,
      fails: /\[\[fail\]\]/.test(up.displayName ?? ''),
    });
    sendJsonPretty(res, 200, { file: this.view(up.name) }, { 'x-goog-upload-status': 'final' });
  }

  get(res: ServerResponse, name: string): void {
    const f = this.view(name);
    if (!f)
      sendError(
        res,
        rpcError(
          403,
          'PERMISSION_DENIED',
          `You do not have permission to access the File ${name.slice(6)} or it may not exist.`,
        ),
      );
    else sendJsonPretty(res, 200, f);
  }

  list(res: ServerResponse, url: URL): void {
    const pageSize = Math.min(100, Math.max(1, Number(queryParam(url, 'pageSize') ?? 10) || 10));
    const token = queryParam(url, 'pageToken');
    const start = Number(token ? Buffer.from(token, 'base64url').toString() : 0) || 0;
    const names = [...this.files.keys()];
    const page = names.slice(start, start + pageSize).map((n) => this.view(n)!);
    const body: { files?: FileRecord[]; nextPageToken?: string } = {};
    if (page.length) body.files = page;
    if (start + pageSize < names.length)
      body.nextPageToken = Buffer.from(String(start + pageSize)).toString('base64url');
    sendJsonPretty(res, 200, body);
  }

  delete(res: ServerResponse, name: string): void {
    if (!this.files.delete(name)) {
      sendError(res, notFound(`File ${name} does not exist.`));
      return;
    }
    sendJsonPretty(res, 200, {});
  }
}

/** The answer to a query or a non-final chunk: the session is open and holds `received` bytes. */
function answerActive(res: ServerResponse, received: number): void {
  res.writeHead(200, {
    'x-goog-upload-status': 'active',
    'x-goog-upload-size-received': String(received),
    'content-length': '0',
  });
  res.end();
}
