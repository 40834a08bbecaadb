// Permissions (sharing), custom properties, revisions and apps.
import { createHash } from 'node:crypto';
import {
  FOLDER_MIME,
  SHORTCUT_MIME,
  isWorkspaceDocument,
  type Permission,
  type Property,
  type Revision,
} from '../../../shared/wire/storage';
import { ApiError, badRequest, forbidden, notFound, required } from '../errors';
import type { StoredFile, StoredPermission } from '../model';
import { paginate } from '../paging';
import { boolParam, intParam } from '../params';
import { renderApp, renderPermission, renderProperty, renderRevision, permissionOrder } from '../render';
import { canWrite, roleOf } from '../access';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';

const ROLES = ['owner', 'organizer', 'fileOrganizer', 'writer', 'reader'] as const;
const TYPES = ['user', 'group', 'domain', 'anyone'] as const;
/** Key plus value of a property, in UTF-8 bytes. */
const PROPERTY_LIMIT = 124;
const MAX_PROPERTIES = 100;

/** Stable permission id for an e-mail address the sandbox does not know yet. */
export function permissionIdFor(svc: StorageService, email: string): string {
  const known = Object.values(svc.store.state.users).find((u) => u.emailAddress.toLowerCase() === email.toLowerCase());
  if (known) return known.permissionId;
  const digits = BigInt('0x' + createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 16))
    .toString()
    .padStart(20, '0');
  return digits.slice(-20);
}

function shareable(svc: StorageService, fileId: string): StoredFile {
  const f = svc.visibleFile(fileId);
  const role = roleOf(svc.store, f);
  const can = role === 'owner' || role === 'organizer' || (canWrite(role) && f.writersCanShare);
  if (!can)
    throw forbidden('insufficientFilePermissions', 'The user does not have sufficient permissions to share this file.');
  return f;
}

function permission(f: StoredFile, id: string): StoredPermission {
  const p = f.permissions.find((x) => x.id === id);
  if (!p) throw notFound('Permission', id);
  return p;
}

function syncDriveOrganizers(svc: StorageService, f: StoredFile): void {
  const d = svc.store.state.drives[f.id];
  if (d) d.organizerIds = f.permissions.filter((p) => p.role === 'organizer').map((p) => p.id);
}

function listPermissions(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const max = intParam(ctx.query, 'maxResults', 100, 1, 100);
  const page = paginate(permissionOrder(f.permissions), ctx.query.get('pageToken'), max, `permissions|${f.id}`);
  return {
    status: 200,
    json: {
      kind: 'drive#permissionList',
      etag: `"${f.version}"`,
      selfLink: ctx.url.href,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items.map((p) => renderPermission(ctx.base, f.id, p)),
    },
  };
}

function getPermission(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  return { status: 200, json: renderPermission(ctx.base, f.id, permission(f, ctx.params.permissionId)) };
}

