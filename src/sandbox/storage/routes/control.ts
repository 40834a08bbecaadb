// Sandbox-only control surface (not part of the API): read and set rate limits and queue faults,
// so tests and demos can make the emulator misbehave on purpose. Needs the same bearer token.
import { badRequest } from '../errors';
import type { Reply, RequestContext, Router } from '../router';
import type { FaultConfig, QueuedFault, StorageService } from '../service';
import { readJson } from '../../http';
import { FOLDER_MIME } from '../../../shared/wire/storage';
import { blankFile } from '../fileOps';

/** The sandbox's control bodies are JSON objects; anything else is the caller's error, not ours. */
function controlBody<T extends object>(value: T | undefined): T {
  if (value === undefined || value === null) return {} as T;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('The request body must be a JSON object.');
  return value;
}

async function setFaults(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const body = controlBody(await readJson<Partial<FaultConfig> & { reset?: boolean }>(ctx.req));
  const f = svc.faults;
  if (body.reset) {
    f.queued.length = 0;
    f.rateLimitPerSecond = 0;
    f.shortPageBy = 0;
    f.rateLimitStatus = 403;
    f.diskFull = false;
  }
  if (body.diskFull !== undefined) {
    if (typeof body.diskFull !== 'boolean') throw badRequest('diskFull must be true or false');
    f.diskFull = body.diskFull;
  }
  if (body.rateLimitPerSecond !== undefined) {
    if (!Number.isInteger(body.rateLimitPerSecond) || body.rateLimitPerSecond < 0)
      throw badRequest('rateLimitPerSecond must be a non-negative integer');
    f.rateLimitPerSecond = body.rateLimitPerSecond;
  }
  if (body.rateLimitStatus !== undefined) {
    if (body.rateLimitStatus !== 403 && body.rateLimitStatus !== 429)
      throw badRequest('rateLimitStatus must be 403 or 429');
    f.rateLimitStatus = body.rateLimitStatus;
  }
  if (body.shortPageBy !== undefined) {
    if (!Number.isInteger(body.shortPageBy) || body.shortPageBy < 0)
      throw badRequest('shortPageBy must be a non-negative integer');
    f.shortPageBy = body.shortPageBy;
  }
  if (body.queued !== undefined && !Array.isArray(body.queued)) throw badRequest('queued must be a list of faults');
  for (const q of body.queued ?? []) f.queued.push(validFault(q));
  return getFaults(ctx, svc);
}

function validFault(q: QueuedFault): QueuedFault {
  if (q?.kind === 'status' && Number.isInteger(q.status) && q.status >= 400 && q.status <= 599) return q;
  if (q?.kind === 'rateLimit' && (q.status === 403 || q.status === 429)) return q;
  if (q?.kind === 'resetUpload' && Number.isInteger(q.afterBytes) && q.afterBytes >= 0) return q;
  throw badRequest(`Unknown fault ${JSON.stringify(q)}`);
}

function getFaults(_ctx: RequestContext, svc: StorageService): Reply {
  return { status: 200, json: svc.faults };
}

/**
 * Adds `count` small files to a new folder under the root in one step (benchmarks and demos need
 * folders far larger than the sample data, and creating them call by call would dominate).
 */
async function seedFolder(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const body = controlBody(await readJson<{ title?: string; count?: number }>(ctx.req));
  if (body.title !== undefined && typeof body.title !== 'string') throw badRequest('title must be a string');
  const count = body.count ?? 0;
  if (!Number.isInteger(count) || count < 0 || count > 200_000)
    throw badRequest('count must be an integer from 0 to 200000');
  const folder = blankFile(
    svc,
    svc.store.newId(),
    body.title ?? `Seeded ${count}`,
    FOLDER_MIME,
    [svc.store.state.rootId],
    undefined,
  );
  svc.store.addFile(folder);
  for (let i = 1; i <= count; i++) {
    const name = `item-${String(i).padStart(6, '0')}.txt`;
    const f = blankFile(svc, svc.store.newId(), name, 'text/plain', [folder.id], undefined);
    f.content = svc.store.blobs.putBytes(Buffer.from(`${name}\n`));
    f.originalFilename = name;
    svc.store.state.files[f.id] = f;
    svc.store.setParents(f, [folder.id]);
  }
  svc.store.wholeStateChanged();
  return { status: 200, json: { id: folder.id, count } };
}

async function oauthConfig(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const body = controlBody(await readJson<{ accessTokenTtlSeconds?: number }>(ctx.req));
  if (body.accessTokenTtlSeconds !== undefined) {
    if (!Number.isInteger(body.accessTokenTtlSeconds) || body.accessTokenTtlSeconds < 0)
      throw badRequest('accessTokenTtlSeconds must be a non-negative integer');
    svc.oauth.accessTtlSeconds = body.accessTokenTtlSeconds;
  }
  return { status: 200, json: { accessTokenTtlSeconds: svc.oauth.accessTtlSeconds } };
}

/** Where the sandbox's own controls are, under the service's path: faults are not applied to them. */
export const CONTROL_PREFIX = '__sandbox/';

export function registerControlRoutes(r: Router<StorageService>): void {
  r.add('POST', `${CONTROL_PREFIX}oauth`, oauthConfig);
  r.add('POST', `${CONTROL_PREFIX}seedFolder`, seedFolder);
  r.add('GET', `${CONTROL_PREFIX}faults`, getFaults);
  r.add('POST', `${CONTROL_PREFIX}faults`, setFaults);
}
