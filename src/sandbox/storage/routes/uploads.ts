// The upload path: uploadType=media, multipart and resumable (initiate → chunks with Content-Range
// → 308 + Range until complete; status query `bytes */N`; resumption after a dropped connection).
import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { RESUMABLE_CHUNK_GRANULE } from '../../../shared/wire/storage';
import { ApiError, badRequest } from '../errors';
import { applyMetadata, applyModifiedDate, createFile, moveFile, setContent, type FileBody } from '../fileOps';
import { boundaryOf, parseMultipart } from '../multipart';
import { renderFile } from '../render';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readBody } from '../../http';

/** Largest single request body the emulator holds in memory (uploads above this must be resumable). */
const MAX_SIMPLE_UPLOAD = 2 ** 31 - 1;
/** Sessions live a week, like the real service's. */
const SESSION_TTL_MS = 7 * 24 * 3_600_000;

export interface UploadSession {
  id: string;
  kind: 'insert' | 'update';
  fileId?: string;
  metadata: FileBody;
  contentType?: string;
  total?: number;
  chunks: Buffer[];
  received: number;
  query: string;
  created: number;
  /** Set once complete: repeated status queries get the same answer. */
  result?: { status: number; json: unknown };
}

function session(svc: StorageService): Map<string, UploadSession> {
  return svc.uploads;
}

async function readMetadata(req: IncomingMessage): Promise<FileBody> {
  const buf = await readBody(req);
  if (buf.length === 0) return {};
  try {
    const v = JSON.parse(buf.toString('utf8')) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new SyntaxError('not an object');
    return v as FileBody;
  } catch {
    throw badRequest('The metadata is not a JSON object.', undefined, 'parseError');
  }
}

/** Creates or updates the file once all bytes are there; returns the JSON answer. */
function finish(ctx: RequestContext, svc: StorageService, kind: 'insert' | 'update', fileId: string | undefined, metadata: FileBody, bytes: Buffer, type: string | undefined, query: URLSearchParams): { status: number; json: unknown } {
  if (kind === 'insert') {
    const f = createFile(svc, query, metadata, { bytes, type: metadata.mimeType ?? type });
    return { status: 200, json: renderFile(svc.store, ctx.base, f) };
  }
  const f = svc.writableFile(fileId!);
  applyMetadata(svc, f, metadata);
  moveFile(svc, f, query, metadata);
  setContent(svc, f, bytes, query, { type: metadata.mimeType ?? type });
  // New content always counts as a change, metadata or not.
  applyModifiedDate(svc, f, query, metadata, true);
  svc.store.touchFile(f);
  return { status: 200, json: renderFile(svc.store, ctx.base, f) };
}