async function insertPermission(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = shareable(svc, ctx.params.fileId);
  const b = (await readResource<Permission>(ctx.req, 'Permission')) ?? {};
  if (!b.type) throw required('permission.type');
  if (!b.role) throw required('permission.role');
  if (!(TYPES as readonly string[]).includes(b.type))
    throw badRequest(`Invalid permission type ${b.type}.`, 'permission.type', 'invalid');
  if (!(ROLES as readonly string[]).includes(b.role))
    throw badRequest(`Invalid permission role ${b.role}.`, 'permission.role', 'invalid');
  const inDrive = !!f.driveId;
  if ((b.role === 'organizer' || b.role === 'fileOrganizer') && !inDrive) {
    throw badRequest(`The role ${b.role} is only valid in shared drives.`, 'permission.role', 'invalidSharingRequest');
  }
  if (b.role === 'owner' && inDrive)
    throw badRequest('Items in shared drives have no owner.', 'permission.role', 'invalidSharingRequest');
  const email = (b.emailAddress ?? b.value ?? '').trim();
  let id: string;
  let domain: string | undefined;
  if (b.type === 'user' || b.type === 'group') {
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      throw badRequest(
        'A user or group permission needs an e-mail address in value or emailAddress.',
        'permission.value',
        'invalidSharingRequest',
      );
    id = permissionIdFor(svc, email);
  } else if (b.type === 'domain') {
    domain = (b.domain ?? b.value ?? '').trim();
    if (!/^[\w-]+(\.[\w-]+)+$/.test(domain))
      throw badRequest(
        'A domain permission needs a domain name in value.',
        'permission.value',
        'invalidSharingRequest',
      );
    id = permissionIdFor(svc, `domain:${domain}`);
  } else id = b.withLink ? 'anyoneWithLink' : 'anyone';
  if (b.role === 'owner' && b.type !== 'user')
    throw badRequest('Only a user can own a file.', 'permission.role', 'invalidSharingRequest');
  if (
    b.expirationDate !== undefined &&
    (Number.isNaN(Date.parse(b.expirationDate)) || Date.parse(b.expirationDate) <= Date.now())
  ) {
    throw badRequest('The expiration date must be a future RFC 3339 date.', 'permission.expirationDate', 'invalid');
  }
  const existing = f.permissions.find((p) => p.id === id);
  const p: StoredPermission = existing ?? { id, type: b.type, role: b.role, additionalRoles: [], version: 0 };
  if (!existing) f.permissions.push(p);
  p.type = b.type;
  p.role = b.role;
  p.additionalRoles = (b.additionalRoles ?? []).filter((r) => r === 'commenter');
  if (email) p.emailAddress = email;
  if (domain) p.domain = domain;
  if (b.type === 'anyone' || b.type === 'domain') p.withLink = !!b.withLink;
  if (b.expirationDate) p.expirationDate = new Date(Date.parse(b.expirationDate)).toISOString();
  const known = Object.values(svc.store.state.users).find((u) => u.permissionId === id);
  if (known) p.name = known.displayName;
  p.version++;
  if (b.role === 'owner') transferOwnership(svc, f, p, email);
  syncDriveOrganizers(svc, f);
  svc.store.touchFile(f);
  return { status: 200, json: renderPermission(ctx.base, f.id, p) };
}

function transferOwnership(svc: StorageService, f: StoredFile, to: StoredPermission, email: string): void {
  if (roleOf(svc.store, f) !== 'owner')
    throw forbidden('insufficientFilePermissions', 'Only the owner can transfer ownership.');
  for (const p of f.permissions)
    if (p !== to && p.role === 'owner') {
      p.role = 'writer';
      p.version++;
    }
  to.role = 'owner';
  if (!svc.store.state.users[to.id])
    svc.store.state.users[to.id] = { permissionId: to.id, displayName: email.split('@')[0], emailAddress: email };
  f.ownerId = to.id;
}

async function changePermission(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = shareable(svc, ctx.params.fileId);
  const p = permission(f, ctx.params.permissionId);
  const b = (await readResource<Permission>(ctx.req, 'Permission')) ?? {};
  if (b.role !== undefined && !(ROLES as readonly string[]).includes(b.role))
    throw badRequest(`Invalid permission role ${b.role}.`, 'permission.role', 'invalid');
  if (p.role === 'owner' && b.role !== undefined && b.role !== 'owner')
    throw forbidden('cannotModifyOwner', "The owner's role cannot be changed; transfer ownership instead.");
  if (b.role === 'owner' && p.role !== 'owner') {
    if (!boolParam(ctx.query, 'transferOwnership', false))
      throw forbidden(
        'forbidden',
        "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
      );
    transferOwnership(svc, f, p, p.emailAddress ?? '');
  } else if (b.role !== undefined) {
    if ((b.role === 'organizer' || b.role === 'fileOrganizer') && !f.driveId)
      throw badRequest(
        `The role ${b.role} is only valid in shared drives.`,
        'permission.role',
        'invalidSharingRequest',
      );
    p.role = b.role;
  }
  if (b.additionalRoles !== undefined) p.additionalRoles = b.additionalRoles.filter((r) => r === 'commenter');
  if (b.withLink !== undefined && (p.type === 'anyone' || p.type === 'domain')) p.withLink = !!b.withLink;
  if (boolParam(ctx.query, 'removeExpiration', false)) p.expirationDate = undefined;
  else if (b.expirationDate !== undefined) {
    if (Number.isNaN(Date.parse(b.expirationDate)))
      throw badRequest('Invalid expirationDate.', 'permission.expirationDate', 'invalid');
    p.expirationDate = new Date(Date.parse(b.expirationDate)).toISOString();
  }
  p.version++;
  syncDriveOrganizers(svc, f);
  svc.store.touchFile(f);
  return { status: 200, json: renderPermission(ctx.base, f.id, p) };
}

