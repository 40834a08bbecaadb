// Wire shapes of the file storage API v2 (Drive v2 re-rooted at /store/v2). Shared by the
// emulator and the client so both sides agree on field names; 64-bit integers travel as strings
// and dates as RFC 3339 strings, exactly as the real service sends them.

import type { Drive, User } from './storageResources';

export const FOLDER_MIME = 'application/vnd.google-apps.folder';
export const SHORTCUT_MIME = 'application/vnd.google-apps.shortcut';
export const WORKSPACE_MIME_PREFIX = 'application/vnd.google-apps.';

/** Smallest granule of a resumable upload chunk (all chunks but the last are multiples of it). */
export const RESUMABLE_CHUNK_GRANULE = 256 * 1024;

export interface ErrorItem {
  domain: string;
  reason: string;
  message: string;
  location?: string;
  locationType?: string;
  extendedHelp?: string;
}

export interface ErrorBody {
  error: { errors: ErrorItem[]; code: number; message: string };
}

export interface ParentReference {
  kind?: 'drive#parentReference';
  id: string;
  isRoot?: boolean;
  selfLink?: string;
  parentLink?: string;
}

export interface ChildReference {
  kind?: 'drive#childReference';
  id: string;
  selfLink?: string;
  childLink?: string;
}

export interface FileLabels {
  starred?: boolean;
  trashed?: boolean;
  viewed?: boolean;
  hidden?: boolean;
  restricted?: boolean;
  modified?: boolean;
}

export interface Property {
  kind?: 'drive#property';
  key: string;
  value?: string;
  visibility?: 'PRIVATE' | 'PUBLIC';
  etag?: string;
  selfLink?: string;
}

export interface Permission {
  kind?: 'drive#permission';
  id?: string;
  etag?: string;
  selfLink?: string;
  name?: string;
  type?: 'user' | 'group' | 'domain' | 'anyone';
  role?: 'owner' | 'organizer' | 'fileOrganizer' | 'writer' | 'reader';
  additionalRoles?: string[];
  value?: string;
  emailAddress?: string;
  domain?: string;
  withLink?: boolean;
  expirationDate?: string;
  deleted?: boolean;
  view?: string;
  pendingOwner?: boolean;
  photoLink?: string;
}

export interface ShortcutDetails {
  targetId?: string;
  targetMimeType?: string;
  targetResourceKey?: string;
}

export interface File {
  kind?: 'drive#file';
  id?: string;
  etag?: string;
  selfLink?: string;
  title?: string;
  mimeType?: string;
  description?: string;
  parents?: ParentReference[];
  labels?: FileLabels;
  explicitlyTrashed?: boolean;
  trashedDate?: string;
  trashingUser?: User;
  fileSize?: string;
  quotaBytesUsed?: string;
  version?: string;
  md5Checksum?: string;
  sha1Checksum?: string;
  sha256Checksum?: string;
  headRevisionId?: string;
  createdDate?: string;
  modifiedDate?: string;
  modifiedByMeDate?: string;
  lastViewedByMeDate?: string;
  markedViewedByMeDate?: string;
  sharedWithMeDate?: string;
  fileExtension?: string;
  fullFileExtension?: string;
  originalFilename?: string;
  downloadUrl?: string;
  exportLinks?: Record<string, string>;
  webContentLink?: string;
  alternateLink?: string;
  embedLink?: string;
  iconLink?: string;
  thumbnailLink?: string;
  shortcutDetails?: ShortcutDetails;
  resourceKey?: string;
  driveId?: string;
  capabilities?: Record<string, boolean>;
  owners?: User[];
  ownerNames?: string[];
  lastModifyingUser?: User;
  lastModifyingUserName?: string;
  sharingUser?: User;
  ownedByMe?: boolean;
  shared?: boolean;
  editable?: boolean;
  copyable?: boolean;
  writersCanShare?: boolean;
  canComment?: boolean;
  shareable?: boolean;
  canReadRevisions?: boolean;
  appDataContents?: boolean;
  properties?: Property[];
  permissions?: Permission[];
  permissionIds?: string[];
  userPermission?: Permission;
  spaces?: string[];
  folderColorRgb?: string;
  copyRequiresWriterPermission?: boolean;
  hasThumbnail?: boolean;
  /** int64 as a string; bumps when the thumbnail changes. */
  thumbnailVersion?: string;
  isAppAuthorized?: boolean;
  indexableText?: { text?: string };
  [extra: string]: unknown;
}