async function upload(ctx: RequestContext, svc: StorageService, kind: 'insert' | 'update'): Promise<Reply> {
  const q = ctx.query;
  const uploadId = q.get('upload_id');
  if (uploadId) return chunk(ctx, svc, uploadId);
  const type = q.get('uploadType') ?? 'media';
  if (ctx.method === 'DELETE') throw new ApiError(404, { domain: 'global', reason: 'notFound', message: 'No upload session given.' });
  if (kind === 'update') {
    const f = svc.writableFile(ctx.params.fileId);
    svc.checkFileIfMatch(ctx, f);
  }
  const contentType = ctx.req.headers['content-type'];
  switch (type) {
    case 'media': {
      const bytes = await readBody(ctx.req, MAX_SIMPLE_UPLOAD);
      return finish(ctx, svc, kind, ctx.params.fileId, {}, bytes, contentType, q);
    }
    case 'multipart': {
      const boundary = boundaryOf(contentType);
      if (!/^multipart\/related/i.test(contentType ?? '') || !boundary) throw badRequest('uploadType=multipart needs Content-Type multipart/related with a boundary.', 'Content-Type', 'badContent');
      const { metadata, media, mediaType } = parseMultipart(await readBody(ctx.req, MAX_SIMPLE_UPLOAD), boundary);
      if (kind === 'insert' && ctx.req.headers['if-none-match'] === '*' && typeof metadata.id === 'string' && svc.store.state.files[metadata.id]) {
        throw new ApiError(412, { domain: 'global', reason: 'conditionNotMet', message: 'Precondition Failed', locationType: 'header', location: 'If-None-Match' });
      }
      return finish(ctx, svc, kind, ctx.params.fileId, metadata as FileBody, media, mediaType, q);
    }
    case 'resumable': {
      const metadata = await readMetadata(ctx.req);
      const lengthHeader = ctx.req.headers['x-upload-content-length'];
      const total = lengthHeader !== undefined ? Number(lengthHeader) : undefined;
      if (total !== undefined && (!Number.isSafeInteger(total) || total < 0)) throw badRequest('Invalid X-Upload-Content-Length.', 'X-Upload-Content-Length', 'invalid');
      const id = randomBytes(24).toString('base64url');
      const query = new URLSearchParams(q);
      query.set('upload_id', id);
      const s: UploadSession = {
        id, kind, fileId: ctx.params.fileId, metadata, contentType: (ctx.req.headers['x-upload-content-type'] as string | undefined) ?? metadata.mimeType,
        total, chunks: [], received: 0, query: query.toString(), created: Date.now(),
      };
      pruneSessions(svc);
      session(svc).set(id, s);
      const path = kind === 'insert' ? 'files' : `files/${encodeURIComponent(ctx.params.fileId)}`;
      const location = `${ctx.base.origin}/upload${ctx.base.service}/${path}?${query.toString()}`;
      return { status: 200, empty: true, headers: { location, 'x-guploader-uploadid': id } };
    }
    default:
      throw badRequest(`Invalid uploadType ${type}; use media, multipart or resumable.`, 'uploadType', 'invalidParameter');
  }
}

function pruneSessions(svc: StorageService): void {
  const now = Date.now();
  for (const [id, s] of session(svc)) if (now - s.created > SESSION_TTL_MS) session(svc).delete(id);
}

function rangeHeaders(s: UploadSession): Record<string, string> {
  return s.received > 0 ? { range: `bytes=0-${s.received - 1}` } : {};
}

function incomplete(ctx: RequestContext, s: UploadSession): Reply {
  const headers = rangeHeaders(s);
  // Some clients cannot see 308s; they ask for 200 plus an override header instead.
  if (ctx.req.headers['x-guploader-no-308'] === 'yes') return { status: 200, empty: true, headers: { ...headers, 'x-http-status-code-override': '308' } };
  return { status: 308, empty: true, headers };
}