function deletePermission(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const p = permission(f, ctx.params.permissionId);
  // Anyone may remove their own access; removing others' needs sharing rights.
  if (p.id !== svc.store.state.meId) shareable(svc, f.id);
  if (p.role === 'owner') throw forbidden('cannotRemoveOwner', 'The owner of a file cannot be removed.');
  if (
    svc.store.state.drives[f.id] &&
    p.role === 'organizer' &&
    f.permissions.filter((x) => x.role === 'organizer').length === 1
  ) {
    throw forbidden('cannotRemoveLastOrganizer', 'A shared drive needs at least one organizer.');
  }
  f.permissions = f.permissions.filter((x) => x !== p);
  syncDriveOrganizers(svc, f);
  svc.store.touchFile(f);
  return { status: 204, empty: true };
}

function idForEmail(ctx: RequestContext, svc: StorageService): Reply {
  const email = ctx.params.email;
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw badRequest(`${email} is not an e-mail address.`, 'email', 'invalid');
  return { status: 200, json: { kind: 'drive#permissionId', id: permissionIdFor(svc, email) } };
}

// ---- properties ----

function visibilityOf(q: URLSearchParams, fallback: string): 'PRIVATE' | 'PUBLIC' {
  const v = (q.get('visibility') ?? fallback).toUpperCase();
  if (v !== 'PRIVATE' && v !== 'PUBLIC')
    throw badRequest(`Invalid visibility ${v}; use private or public.`, 'visibility', 'invalid');
  return v;
}

function checkProperty(key: string, value: string): void {
  if (Buffer.byteLength(key) + Buffer.byteLength(value) > PROPERTY_LIMIT)
    throw badRequest(
      `A property's key and value together may use at most ${PROPERTY_LIMIT} bytes.`,
      'property',
      'invalid',
    );
}

function listProperties(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  return {
    status: 200,
    json: {
      kind: 'drive#propertyList',
      etag: `"${f.version}"`,
      selfLink: ctx.url.href,
      items: f.properties.map((p) => renderProperty(ctx.base, f.id, p)),
    },
  };
}

function findProperty(ctx: RequestContext, f: StoredFile) {
  const visibility = visibilityOf(ctx.query, 'private');
  const p = f.properties.find((x) => x.key === ctx.params.propertyKey && x.visibility === visibility);
  if (!p) throw notFound('Property', ctx.params.propertyKey);
  return p;
}

function getProperty(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  return { status: 200, json: renderProperty(ctx.base, f.id, findProperty(ctx, f)) };
}

async function insertProperty(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = svc.writableFile(ctx.params.fileId);
  const b = (await readResource<Property>(ctx.req, 'Property')) ?? ({} as Property);
  if (!b.key) throw required('property.key');
  const value = b.value ?? '';
  checkProperty(b.key, value);
  const visibility = (b.visibility ?? 'PRIVATE').toUpperCase() === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE';
  let p = f.properties.find((x) => x.key === b.key && x.visibility === visibility);
  if (p) {
    p.value = value;
    p.version++;
  } else {
    if (f.properties.length >= MAX_PROPERTIES)
      throw forbidden('propertyLimitExceeded', `A file can have at most ${MAX_PROPERTIES} properties.`);
    p = { key: b.key, value, visibility, version: 1 };
    f.properties.push(p);
  }
  svc.store.touchFile(f);
  return { status: 200, json: renderProperty(ctx.base, f.id, p) };
}

