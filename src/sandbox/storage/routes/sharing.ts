// Permissions (sharing): who may share, roles and types, ownership transfer, permission ids.
import { createHash } from 'node:crypto';
import type { Permission } from '../../../shared/wire/storage';
import { badRequest, forbidden, notFound, required } from '../errors';
import type { StoredFile, StoredPermission } from '../model';
import { paginate } from '../paging';
import { boolParam, intParam } from '../params';
import { renderPermission, permissionOrder } from '../render';
import { canWrite, roleOf } from '../access';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';

const ROLES = ['owner', 'organizer', 'fileOrganizer', 'writer', 'reader'] as const;
const TYPES = ['user', 'group', 'domain', 'anyone'] as const;
/** Key plus value of a property, in UTF-8 bytes. */

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
    svc.store.addUser({ permissionId: to.id, displayName: email.split('@')[0], emailAddress: email });
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

export function registerSharingRoutes(r: Router<StorageService>): void {
  r.add('GET', 'files/{fileId}/permissions', listPermissions);
  r.add('POST', 'files/{fileId}/permissions', insertPermission);
  r.add('GET', 'files/{fileId}/permissions/{permissionId}', getPermission);
  r.add('PATCH', 'files/{fileId}/permissions/{permissionId}', changePermission);
  r.add('PUT', 'files/{fileId}/permissions/{permissionId}', changePermission);
  r.add('DELETE', 'files/{fileId}/permissions/{permissionId}', deletePermission);
  r.add('GET', 'permissionIds/{email}', idForEmail);
}
