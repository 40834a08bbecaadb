// The upload path: uploadType=media, multipart and resumable (initiate → chunks with Content-Range
// → 308 + Range until complete; status query `bytes */N`; resumption after a dropped connection).
// Media bytes stream into the blob store as they arrive; the file changes only when the upload
// commits, and `If-Match` is checked then, so an update made meanwhile by someone else is not lost.
import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { RESUMABLE_CHUNK_GRANULE } from '../../../shared/wire/storage';
import { ApiError, backendError, badRequest } from '../errors';
import { applyMetadata, applyModifiedDate, createFile, type FileBody } from '../fileOps';
import { setContent } from '../fileContent';
import { moveFile } from '../filePlacement';
import { boundaryOf, readMultipart } from '../multipart';
import { renderCreatedFile, renderFile } from '../render';
import type { Reply, RequestContext, Router } from '../router';
import { checkIfMatchHeader, type StorageService } from '../service';
import { tokenHash } from '../uploadSessions';
import { etagOf, type UploadSession } from '../model';
import type { BlobRef } from '../blobs';
import { checkBody } from '../body';
import { readBody } from '../../http';

/** Largest simple or multipart upload (the document's maxSize is 5 TiB; the sandbox stops at 5 GiB). */
const MAX_SIMPLE_UPLOAD = 5 * 2 ** 30;
/** Sessions live a week, like the real service's. */
const SESSION_TTL_MS = 7 * 24 * 3_600_000;

async function readMetadata(req: IncomingMessage): Promise<FileBody> {
  const buf = await readBody(req);
  if (buf.length === 0) return {};
  let v: unknown;
  try {
    v = JSON.parse(buf.toString('utf8')) as unknown;
  } catch {
    throw badRequest('The metadata is not a JSON object.', undefined, 'parseError');
  }
  checkBody(v, 'File');
  return v as FileBody;
}