async function changeProperty(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = svc.writableFile(ctx.params.fileId);
  const p = findProperty(ctx, f);
  svc.checkIfMatch(ctx, renderProperty(ctx.base, f.id, p).etag!);
  const b = (await readResource<Property>(ctx.req, 'Property')) ?? ({} as Property);
  if (b.key !== undefined && b.key !== p.key)
    throw badRequest('The key of a property cannot change.', 'property.key', 'invalid');
  const value = b.value ?? (ctx.method === 'PUT' ? '' : p.value);
  checkProperty(p.key, value);
  p.value = value;
  if (b.visibility !== undefined) {
    const v = b.visibility.toUpperCase() === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE';
    if (v !== p.visibility && f.properties.some((x) => x.key === p.key && x.visibility === v))
      throw badRequest('A property with this key and visibility exists.', 'property.visibility', 'duplicate');
    p.visibility = v;
  }
  p.version++;
  svc.store.touchFile(f);
  return { status: 200, json: renderProperty(ctx.base, f.id, p) };
}

function deleteProperty(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.writableFile(ctx.params.fileId);
  const p = findProperty(ctx, f);
  f.properties = f.properties.filter((x) => x !== p);
  svc.store.touchFile(f);
  return { status: 204, empty: true };
}

// ---- revisions ----

function revisionable(svc: StorageService, fileId: string, write: boolean): StoredFile {
  const f = write ? svc.writableFile(fileId) : svc.visibleFile(fileId);
  if (f.mimeType === FOLDER_MIME || f.mimeType === SHORTCUT_MIME)
    throw forbidden('revisionsNotSupported', 'Folders and shortcuts have no revisions.');
  if (!canWrite(roleOf(svc.store, f)))
    throw forbidden(
      'insufficientFilePermissions',
      'The user does not have sufficient permissions to read revisions of this file.',
    );
  return f;
}

function revision(f: StoredFile, id: string) {
  const r = id === 'head' ? f.revisions[f.revisions.length - 1] : f.revisions.find((x) => x.id === id);
  if (!r) throw notFound('Revision', id);
  return r;
}

function listRevisions(ctx: RequestContext, svc: StorageService): Reply {
  const f = revisionable(svc, ctx.params.fileId, false);
  const max = intParam(ctx.query, 'maxResults', 200, 1, 1000);
  const page = paginate(f.revisions, ctx.query.get('pageToken'), max, `revisions|${f.id}`);
  return {
    status: 200,
    json: {
      kind: 'drive#revisionList',
      etag: `"${f.version}"`,
      selfLink: ctx.url.href,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items.map((r) => renderRevision(ctx.base, svc.store, f, r)),
    },
  };
}

function getRevision(ctx: RequestContext, svc: StorageService): Reply {
  const f = revisionable(svc, ctx.params.fileId, false);
  return { status: 200, json: renderRevision(ctx.base, svc.store, f, revision(f, ctx.params.revisionId)) };
}

async function changeRevision(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = revisionable(svc, ctx.params.fileId, true);
  const r = revision(f, ctx.params.revisionId);
  const b = (await readResource<Revision>(ctx.req, 'Revision')) ?? {};
  const doc = isWorkspaceDocument(f);
  if (b.pinned !== undefined) {
    if (doc) throw badRequest('Workspace document revisions cannot be pinned.', 'revision.pinned', 'invalid');
    r.pinned = !!b.pinned;
  }
  for (const k of ['published', 'publishAuto', 'publishedOutsideDomain'] as const) {
    if (b[k] === undefined) continue;
    if (!doc) throw badRequest(`Only workspace document revisions can set ${k}.`, `revision.${k}`, 'invalid');
    r[k] = !!b[k];
  }
  svc.store.touchFile(f);
  return { status: 200, json: renderRevision(ctx.base, svc.store, f, r) };
}