export interface FileList {
  kind?: 'drive#fileList';
  etag?: string;
  selfLink?: string;
  nextPageToken?: string;
  nextLink?: string;
  incompleteSearch?: boolean;
  items?: File[];
}

export interface ChildList {
  kind?: 'drive#childList';
  etag?: string;
  selfLink?: string;
  nextPageToken?: string;
  nextLink?: string;
  items?: ChildReference[];
}

export interface ParentList {
  kind?: 'drive#parentList';
  etag?: string;
  selfLink?: string;
  items?: ParentReference[];
}

export interface About {
  kind?: 'drive#about';
  etag?: string;
  selfLink?: string;
  name?: string;
  user?: User;
  rootFolderId?: string;
  permissionId?: string;
  quotaType?: string;
  quotaBytesTotal?: string;
  quotaBytesUsed?: string;
  quotaBytesUsedAggregate?: string;
  quotaBytesUsedInTrash?: string;
  largestChangeId?: string;
  remainingChangeIds?: string;
  languageCode?: string;
  isCurrentAppInstalled?: boolean;
  canCreateDrives?: boolean;
  exportFormats?: { source: string; targets: string[] }[];
  importFormats?: { source: string; targets: string[] }[];
  maxUploadSizes?: { type: string; size: string }[];
  folderColorPalette?: string[];
  features?: { featureName: string; featureRate?: number }[];
  [extra: string]: unknown;
}

export interface Revision {
  kind?: 'drive#revision';
  id?: string;
  etag?: string;
  selfLink?: string;
  mimeType?: string;
  modifiedDate?: string;
  fileSize?: string;
  md5Checksum?: string;
  originalFilename?: string;
  lastModifyingUser?: User;
  lastModifyingUserName?: string;
  pinned?: boolean;
  published?: boolean;
  publishAuto?: boolean;
  publishedOutsideDomain?: boolean;
  publishedLink?: string;
  downloadUrl?: string;
  exportLinks?: Record<string, string>;
}

export interface RevisionList {
  kind?: 'drive#revisionList';
  etag?: string;
  selfLink?: string;
  nextPageToken?: string;
  items?: Revision[];
}

export interface PermissionList {
  kind?: 'drive#permissionList';
  etag?: string;
  selfLink?: string;
  nextPageToken?: string;
  items?: Permission[];
}

export interface PermissionId {
  kind?: 'drive#permissionId';
  id?: string;
}

export interface PropertyList {
  kind?: 'drive#propertyList';
  etag?: string;
  selfLink?: string;
  items?: Property[];
}

export interface Change {
  kind?: 'drive#change';
  id?: string;
  changeType?: 'file' | 'drive';
  type?: string;
  fileId?: string;
  file?: File;
  driveId?: string;
  drive?: Drive;
  deleted?: boolean;
  modificationDate?: string;
  selfLink?: string;
}

export interface ChangeList {
  kind?: 'drive#changeList';
  etag?: string;
  selfLink?: string;
  nextPageToken?: string;
  newStartPageToken?: string;
  nextLink?: string;
  largestChangeId?: string;
  items?: Change[];
}

export interface StartPageToken {
  kind?: 'drive#startPageToken';
  startPageToken?: string;
}

export * from './storageResources';

/** Workspace documents (docs, sheets, …) have no bytes of their own; they are exported instead. */
export function isWorkspaceDocument(file: Pick<File, 'mimeType'>): boolean {
  const m = file.mimeType ?? '';
  return m.startsWith(WORKSPACE_MIME_PREFIX) && m !== FOLDER_MIME && m !== SHORTCUT_MIME;
}
