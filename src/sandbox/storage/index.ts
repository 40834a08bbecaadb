// The file storage emulator: Drive v2 semantics under /store/v2 (and /drive/v2 so off-the-shelf
// Drive clients work), with uploads under /upload/… . Requests pass auth, rate limiting and fault
// injection, then the route table; JSON answers honour `fields` and `prettyPrint`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator, EmulatorFactory, SandboxContext } from '../types';
import { ApiError, authError, backendError, badRequest, methodNotAllowed, rateLimited } from './errors';
import { FieldSyntaxError, parseFields, project } from './fields';
import { Store } from './model';
import { seedState } from './seed';
import { Router, type Reply, type RequestContext } from './router';
import { StorageService } from './service';
import { registerReadRoutes } from './routes/read';
import { registerRoutes } from './routes';
import { BlobUnreadableError, DirectoryBlobStore } from './blobs';
import { DurableStore, NotDurableError } from './durable/durableStore';
import { ownerOnlyFolder } from './durable/io';
import { MemoryCollector } from './memoryCollector';
import * as path from 'node:path';
import { CONTROL_PREFIX, registerControlRoutes } from './routes/control';
import { BodyTooLargeError, sendJson, sendTooLarge, settleBodyAfterAnswer } from '../http';
import { BATCH_PATHS, handleBatch } from './batch';

const API_PREFIXES = [
  { prefix: '/resumable/upload/store/v2', service: '/store/v2', upload: true },
  { prefix: '/resumable/upload/drive/v2', service: '/drive/v2', upload: true },
  { prefix: '/upload/store/v2', service: '/store/v2', upload: true },
  { prefix: '/upload/drive/v2', service: '/drive/v2', upload: true },
  { prefix: '/store/v2', service: '/store/v2', upload: false },
  { prefix: '/drive/v2', service: '/drive/v2', upload: false },
];

/** Where the sandbox's authorization server lives (see oauth.ts). */
const OAUTH_PREFIX = '/o/oauth2';

export interface StorageEmulator extends Emulator {
  readonly service: StorageService;
}

export const createStorageEmulator: EmulatorFactory = (ctx: SandboxContext): StorageEmulator => createStorage(ctx);

/** Where the storage emulator keeps its state under a data directory (`DIR/storage`, contents in `blobs`). */
export function storageDirOf(dataDir: string): string {
  return path.join(dataDir, 'storage');
}