function header(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * Creates or updates the file once all bytes are stored; returns the JSON answer. Runs synchronously
 * from the precondition check to the change, so nothing can slip in between.
 */
function commitUpload(
  ctx: RequestContext,
  svc: StorageService,
  kind: 'insert' | 'update',
  fileId: string | undefined,
  metadata: FileBody,
  blob: BlobRef,
  type: string | undefined,
  query: URLSearchParams,
  ifMatch: string | undefined,
): { status: number; json: unknown } {
  if (kind === 'insert') {
    const f = createFile(svc, query, metadata, { blob, type: metadata.mimeType ?? type });
    return { status: 200, json: renderCreatedFile(svc.store, ctx.base, f) };
  }
  const f = svc.writableFile(fileId!);
  checkIfMatchHeader(ifMatch, etagOf('file', f.id, f.version));
  applyMetadata(svc, f, metadata);
  moveFile(svc, f, query, metadata);
  setContent(svc, f, blob, query, { type: metadata.mimeType ?? type });
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
  if (ctx.method === 'DELETE')
    throw new ApiError(404, { domain: 'global', reason: 'notFound', message: 'No upload session given.' });
  // Fail early on a missing or read-only file; the precondition itself is checked at commit time.
  if (kind === 'update') svc.writableFile(ctx.params.fileId);
  const ifMatch = header(ctx, 'if-match');
  const contentType = header(ctx, 'content-type');
  switch (type) {
    case 'media': {
      const blob = await svc.store.blobs.putStream(ctx.req, MAX_SIMPLE_UPLOAD);
      return commitUpload(ctx, svc, kind, ctx.params.fileId, {}, blob, contentType, q, ifMatch);
    }
    case 'multipart': {
      const boundary = boundaryOf(contentType);
      if (!/^multipart\/related/i.test(contentType ?? '') || !boundary)
        throw badRequest(
          'uploadType=multipart needs Content-Type multipart/related with a boundary.',
          'Content-Type',
          'badContent',
        );
      const { metadata, media, mediaType } = await readMultipart(ctx.req, boundary);
      checkBody(metadata, 'File');
      const blob = await svc.store.blobs.putStream(media, MAX_SIMPLE_UPLOAD);
      if (
        kind === 'insert' &&
        header(ctx, 'if-none-match') === '*' &&
        typeof metadata.id === 'string' &&
        svc.store.file(metadata.id)
      ) {
        throw new ApiError(412, {
          domain: 'global',
          reason: 'conditionNotMet',
          message: 'Precondition Failed',
          locationType: 'header',
          location: 'If-None-Match',
        });
      }
      return commitUpload(ctx, svc, kind, ctx.params.fileId, metadata, blob, mediaType, q, ifMatch);
    }
    case 'resumable': {
      const metadata = await readMetadata(ctx.req);
      const lengthHeader = header(ctx, 'x-upload-content-length');
      const total = lengthHeader !== undefined ? Number(lengthHeader) : undefined;
      if (total !== undefined && (!Number.isSafeInteger(total) || total < 0))
        throw badRequest('Invalid X-Upload-Content-Length.', 'X-Upload-Content-Length', 'invalid');
      const id = randomBytes(24).toString('base64url');
      const query = new URLSearchParams(q);
      query.set('upload_id', id);
      const partial = await svc.store.blobs.startPartial();
      const s: UploadSession = {
        id,
        kind,
        fileId: ctx.params.fileId,
        metadata,
        contentType: header(ctx, 'x-upload-content-type') ?? metadata.mimeType,
        total,
        received: 0,
        partial,
        partialName: partial.name,
        query: query.toString(),
        created: Date.now(),
        tokenHash: tokenHash(ctx.token),
        ifMatch,
        busy: false,
      };
      await pruneSessions(svc);
      svc.uploads.start(s);
      const path = kind === 'insert' ? 'files' : `files/${encodeURIComponent(ctx.params.fileId)}`;
      const location = `${ctx.base.origin}/upload${ctx.base.service}/${path}?${query.toString()}`;
      return { status: 200, empty: true, headers: { location, 'x-guploader-uploadid': id } };
    }
    default:
      throw badRequest(
        `Invalid uploadType ${type}; use media, multipart or resumable.`,
        'uploadType',
        'invalidParameter',
      );
  }
}

async function pruneSessions(svc: StorageService): Promise<void> {
  const now = Date.now();
  for (const s of [...svc.uploads.values()]) {
    if (now - s.created <= SESSION_TTL_MS) continue;
    svc.uploads.end(s.id);
    await s.partial.discard();
  }
}

function rangeHeaders(s: UploadSession): Record<string, string> {
  return s.received > 0 ? { range: `bytes=0-${s.received - 1}` } : {};
}

function incomplete(ctx: RequestContext, s: UploadSession): Reply {
  const headers = rangeHeaders(s);
  // Some clients cannot see 308s; they ask for 200 plus an override header instead.
  if (ctx.req.headers['x-guploader-no-308'] === 'yes')
    return { status: 200, empty: true, headers: { ...headers, 'x-http-status-code-override': '308' } };
  return { status: 308, empty: true, headers };
}

async function chunk(ctx: RequestContext, svc: StorageService, uploadId: string): Promise<Reply> {
  const s = svc.uploads.get(uploadId);
  // Another client's session does not exist for this caller (the URL alone grants nothing).
  if (!s || s.tokenHash !== tokenHash(ctx.token)) {
    await drain(ctx.req);
    throw new ApiError(404, {
      domain: 'global',
      reason: 'notFound',
      message: 'The upload session was not found or has expired; start a new upload.',
    });
  }
  if (ctx.method === 'DELETE') {
    svc.uploads.end(uploadId);
    await s.partial.discard();
    return { status: 499, empty: true };
  }
  if (s.result) {
    await drain(ctx.req);
    return { status: s.result.status, json: s.result.json };
  }
  const contentRange = String(ctx.req.headers['content-range'] ?? '');
  let start = s.received;
  let total = s.total;
  let statusQuery = false;
  if (contentRange) {
    const m = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(contentRange.trim());
    if (!m) {
      await drain(ctx.req);
      throw badRequest(`Invalid Content-Range: ${contentRange}`, 'Content-Range', 'invalid');
    }
    if (m[3] !== '*') total = Number(m[3]);
    if (m[1] === undefined) statusQuery = true;
    else start = Number(m[1]);
    if (total !== undefined && (!Number.isSafeInteger(total) || (s.total !== undefined && total !== s.total))) {
      await drain(ctx.req);
      throw badRequest(
        `Content-Range total ${m[3]} differs from the announced length ${s.total}.`,
        'Content-Range',
        'invalid',
      );
    }
  }
  if (start > s.received) {
    await drain(ctx.req);
    throw badRequest(
      `The upload offset ${start} is past the ${s.received} bytes stored so far.`,
      'Content-Range',
      'invalid',
    );
  }
  if (s.busy && !statusQuery) {
    await drain(ctx.req);
    throw new ApiError(503, backendError(503).item, { 'retry-after': '1' });
  }
  if (statusQuery) {
    await drain(ctx.req);
    if (total !== undefined && s.received === total) return complete(ctx, svc, s, total);
    return incomplete(ctx, s);
  }
  s.busy = true;
  try {
    return await receive(ctx, svc, s, start, total);
  } finally {
    s.busy = false;
  }
}

/** Appends a chunk's bytes to the session's partial blob as they arrive. */
async function receive(
  ctx: RequestContext,
  svc: StorageService,
  s: UploadSession,
  start: number,
  total: number | undefined,
): Promise<Reply> {
  const fault = takeResetFault(svc);
  let skip = s.received - start;
  let written = 0;
  // Bytes past the committed ones are written, then cut back to what a real server keeps.
  await s.partial.truncate(s.received);
  // What is kept is synced, then recorded: the record goes to disk before the answer that reports it.
  const keep = async (n: number) => {
    const limit = total !== undefined ? Math.min(n, total - s.received) : n;
    await s.partial.truncate(s.received + limit);
    await s.partial.sync();
    s.received += limit;
    svc.uploads.save(s);
  };
  try {
    for await (const piece of ctx.req) {
      let buf = piece as Buffer;
      if (skip > 0) {
        const n = Math.min(skip, buf.length);
        buf = buf.subarray(n);
        skip -= n;
      }
      if (!buf.length) continue;
      if (total !== undefined && s.received + written + buf.length > total) {
        await s.partial.truncate(s.received);
        await drain(ctx.req);
        throw badRequest('More bytes than the Content-Range total.', 'Content-Range', 'invalid');
      }
      await s.partial.append(buf);
      written += buf.length;
      if (fault !== undefined && written >= fault) {
        // Injected network failure: keep what a real server would have persisted, then drop the line.
        await keep(fault - (fault % RESUMABLE_CHUNK_GRANULE));
        ctx.res.destroy();
        return { handled: true };
      }
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // The client went away mid-chunk: keep the whole granules that arrived, like a real server.
    await keep(written - (written % RESUMABLE_CHUNK_GRANULE));
    return { handled: true };
  }
  const isFinal = total !== undefined && s.received + written === total;
  // Non-final chunks are kept in whole 256 KiB granules; the remainder must be sent again.
  await keep(isFinal ? written : written - (written % RESUMABLE_CHUNK_GRANULE));
  if (total !== undefined && s.total !== total) {
    s.total = total;
    svc.uploads.save(s);
  }
  if (s.total !== undefined && s.received === s.total) return complete(ctx, svc, s, s.total);
  return incomplete(ctx, s);
}

/** All bytes are in: the blob is sealed and the file created or updated, preconditions checked now. */
async function complete(ctx: RequestContext, svc: StorageService, s: UploadSession, total: number): Promise<Reply> {
  s.total = total;
  const blob = await s.partial.complete();
  const q = new URLSearchParams(s.query);
  try {
    const result = commitUpload(ctx, svc, s.kind, s.fileId, s.metadata, blob, s.contentType, q, s.ifMatch);
    s.result = { status: s.kind === 'insert' ? 201 : 200, json: result.json };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    // A refused commit (412, 403, 400) ends the session: the same answer to every later query.
    s.result = { status: e.status, json: e.body() };
  }
  // The answer is kept with the file it created, in the same commit: a client that lost it asks again and gets
  // the same file, never a second one.
  svc.uploads.save(s);
  return { status: s.result.status, json: s.result.json };
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
