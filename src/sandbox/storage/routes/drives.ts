// Shared drives: each drive is a record plus a root folder whose id is the drive id, so items in
// it use the ordinary file operations with supportsAllDrives.
import { ApiError, badRequest, forbidden, notFound, required } from '../errors';
import type { StoredDrive } from '../model';
import { driveRootRecord, newDriveRecord } from '../records';
import { paginate } from '../paging';
import { boolParam, intParam } from '../params';
import { evaluateDrive } from '../query';
import { renderDrive } from '../render';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';

interface DriveBody {
  name?: string;
  colorRgb?: string;
  themeId?: string;
  restrictions?: Record<string, boolean>;
  hidden?: boolean;
}

function drive(svc: StorageService, id: string): StoredDrive {
  const d = svc.store.state.drives[id];
  const root = svc.store.state.files[id];
  if (!d || !root || !root.permissions.some((p) => p.id === svc.store.state.meId)) throw notFound('Shared drive', id);
  return d;
}

function requireOrganizer(svc: StorageService, d: StoredDrive): void {
  if (!d.organizerIds.includes(svc.store.state.meId))
    throw forbidden(
      'insufficientFilePermissions',
      'The user does not have sufficient permissions for this shared drive.',
    );
}

function checkColor(c: string | undefined): void {
  if (c !== undefined && !/^#[0-9a-fA-F]{6}$/.test(c))
    throw badRequest('Invalid value for colorRgb; expected #rrggbb.', 'colorRgb', 'invalid');
}

async function insert(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const requestId = ctx.query.get('requestId');
  if (!requestId) throw required('requestId');
  const body = (await readResource<DriveBody>(ctx.req, 'Drive')) ?? {};
  const s = svc.store.state;
  const existing = Object.values(s.drives).find((d) => d.requestId === requestId);
  if (existing) {
    throw new ApiError(409, {
      domain: 'global',
      reason: 'duplicate',
      message: `A shared drive with requestId ${requestId} already exists.`,
      locationType: 'parameter',
      location: 'requestId',
    });
  }
  if (!body.name?.trim()) throw required('name');
  checkColor(body.colorRgb);
  const id = `0A${svc.store.newId().slice(1, 18)}Uk9PVA`;
  const now = svc.store.nowIso();
  const me = svc.store.me;
  const d = newDriveRecord({
    id,
    name: body.name.trim(),
    colorRgb: body.colorRgb ?? '#4285f4',
    themeId: body.themeId,
    createdDate: now,
    requestId,
    organizer: me,
    restrictions: body.restrictions,
  });
  s.drives[id] = d;
  const root = driveRootRecord(id, d.name, now, me);
  s.files[id] = root;
  svc.store.recordDriveChange(id, false);
  return { status: 200, json: renderDrive(svc.store, d) };
}

function get(ctx: RequestContext, svc: StorageService): Reply {
  return { status: 200, json: renderDrive(svc.store, drive(svc, ctx.params.driveId)) };
}

function list(ctx: RequestContext, svc: StorageService): Reply {
  const qText = ctx.query.get('q') ?? '';
  const ast = svc.parseQ(qText, 'drives');
  const max = intParam(ctx.query, 'maxResults', 10, 1, 100);
  const s = svc.store.state;
  const all = Object.values(s.drives)
    .filter((d) => s.files[d.id]?.permissions.some((p) => p.id === s.meId))
    .filter((d) => {
      if (!ast) return true;
      const perms = s.files[d.id]?.permissions ?? [];
      return evaluateDrive(ast, {
        name: d.name,
        hidden: d.hidden,
        createdDate: d.createdDate,
        memberCount: perms.length,
        organizerCount: perms.filter((p) => p.role === 'organizer').length,
      });
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const page = paginate(all, ctx.query.get('pageToken'), max, `drives|${qText}`);
  return {
    status: 200,
    json: {
      kind: 'drive#driveList',
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items.map((d) => renderDrive(svc.store, d)),
    },
  };
}

async function update(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const d = drive(svc, ctx.params.driveId);
  requireOrganizer(svc, d);
  const body = (await readResource<DriveBody>(ctx.req, 'Drive')) ?? {};
  checkColor(body.colorRgb);
  if (body.name !== undefined) {
    if (!body.name.trim()) throw required('name');
    d.name = body.name.trim();
    svc.store.state.files[d.id].title = d.name;
  }
  if (body.colorRgb !== undefined) d.colorRgb = body.colorRgb;
  if (body.themeId !== undefined) d.themeId = body.themeId;
  if (body.restrictions) d.restrictions = { ...d.restrictions, ...body.restrictions };
  if (body.hidden !== undefined) d.hidden = body.hidden;
  svc.store.recordDriveChange(d.id, false);
  return { status: 200, json: renderDrive(svc.store, d) };
}

function setHidden(hidden: boolean) {
  return (ctx: RequestContext, svc: StorageService): Reply => {
    const d = drive(svc, ctx.params.driveId);
    d.hidden = hidden;
    svc.store.recordDriveChange(d.id, false);
    return { status: 200, json: renderDrive(svc.store, d) };
  };
}

function remove(ctx: RequestContext, svc: StorageService): Reply {
  const d = drive(svc, ctx.params.driveId);
  requireOrganizer(svc, d);
  const items = svc.store.descendants(d.id);
  const allowItemDeletion = boolParam(ctx.query, 'allowItemDeletion', false);
  if (allowItemDeletion && !boolParam(ctx.query, 'useDomainAdminAccess', false)) {
    throw forbidden('insufficientAdministratorPrivileges', 'allowItemDeletion needs useDomainAdminAccess.');
  }
  if (items.length > 0 && !allowItemDeletion)
    throw forbidden('cannotDeleteNonEmptyDrive', 'The shared drive cannot be deleted because it contains items.');
  for (const f of items) svc.store.removeFile(f.id);
  delete svc.store.state.files[d.id];
  delete svc.store.state.drives[d.id];
  svc.store.recordDriveChange(d.id, true);
  return { status: 204, empty: true };
}

export function registerDriveRoutes(r: Router<StorageService>): void {
  r.add('POST', 'drives', insert);
  r.add('GET', 'drives', list);
  r.add('GET', 'drives/{driveId}', get);
  r.add('PUT', 'drives/{driveId}', update);
  r.add('POST', 'drives/{driveId}/hide', setHidden(true));
  r.add('POST', 'drives/{driveId}/unhide', setHidden(false));
  r.add('DELETE', 'drives/{driveId}', remove);
}