async function chunk(ctx: RequestContext, svc: StorageService, uploadId: string): Promise<Reply> {
  const s = session(svc).get(uploadId);
  if (!s) {
    await drain(ctx.req);
    throw new ApiError(404, { domain: 'global', reason: 'notFound', message: 'The upload session was not found or has expired; start a new upload.' });
  }
  if (ctx.method === 'DELETE') {
    session(svc).delete(uploadId);
    return { status: 499, empty: true };
  }
  if (s.result) {
    await drain(ctx.req);
    return { status: s.result.status, json: s.result.json };
  }
  const header = String(ctx.req.headers['content-range'] ?? '');
  let start = s.received;
  let total = s.total;
  let statusQuery = false;
  if (header) {
    const m = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(header.trim());
    if (!m) {
      await drain(ctx.req);
      throw badRequest(`Invalid Content-Range: ${header}`, 'Content-Range', 'invalid');
    }
    if (m[3] !== '*') total = Number(m[3]);
    if (m[1] === undefined) statusQuery = true;
    else start = Number(m[1]);
    if (total !== undefined && s.total !== undefined && total !== s.total) {
      await drain(ctx.req);
      throw badRequest(`Content-Range total ${total} differs from the announced length ${s.total}.`, 'Content-Range', 'invalid');
    }
  }
  if (start > s.received) {
    await drain(ctx.req);
    throw badRequest(`The upload offset ${start} is past the ${s.received} bytes stored so far.`, 'Content-Range', 'invalid');
  }
  const fault = statusQuery ? undefined : takeResetFault(svc);
  let skip = s.received - start;
  const pending: Buffer[] = [];
  let pendingLen = 0;
  try {
    for await (const piece of ctx.req) {
      let buf = piece as Buffer;
      if (skip > 0) {
        const n = Math.min(skip, buf.length);
        buf = buf.subarray(n);
        skip -= n;
      }
      if (!buf.length) continue;
      pending.push(buf);
      pendingLen += buf.length;
      if (fault !== undefined && pendingLen >= fault) {
        // Injected network failure: keep what a real server would have persisted, then drop the line.
        commit(s, pending, fault - (fault % RESUMABLE_CHUNK_GRANULE), total);
        ctx.res.destroy();
        return { handled: true };
      }
    }
  } catch {
    // The client went away mid-chunk: keep the whole granules that arrived, like a real server.
    commit(s, pending, pendingLen - (pendingLen % RESUMABLE_CHUNK_GRANULE), total);
    return { handled: true };
  }
  if (total !== undefined && s.received + pendingLen > total) throw badRequest('More bytes than the Content-Range total.', 'Content-Range', 'invalid');
  const isFinal = total !== undefined && s.received + pendingLen === total;
  if (isFinal) commit(s, pending, pendingLen, total);
  // Non-final chunks are kept in whole 256 KiB granules; the remainder must be sent again.
  else if (!statusQuery) commit(s, pending, pendingLen - (pendingLen % RESUMABLE_CHUNK_GRANULE), total);
  s.total = total ?? s.total;
  if (s.total !== undefined && s.received === s.total) {
    const bytes = Buffer.concat(s.chunks);
    s.chunks = [];
    const q = new URLSearchParams(s.query);
    const result = finish(ctx, svc, s.kind, s.fileId, s.metadata, bytes, s.contentType, q);
    s.result = { status: s.kind === 'insert' ? 201 : 200, json: result.json };
    return { status: s.result.status, json: s.result.json };
  }
  return incomplete(ctx, s);
}

/** Keeps the first `n` bytes of the pieces (no copying: the pieces are the request's own buffers). */
function commit(s: UploadSession, pending: Buffer[], n: number, total: number | undefined): void {
  let left = total !== undefined ? Math.min(n, total - s.received) : n;
  for (const piece of pending) {
    if (left <= 0) break;
    const take = piece.length <= left ? piece : piece.subarray(0, left);
    s.chunks.push(take);
    s.received += take.length;
    left -= take.length;
  }
}

function takeResetFault(svc: StorageService): number | undefined {
  const i = svc.faults.queued.findIndex((q) => q.kind === 'resetUpload');
  if (i < 0) return undefined;
  const f = svc.faults.queued.splice(i, 1)[0];
  return f.kind === 'resetUpload' ? f.afterBytes : undefined;
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req) {
    // discard
  }
}

export function registerUploadRoutes(r: Router<StorageService>): void {
  const insert = (ctx: RequestContext, svc: StorageService) => upload(ctx, svc, 'insert');
  const update = (ctx: RequestContext, svc: StorageService) => upload(ctx, svc, 'update');
  r.add('POST', 'files', insert, { upload: true });
  // Session URIs accept chunks by PUT (the protocol) and POST (what some clients send).
  r.add('PUT', 'files', insert, { upload: true });
  r.add('DELETE', 'files', insert, { upload: true });
  r.add('PUT', 'files/{fileId}', update, { upload: true });
  r.add('POST', 'files/{fileId}', update, { upload: true });
  r.add('PATCH', 'files/{fileId}', update, { upload: true });
  r.add('DELETE', 'files/{fileId}', update, { upload: true });
}
