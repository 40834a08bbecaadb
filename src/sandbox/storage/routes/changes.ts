// The change feed (getStartPageToken, list, get) and notification channels (changes.watch,
// files.watch, channels.stop). Page tokens are change ids: "everything from this id on".
import type { Channel } from '../../../shared/wire/storage';
import { ApiError, notFound } from '../errors';
import type { StoredChange } from '../model';
import { boolParam, intParam } from '../params';
import { apiUrl, renderDrive, renderFile } from '../render';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';

function startToken(_ctx: RequestContext, svc: StorageService): Reply {
  const driveId = _ctx.query.get('driveId') ?? _ctx.query.get('teamDriveId');
  if (driveId && !svc.store.state.drives[driveId]) throw notFound('Shared drive', driveId);
  return { status: 200, json: { kind: 'drive#startPageToken', startPageToken: String(svc.store.state.nextChangeId) } };
}

function badToken(): ApiError {
  return new ApiError(400, {
    domain: 'global',
    reason: 'invalid',
    message: 'Invalid Value',
    locationType: 'parameter',
    location: 'pageToken',
  });
}

function renderChange(ctx: RequestContext, svc: StorageService, c: StoredChange): Record<string, unknown> {
  const s = svc.store.state;
  const base = {
    kind: 'drive#change',
    id: String(c.id),
    modificationDate: c.time,
    selfLink: apiUrl(ctx.base, `changes/${c.id}`),
  };
  if (c.changeType === 'drive') {
    const d = s.drives[c.targetId];
    const gone = c.removed || !d;
    return {
      ...base,
      changeType: 'drive',
      type: 'drive',
      driveId: c.targetId,
      deleted: gone,
      ...(gone ? {} : { drive: renderDrive(svc.store, d) }),
    };
  }
  const f = s.files[c.targetId];
  const gone = c.removed || !f || !svc.canSee(f);
  return {
    ...base,
    changeType: 'file',
    type: 'file',
    fileId: c.targetId,
    deleted: gone,
    ...(c.driveId ? { driveId: c.driveId } : {}),
    ...(gone ? {} : { file: renderFile(svc.store, ctx.base, f) }),
  };
}

/** Which logged changes a request sees (its drive, or the user's corpus, spaces, deletions). */
function changesFor(ctx: RequestContext, svc: StorageService): { from: number; list: StoredChange[] } {
  const q = ctx.query;
  const token = q.get('pageToken') ?? q.get('startChangeId') ?? '1';
  if (!/^\d+$/.test(token)) throw badToken();
  const from = Number(token);
  const driveId = q.get('driveId') ?? q.get('teamDriveId') ?? undefined;
  if (driveId && !svc.store.state.drives[driveId]) throw notFound('Shared drive', driveId);
  const allDrives = boolParam(q, 'includeItemsFromAllDrives', false) || boolParam(q, 'includeTeamDriveItems', false);
  const includeDeleted = boolParam(q, 'includeDeleted', true);
  const spaces = (q.get('spaces') ?? 'drive').split(',').map((x) => x.trim());
  const s = svc.store.state;
  const list = s.changes.filter((c) => {
    if (c.id < from) return false;
    if (driveId) return c.driveId === driveId;
    if (c.changeType === 'file' && c.driveId && !allDrives) return false;
    const f = s.files[c.targetId];
    if (c.changeType === 'file' && f && !f.spaces.some((sp) => spaces.includes(sp))) return false;
    if (!includeDeleted && (c.removed || (c.changeType === 'file' ? !f : !s.drives[c.targetId]))) return false;
    return true;
  });
  return { from, list };
}

function list(ctx: RequestContext, svc: StorageService): Reply {
  const max = intParam(ctx.query, 'maxResults', 100, 1, 1000);
  const { list: changes } = changesFor(ctx, svc);
  const page = changes.slice(0, max);
  const more = changes.length > max;
  const next = more ? String(changes[max].id) : undefined;
  const s = svc.store.state;
  return {
    status: 200,
    json: {
      kind: 'drive#changeList',
      etag: `"${s.nextChangeId}"`,
      selfLink: ctx.url.href,
      largestChangeId: String(s.nextChangeId - 1),
      ...(next
        ? { nextPageToken: next, nextLink: withToken(ctx, next) }
        : { newStartPageToken: String(s.nextChangeId) }),
      items: page.map((c) => renderChange(ctx, svc, c)),
    },
  };
}

function withToken(ctx: RequestContext, token: string): string {
  const u = new URL(ctx.url.href);
  u.searchParams.set('pageToken', token);
  return u.href;
}

function get(ctx: RequestContext, svc: StorageService): Reply {
  const id = ctx.params.changeId;
  const c = /^\d+$/.test(id) ? svc.store.state.changes.find((x) => x.id === Number(id)) : undefined;
  if (!c) throw notFound('Change', id);
  return { status: 200, json: renderChange(ctx, svc, c) };
}

function channelJson(ch: {
  id: string;
  resourceId: string;
  resourceUri: string;
  token?: string;
  expiration: number;
}): Channel {
  return {
    kind: 'api#channel',
    id: ch.id,
    resourceId: ch.resourceId,
    resourceUri: ch.resourceUri,
    ...(ch.token ? { token: ch.token } : {}),
    expiration: String(ch.expiration),
  };
}

async function watchChanges(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  changesFor(ctx, svc); // validates the token and drive like changes.list would
  const body = (await readResource<Channel>(ctx.req, 'Channel')) ?? {};
  const driveId = ctx.query.get('driveId') ?? undefined;
  const ch = svc.channels.open(
    body,
    { kind: 'changes', driveId },
    `${ctx.base.origin}${ctx.base.service}/changes?alt=json${driveId ? `&driveId=${driveId}` : ''}`,
  );
  return { status: 200, json: channelJson(ch) };
}

async function watchFile(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = svc.visibleFile(ctx.params.fileId);
  const body = (await readResource<Channel>(ctx.req, 'Channel')) ?? {};
  const ch = svc.channels.open(
    body,
    { kind: 'file', fileId: f.id },
    `${ctx.base.origin}${ctx.base.service}/files/${f.id}?alt=json`,
  );
  return { status: 200, json: channelJson(ch) };
}

async function stop(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const body = (await readResource<Channel>(ctx.req, 'Channel')) ?? {};
  svc.channels.stop(body.id, body.resourceId);
  return { status: 204, empty: true };
}

export function registerChangeRoutes(r: Router<StorageService>): void {
  r.add('GET', 'changes/startPageToken', startToken);
  r.add('GET', 'changes', list);
  r.add('GET', 'changes/{changeId}', get);
  r.add('POST', 'changes/watch', watchChanges);
  r.add('POST', 'files/{fileId}/watch', watchFile);
  r.add('POST', 'channels/stop', stop);
}
