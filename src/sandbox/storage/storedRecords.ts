// The records of the storage emulator's state: plain JSON-serialisable data (contents are references into the
// blob store), written whole to the journal and the snapshot (durable/) and read back by the same shapes.
import type { LabelField } from '../../shared/wire/storage';
import type { BlobRef, PartialBlob } from './blobs';

export interface StoredUser {
  permissionId: string;
  displayName: string;
  emailAddress: string;
}

export interface StoredRevision {
  id: string;
  mimeType: string;
  modifiedDate: string;
  lastModifyingUserId: string;
  originalFilename?: string;
  content: BlobRef;
  pinned: boolean;
  published: boolean;
  publishAuto: boolean;
  publishedOutsideDomain: boolean;
}

export interface StoredPermission {
  id: string;
  type: 'user' | 'group' | 'domain' | 'anyone';
  role: 'owner' | 'organizer' | 'fileOrganizer' | 'writer' | 'reader';
  additionalRoles: string[];
  emailAddress?: string;
  domain?: string;
  name?: string;
  withLink?: boolean;
  expirationDate?: string;
  pendingOwner?: boolean;
  view?: string;
  version: number;
}

export interface StoredReply {
  replyId: string;
  createdDate: string;
  modifiedDate: string;
  authorId: string;
  content: string;
  verb?: 'resolve' | 'reopen';
  deleted: boolean;
}

export interface StoredComment {
  commentId: string;
  createdDate: string;
  modifiedDate: string;
  authorId: string;
  content: string;
  status: 'open' | 'resolved';
  anchor?: string;
  context?: { type?: string; value?: string };
  deleted: boolean;
  replies: StoredReply[];
}

export interface StoredProperty {
  key: string;
  value: string;
  visibility: 'PRIVATE' | 'PUBLIC';
  version: number;
}

export interface StoredLabel {
  id: string;
  revisionId: string;
  fields: Record<string, LabelField>;
}

export interface StoredFile {
  id: string;
  title: string;
  mimeType: string;
  description?: string;
  /** Ids of parent folders (the real root id, never the alias `root`). */
  parents: string[];
  starred: boolean;
  hidden: boolean;
  restricted: boolean;
  viewed: boolean;
  trashed: boolean;
  /** True when this item itself was trashed, false when it is in the trash because an ancestor is. */
  explicitlyTrashed: boolean;
  trashedDate?: string;
  trashingUserId?: string;
  createdDate: string;
  modifiedDate: string;
  modifiedByMeDate?: string;
  lastViewedByMeDate?: string;
  sharedWithMeDate?: string;
  /** Monotonic per-file counter; bumps on every change and feeds the etag. */
  version: number;
  ownerId: string;
  lastModifyingUserId: string;
  sharingUserId?: string;
  driveId?: string;
  /** Head content: bytes of a blob, or the text body a workspace document exports from. */
  content?: BlobRef;
  revisions: StoredRevision[];
  properties: StoredProperty[];
  permissions: StoredPermission[];
  comments: StoredComment[];
  labels: StoredLabel[];
  originalFilename?: string;
  folderColorRgb?: string;
  shortcutTargetId?: string;
  spaces: string[];
  copyRequiresWriterPermission: boolean;
  writersCanShare: boolean;
  indexableText?: string;
  /** Flagged content: alt=media is refused unless acknowledgeAbuse=true. */
  abusive?: boolean;
}

/**
 * A resumable upload session as it is kept on disk: a real server keeps a session for a week whatever happens to
 * it, so a client told "308, bytes 0-N" may resume from N+1 after a restart, and a client whose last chunk was
 * committed gets the file back from a status query instead of uploading it twice.
 */
export interface StoredUpload {
  id: string;
  kind: 'insert' | 'update';
  fileId?: string;
  /** The File metadata sent when the session started (type-checked then). */
  metadata: Record<string, unknown>;
  contentType?: string;
  total?: number;
  /** Bytes kept so far (whole 256 KiB granules, or everything once the last chunk is in). */
  received: number;
  /** The name of the file under the contents' `partial` folder that holds the bytes received. */
  partialName: string;
  query: string;
  created: number;
  /**
   * SHA-256 of the access token that opened the session: the session URL alone is no credential, and the token
   * itself is never written down.
   */
  tokenHash: string;
  /** `If-Match` given when the session started, checked again when the upload commits. */
  ifMatch?: string;
  /** Set once complete: repeated status queries get the same answer. */
  result?: { status: number; json: unknown };
}

/** A session while the sandbox runs: its record, the open partial blob, and whether a chunk is being written. */
export interface UploadSession extends StoredUpload {
  partial: PartialBlob;
  /** A chunk is being written; a second writer at the same time would interleave bytes. */
  busy: boolean;
}

export interface StoredDrive {
  id: string;
  name: string;
  colorRgb: string;
  themeId?: string;
  hidden: boolean;
  createdDate: string;
  requestId?: string;
  organizerIds: string[];
  restrictions: Record<string, boolean>;
}

export interface StoredChange {
  id: number;
  changeType: 'file' | 'drive';
  targetId: string;
  driveId?: string;
  /** The item is gone for good (deleted, or no longer visible). */
  removed: boolean;
  time: string;
}

export interface StoredApp {
  id: string;
  name: string;
  objectType: string;
  shortDescription: string;
  longDescription: string;
  productUrl: string;
  primaryMimeTypes: string[];
  secondaryMimeTypes: string[];
  primaryFileExtensions: string[];
  secondaryFileExtensions: string[];
  supportsCreate: boolean;
  supportsImport: boolean;
  supportsMultiOpen: boolean;
  useByDefault: boolean;
}

export interface StoreState {
  rootId: string;
  meId: string;
  users: Record<string, StoredUser>;
  files: Record<string, StoredFile>;
  drives: Record<string, StoredDrive>;
  changes: StoredChange[];
  nextChangeId: number;
  apps: StoredApp[];
  /** Ids handed out by generateIds and not used yet. */
  reservedIds: string[];
  idCounter: number;
  quotaBytesTotal: number;
  /** Resumable upload sessions by upload id (absent in stores written before sessions were kept). */
  uploads?: Record<string, StoredUpload>;
}