function deleteRevision(ctx: RequestContext, svc: StorageService): Reply {
  const f = revisionable(svc, ctx.params.fileId, true);
  const r = revision(f, ctx.params.revisionId);
  if (isWorkspaceDocument(f))
    throw forbidden('revisionDeletionNotSupported', 'Revisions of workspace documents cannot be deleted.');
  if (r === f.revisions[f.revisions.length - 1])
    throw new ApiError(400, {
      domain: 'global',
      reason: 'cannotDeleteHeadRevision',
      message: 'The current revision of a file cannot be deleted.',
      locationType: 'parameter',
      location: 'revisionId',
    });
  f.revisions = f.revisions.filter((x) => x !== r);
  svc.store.touchFile(f);
  return { status: 204, empty: true };
}

// ---- apps ----

function listApps(ctx: RequestContext, svc: StorageService): Reply {
  const split = (name: string) =>
    (ctx.query.get(name) ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
  const exts = split('appFilterExtensions');
  const types = split('appFilterMimeTypes');
  const apps = svc.store.state.apps.filter((a) => {
    const e = [...a.primaryFileExtensions, ...a.secondaryFileExtensions];
    const m = [...a.primaryMimeTypes, ...a.secondaryMimeTypes];
    if (exts.length && !exts.some((x) => e.includes(x))) return false;
    if (types.length && !types.some((x) => m.includes(x))) return false;
    return true;
  });
  return {
    status: 200,
    json: {
      kind: 'drive#appList',
      etag: `"${apps.length}"`,
      selfLink: ctx.url.href,
      defaultAppIds: apps.filter((a) => a.useByDefault).map((a) => a.id),
      items: apps.map(renderApp),
    },
  };
}

function getApp(ctx: RequestContext, svc: StorageService): Reply {
  const a = svc.store.state.apps.find((x) => x.id === ctx.params.appId);
  if (!a) throw notFound('App', ctx.params.appId);
  return { status: 200, json: renderApp(a) };
}

export function registerSharingRoutes(r: Router<StorageService>): void {
  r.add('GET', 'files/{fileId}/permissions', listPermissions);
  r.add('POST', 'files/{fileId}/permissions', insertPermission);
  r.add('GET', 'files/{fileId}/permissions/{permissionId}', getPermission);
  r.add('PATCH', 'files/{fileId}/permissions/{permissionId}', changePermission);
  r.add('PUT', 'files/{fileId}/permissions/{permissionId}', changePermission);
  r.add('DELETE', 'files/{fileId}/permissions/{permissionId}', deletePermission);
  r.add('GET', 'permissionIds/{email}', idForEmail);
  r.add('GET', 'files/{fileId}/properties', listProperties);
  r.add('POST', 'files/{fileId}/properties', insertProperty);
  r.add('GET', 'files/{fileId}/properties/{propertyKey}', getProperty);
  r.add('PATCH', 'files/{fileId}/properties/{propertyKey}', changeProperty);
  r.add('PUT', 'files/{fileId}/properties/{propertyKey}', changeProperty);
  r.add('DELETE', 'files/{fileId}/properties/{propertyKey}', deleteProperty);
  r.add('GET', 'files/{fileId}/revisions', listRevisions);
  r.add('GET', 'files/{fileId}/revisions/{revisionId}', getRevision);
  r.add('PATCH', 'files/{fileId}/revisions/{revisionId}', changeRevision);
  r.add('PUT', 'files/{fileId}/revisions/{revisionId}', changeRevision);
  r.add('DELETE', 'files/{fileId}/revisions/{revisionId}', deleteRevision);
  r.add('GET', 'apps', listApps);
  r.add('GET', 'apps/{appId}', getApp);
}