export function createStorage(ctx: SandboxContext, opts: { now?: () => Date } = {}): StorageEmulator {
  const dir = ctx.dataDir ? storageDirOf(ctx.dataDir) : undefined;
  if (ctx.dataDir) ownerOnlyFolder(ctx.dataDir);
  if (dir) ownerOnlyFolder(dir);
  const sync = ctx.durability !== 'off';
  const blobs = DirectoryBlobStore.open(ctx.blobDir ?? (dir ? path.join(dir, 'blobs') : undefined), sync);
  // The diskFull fault lives with the other faults, on the service made below.
  const serviceRef: { current?: StorageService } = {};
  const durable = dir
    ? DurableStore.open(dir, blobs, () => seedState(blobs), {
        sync,
        diskFull: () => serviceRef.current?.faults.diskFull === true,
      })
    : undefined;
  const store = new Store(durable ? durable.state : seedState(blobs), blobs, opts.now);
  // In memory, nothing is written: unreferenced contents are collected a moment after a burst of changes.
  const collector = durable ? undefined : new MemoryCollector(store, blobs);
  durable?.attach(store);
  const service = new StorageService(store, ctx);
  serviceRef.current = service;
  const router = new Router<StorageService>();
  registerReadRoutes(router);
  registerRoutes(router);
  registerControlRoutes(router);
  const requestTimes: number[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    settleBodyAfterAnswer(req, res);
    if (url.pathname.startsWith(OAUTH_PREFIX + '/')) return service.oauth.handle(req, res, url);
    if (BATCH_PATHS.includes(url.pathname)) {
      try {
        return await handleBatch(req, res, ctx.origin());
      } catch (e) {
        if (e instanceof ApiError && !res.headersSent) return sendJson(res, e.status, e.body(), e.headers);
        if (e instanceof BodyTooLargeError && !res.headersSent)
          return sendTooLarge(
            req,
            res,
            new ApiError(413, { domain: 'global', reason: 'uploadTooLarge', message: e.message }).body(),
          );
        throw e;
      }
    }
    const mount = API_PREFIXES.find((p) => url.pathname === p.prefix || url.pathname.startsWith(p.prefix + '/'));
    if (!mount)
      return sendJson(
        res,
        404,
        new ApiError(404, { domain: 'global', reason: 'notFound', message: 'Not Found' }).body(),
      );
    try {
      const token = bearer(req) ?? url.searchParams.get('access_token') ?? url.searchParams.get('oauth_token');
      // Every call, upload-session chunks included, needs a valid token: a session URI that leaked into a
      // log is no credential. The session itself is bound to the token that opened it (routes/uploads.ts).
      if (!token || (token !== ctx.accessToken && !service.oauth.accepts(token))) throw authError();
      const path = url.pathname.slice(mount.prefix.length + 1).replace(/\/+$/, '');
      // The sandbox's own controls are not the emulated service: a rate limit or a queued fault set through
      // them must not stop the test that set it from turning it off.
      if (!path.startsWith(CONTROL_PREFIX)) applyFaults(req, url);
      const method =
        (req.headers['x-http-method-override'] as string | undefined)?.toUpperCase() ?? req.method ?? 'GET';
      const match = router.match(method, path, mount.upload);
      if (match === 'method') throw methodNotAllowed();
      if (match === 'badEscape')
        throw badRequest('The request path has an invalid percent-encoded segment.', undefined, 'badRequest');
      if (!match) throw new ApiError(404, { domain: 'global', reason: 'notFound', message: 'Not Found' });
      // Links go back to the name the client used, on the scheme the sandbox serves (https with --tls).
      const scheme = ctx.origin().startsWith('https:') ? 'https:' : 'http:';
      const host = req.headers.host ? `${scheme}//${req.headers.host}` : ctx.origin();
      const rc: RequestContext = {
        req,
        res,
        url,
        method,
        path,
        upload: mount.upload,
        query: url.searchParams,
        params: match.params,
        base: { origin: host, service: mount.service },
        token,
      };
      const fields = url.searchParams.get('fields');
      let tree;
      try {
        tree = fields ? parseFields(fields) : undefined;
      } catch (e) {
        if (e instanceof FieldSyntaxError)
          throw new ApiError(400, {
            domain: 'global',
            reason: 'invalidParameter',
            message: `Invalid field selection ${fields}`,
            locationType: 'parameter',
            location: 'fields',
          });
        throw e;
      }
      if (tree) {
        rc.fields = tree;
        const items = tree.get('items');
        if (items !== undefined) rc.itemFields = items === true ? undefined : new Set(items.keys());
      }
      const epoch = durable?.epoch ?? 0;
      const generation = store.generation;
      const reply = await match.handler(rc, service);
      // Acknowledged only once durable: the writes of this request (and of any at the same time) are synced first.
      // A session's status query waits too: the bytes it reports may be in a commit still running.
      const session = url.searchParams.has('upload_id');
      if (durable && (store.generation !== generation || store.hasWrites || session)) await durable.commit(epoch);
      await writeReply(
        res,
        reply,
        tree ? (v) => project(v, tree) : (v) => v,
        url.searchParams.get('prettyPrint') !== 'false',
      );
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof ApiError) return sendJson(res, e.status, e.body(), e.headers);
      if (e instanceof NotDurableError) {
        const status = e.diskFull ? 507 : 503;
        const reason = e.diskFull ? 'insufficientStorage' : 'backendError';
        return sendJson(res, status, new ApiError(status, { domain: 'global', reason, message: e.message }).body());
      }
      const code = (e as NodeJS.ErrnoException | undefined)?.code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        // Contents that could not be written (an upload on a full disk): nothing was stored.
        const message =
          'No space left on the device holding the sandbox data: nothing was stored. Free some space and retry.';
        return sendJson(
          res,
          507,
          new ApiError(507, { domain: 'global', reason: 'insufficientStorage', message }).body(),
        );
      }
      if (e instanceof BlobUnreadableError) return sendJson(res, 500, contentUnreadable(e).body());
      if (e instanceof SyntaxError)
        return sendJson(res, 400, badRequest(`Parse Error: ${e.message}`, undefined, 'parseError').body());
      if (e instanceof BodyTooLargeError) {
        const tooLarge = new ApiError(413, { domain: 'global', reason: 'uploadTooLarge', message: e.message });
        return sendTooLarge(req, res, tooLarge.body());
      }
      throw e;
    }
  };

  /** Rate limit and injected faults, checked before any work so a failed call changes nothing. */
  const applyFaults = (req: IncomingMessage, url: URL): void => {
    const instr = String(req.headers['x-goog-emulator-instructions'] ?? '');
    const forced = /^return-(\d{3})$/.exec(instr);
    if (forced) {
      const status = Number(forced[1]);
      if (status === 429) throw rateLimited(429);
      if (status === 403) throw rateLimited(403);
      throw status >= 500
        ? backendError(status)
        : new ApiError(status, { domain: 'global', reason: 'injected', message: `Injected ${status}` });
    }
    const f = service.faults;
    const idx = f.queued.findIndex(
      (q) => q.kind !== 'resetUpload' && (!q.pathContains || url.pathname.includes(q.pathContains)),
    );
    if (idx >= 0) {
      const q = f.queued.splice(idx, 1)[0];
      if (q.kind === 'rateLimit') throw rateLimited(q.status);
      if (q.kind === 'status')
        throw q.status >= 500
          ? backendError(q.status)
          : new ApiError(q.status, { domain: 'global', reason: 'injected', message: `Injected ${q.status}` });
    }
    if (f.rateLimitPerSecond > 0) {
      const now = Date.now();
      while (requestTimes.length && requestTimes[0] <= now - 1000) requestTimes.shift();
      if (requestTimes.length >= f.rateLimitPerSecond) throw rateLimited(f.rateLimitStatus);
      requestTimes.push(now);
    }
  };

  return {
    name: 'storage',
    prefixes: [...API_PREFIXES.map((p) => p.prefix), OAUTH_PREFIX, ...BATCH_PATHS],
    service,
    handle,
    async close() {
      await service.close();
      await durable?.close();
      collector?.close();
      await blobs.close();
    },
  };
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  return m ? m[1].trim() : undefined;
}

