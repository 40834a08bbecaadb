// Constructors of the stored records with Drive's defaults for a new item (labels off, viewed, one
// version, no revisions), so the seed, file creation and shared-drive creation build them one way.
import { FOLDER_MIME } from '../../shared/wire/storage';
import type { BlobRef } from './blobs';
import type { StoredDrive, StoredFile, StoredPermission, StoredRevision, StoredUser } from './model';

/** A user's own permission on an item (the owner's on My Drive items, an organizer's on a drive). */
export function userPermission(
  user: StoredUser,
  role: StoredPermission['role'],
  additionalRoles: string[] = [],
): StoredPermission {
  return {
    id: user.permissionId,
    type: 'user',
    role,
    additionalRoles,
    emailAddress: user.emailAddress,
    name: user.displayName,
    version: 1,
  };
}

export interface FileRecordInit {
  id: string;
  title: string;
  mimeType: string;
  parents: string[];
  driveId?: string;
  /** Created and modified at this instant. */
  date: string;
  owner: StoredUser;
  permissions: StoredPermission[];
  /**
   * Whether the user's own modified/viewed dates are set too: true for items the user makes, false
   * for roots (My Drive, a shared drive's root folder), which the service reports without them.
   */
  touchedByMe: boolean;
}

/** A file (or folder) with no content, revisions, properties or comments yet. */
export function newFileRecord(init: FileRecordInit): StoredFile {
  const { date, owner } = init;
  return {
    id: init.id,
    title: init.title,
    mimeType: init.mimeType,
    parents: init.parents,
    driveId: init.driveId,
    starred: false,
    hidden: false,
    restricted: false,
    viewed: true,
    trashed: false,
    explicitlyTrashed: false,
    createdDate: date,
    modifiedDate: date,
    ...(init.touchedByMe ? { modifiedByMeDate: date, lastViewedByMeDate: date } : {}),
    version: 1,
    ownerId: owner.permissionId,
    lastModifyingUserId: owner.permissionId,
    revisions: [],
    properties: [],
    comments: [],
    labels: [],
    spaces: ['drive'],
    permissions: init.permissions,
    copyRequiresWriterPermission: false,
    writersCanShare: true,
  };
}

/** The root folder of a shared drive: the drive's id, organized by its creator. */
export function driveRootRecord(id: string, name: string, date: string, organizer: StoredUser): StoredFile {
  return newFileRecord({
    id,
    title: name,
    mimeType: FOLDER_MIME,
    parents: [],
    driveId: id,
    date,
    owner: organizer,
    permissions: [userPermission(organizer, 'organizer')],
    touchedByMe: false,
  });
}

/** A shared drive's own record, with every restriction off unless given. */
export function newDriveRecord(
  init: Pick<StoredDrive, 'id' | 'name' | 'colorRgb' | 'themeId' | 'createdDate' | 'requestId'> & {
    organizer: StoredUser;
    restrictions?: Record<string, boolean>;
  },
): StoredDrive {
  return {
    id: init.id,
    name: init.name,
    colorRgb: init.colorRgb,
    themeId: init.themeId,
    hidden: false,
    createdDate: init.createdDate,
    requestId: init.requestId,
    organizerIds: [init.organizer.permissionId],
    restrictions: {
      adminManagedRestrictions: false,
      copyRequiresWriterPermission: false,
      domainUsersOnly: false,
      driveMembersOnly: false,
      ...(init.restrictions ?? {}),
    },
  };
}

/** A revision holding `content`, unpinned and unpublished. */
export function newRevision(init: {
  id: string;
  mimeType: string;
  date: string;
  userId: string;
  content: BlobRef;
  originalFilename?: string;
  pinned?: boolean;
}): StoredRevision {
  return {
    id: init.id,
    mimeType: init.mimeType,
    modifiedDate: init.date,
    lastModifyingUserId: init.userId,
    originalFilename: init.originalFilename,
    content: init.content,
    pinned: init.pinned ?? false,
    published: false,
    publishAuto: false,
    publishedOutsideDomain: false,
  };
}
