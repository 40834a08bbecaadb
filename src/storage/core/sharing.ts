// Sharing rules: which roles an item can grant, how a grant is written on the wire (commenter is a
// reader with an additional role; a link grant has no value), and the permission/property calls
// the sharing commands make. Kept here so the rules are tested without the editor.
import type { File, Permission, Property } from '../../shared/wire/storage';
import type { StorageClient } from './client';

export type GranteeType = NonNullable<Permission['type']>;
export type Role = NonNullable<Permission['role']>;
/** A role as the user picks it: the wire roles plus `commenter`, which the wire spells as reader + additionalRoles. */
export type GrantRole = Role | 'commenter';

export const GRANTEE_TYPES: readonly GranteeType[] = ['user', 'group', 'domain', 'anyone'];

/** What a permission can be shared on: a file (maybe in a shared drive) or a shared drive itself. */
export type ShareTarget = { kind: 'file'; file: File } | { kind: 'drive'; driveId: string };

/**
 * Roles a grant or a role change may pick. Organizer roles exist only in shared drives; nobody
 * grants `owner` from here (ownership transfer is a separate, confirmed action in the service).
 */
export function assignableRoles(target: ShareTarget): Role[] {
  const inSharedDrive = target.kind === 'drive' || !!target.file.driveId;
  return inSharedDrive ? ['organizer', 'fileOrganizer', 'writer', 'reader'] : ['writer', 'reader'];
}

/** Roles offered when adding someone: the assignable ones plus commenter. */
export function grantRoles(target: ShareTarget): GrantRole[] {
  return [...assignableRoles(target), 'commenter'];
}

/** The prompt for the grantee's value, or undefined when the type needs none (a link). */
export function granteePrompt(type: GranteeType): string | undefined {
  if (type === 'anyone') return undefined;
  return type === 'domain' ? 'Domain' : 'E-mail address';
}

/** The permission body of a grant. */
export function grantBody(type: GranteeType, role: GrantRole, value: string): Permission {
  const wireRole: Role = role === 'commenter' ? 'reader' : role;
  return {
    type,
    role: wireRole,
    ...(role === 'commenter' ? { additionalRoles: ['commenter'] } : {}),
    ...(type === 'anyone' ? { withLink: true } : { value }),
  };
}

/** How a permission is listed: who, and the role with any additional roles. */
export function describePermission(p: Permission): { label: string; description: string; detail?: string } {
  return {
    label: p.name ?? p.emailAddress ?? p.domain ?? p.type ?? '',
    description: `${p.role ?? ''}${p.additionalRoles?.length ? ` + ${p.additionalRoles.join(', ')}` : ''}`,
    detail: p.emailAddress,
  };
}

/** Sharing and property calls on one item (notification e-mails are never sent from the editor). */
export class Sharing {
  constructor(private readonly client: StorageClient) {}

  list(id: string): Promise<Permission[]> {
    return this.client.call('permissions.list', { fileId: id, supportsAllDrives: true }).then((l) => l.items ?? []);
  }

  grant(id: string, body: Permission): Promise<Permission> {
    return this.client.call(
      'permissions.insert',
      { fileId: id, supportsAllDrives: true, sendNotificationEmails: false },
      body,
    );
  }

  changeRole(id: string, permissionId: string, role: Role): Promise<Permission> {
    return this.client.call('permissions.patch', { fileId: id, permissionId, supportsAllDrives: true }, { role });
  }

  revoke(id: string, permissionId: string): Promise<void> {
    return this.client.call('permissions.delete', { fileId: id, permissionId, supportsAllDrives: true });
  }

  async permissionIdForEmail(email: string): Promise<string> {
    const r = await this.client.call('permissions.getIdForEmail', { email });
    if (!r.id) throw new Error(`The service returned no permission id for ${email}.`);
    return r.id;
  }

  listProperties(fileId: string): Promise<Property[]> {
    return this.client.call('properties.list', { fileId }).then((l) => l.items ?? []);
  }

  setProperty(fileId: string, key: string, value: string, visibility: Visibility): Promise<Property> {
    return this.client.call('properties.insert', { fileId }, { key, value, visibility });
  }

  updateProperty(
    fileId: string,
    p: Pick<Property, 'key' | 'visibility'>,
    change: Pick<Property, 'value' | 'visibility'>,
  ): Promise<Property> {
    return this.client.call('properties.patch', propertyParams(fileId, p), change);
  }

  deleteProperty(fileId: string, p: Pick<Property, 'key' | 'visibility'>): Promise<void> {
    return this.client.call('properties.delete', propertyParams(fileId, p));
  }
}

export type Visibility = NonNullable<Property['visibility']>;

/** A property is addressed by key and visibility; the query parameter spells the visibility in lower case. */
export function propertyParams(
  fileId: string,
  p: Pick<Property, 'key' | 'visibility'>,
): { fileId: string; propertyKey: string; visibility: string } {
  return { fileId, propertyKey: p.key, visibility: (p.visibility ?? 'PRIVATE').toLowerCase() };
}

export function otherVisibility(v: Property['visibility']): Visibility {
  return v === 'PUBLIC' ? 'PRIVATE' : 'PUBLIC';
}