/** A stored content the data folder no longer holds whole: the service's 500, naming what is wrong. */
function contentUnreadable(e: BlobUnreadableError): ApiError {
  return new ApiError(500, { domain: 'global', reason: 'internalError', message: e.message });
}

async function writeReply(
  res: ServerResponse,
  reply: Reply,
  shape: (v: unknown) => unknown,
  pretty: boolean,
): Promise<void> {
  if ('handled' in reply) return;
  const headers = { ...(reply.headers ?? {}) };
  if ('json' in reply) {
    const text = pretty ? JSON.stringify(shape(reply.json), null, 1) : JSON.stringify(shape(reply.json));
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  } else if ('stream' in reply) {
    // Opened (its size checked against the state) before the status line: a missing or cut-short blob is a
    // 500 in the service's shape, not a 200 promising bytes that never come.
    const source = await reply.stream();
    res.writeHead(reply.status, {
      'content-type': reply.contentType,
      'content-length': String(reply.length),
      ...headers,
    });
    // Past the status line a failure can only cut the connection, at once: a read error, or the file cut
    // short while it streams (the stream then ends early without an error, and the client would wait for
    // the bytes the length promised).
    let sent = 0;
    source.on('data', (chunk: Buffer) => (sent += chunk.length));
    source.on('error', () => res.destroy());
    source.on('end', () => (sent === reply.length ? res.end() : res.destroy()));
    res.on('close', () => source.destroy());
    source.pipe(res, { end: false });
  } else if ('bytes' in reply) {
    res.writeHead(reply.status, {
      'content-type': reply.contentType,
      'content-length': String(reply.bytes.length),
      ...headers,
    });
    res.end(reply.bytes);
  } else {
    res.writeHead(reply.status, { 'content-length': '0', ...headers });
    res.end();
  }
}
