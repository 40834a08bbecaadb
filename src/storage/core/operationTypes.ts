// Parameter, request and response types of every operation of schemas/store.v2.json, keyed by
// the short method id. Generated from the description document; test/unit/storage checks they agree.
import type * as W from '../../shared/wire/storage';

/** Parameters every operation accepts (partial responses, media download). */
export interface GlobalParams {
  fields?: string;
  alt?: 'json' | 'media' | 'proto';
  prettyPrint?: boolean;
  quotaUser?: string;
}

/** files.patch and files.update take the same parameters (one with patch, one with put semantics). */
type FileUpdateParams = GlobalParams & {
  fileId: string;
  addParents?: string;
  modifiedDateBehavior?: 'fromBody' | 'fromBodyIfNeeded' | 'fromBodyOrNow' | 'noChange' | 'now' | 'nowIfNeeded';
  newRevision?: boolean;
  ocr?: boolean;
  ocrLanguage?: string;
  pinned?: boolean;
  removeParents?: string;
  setModifiedDate?: boolean;
  supportsAllDrives?: boolean;
  timedTextLanguage?: string;
  timedTextTrackName?: string;
  updateViewedDate?: boolean;
  useContentAsIndexableText?: boolean;
  includePermissionsForView?: string;
  includeLabels?: string;
};

/** files.touch, files.trash and files.untrash: a file id and the shared-drive/projection switches. */
type FileStateParams = GlobalParams & {
  fileId: string;
  supportsAllDrives?: boolean;
  includePermissionsForView?: string;
  includeLabels?: string;
};

export interface OperationMap {
  'about.get': {
    params: GlobalParams & {
      includeSubscribed?: boolean;
      maxChangeIdCount?: string;
      startChangeId?: string;
    };
    request: never;
    response: W.About;
  };
  'apps.get': {
    params: GlobalParams & {
      appId: string;
    };
    request: never;
    response: W.App;
  };
  'apps.list': {
    params: GlobalParams & {
      appFilterExtensions?: string;
      appFilterMimeTypes?: string;
      languageCode?: string;
    };
    request: never;
    response: W.AppList;
  };
  'changes.get': {
    params: GlobalParams & {
      changeId: string;
      driveId?: string;
      supportsAllDrives?: boolean;
    };
    request: never;
    response: W.Change;
  };
  'changes.getStartPageToken': {
    params: GlobalParams & {
      driveId?: string;
      supportsAllDrives?: boolean;
    };
    request: never;
    response: W.StartPageToken;
  };
  'changes.list': {
    params: GlobalParams & {
      driveId?: string;
      includeCorpusRemovals?: boolean;
      includeDeleted?: boolean;
      includeItemsFromAllDrives?: boolean;
      includeSubscribed?: boolean;
      maxResults?: number;
      pageToken?: string;
      spaces?: string;
      supportsAllDrives?: boolean;
      includePermissionsForView?: string;
      includeLabels?: string;
    };
    request: never;
    response: W.ChangeList;
  };
  'changes.watch': {
    params: GlobalParams & {
      driveId?: string;
      includeCorpusRemovals?: boolean;
      includeDeleted?: boolean;
      includeItemsFromAllDrives?: boolean;
      includeSubscribed?: boolean;
      maxResults?: number;
      pageToken?: string;
      spaces?: string;
      supportsAllDrives?: boolean;
      includePermissionsForView?: string;
      includeLabels?: string;
    };
    request: W.Channel;
    response: W.Channel;
  };
  'channels.stop': {
    params: GlobalParams & {

    };
    request: W.Channel;
    response: void;
  };
  'children.delete': {
    params: GlobalParams & {
      folderId: string;
      childId: string;
    };
    request: never;
    response: void;
  };
  'children.get': {
    params: GlobalParams & {
      folderId: string;
      childId: string;
    };
    request: never;
    response: W.ChildReference;
  };
  'children.insert': {
    params: GlobalParams & {
      folderId: string;
      supportsAllDrives?: boolean;
    };
    request: W.ChildReference;
    response: W.ChildReference;
  };
  'children.list': {
    params: GlobalParams & {
      folderId: string;
      maxResults?: number;
      orderBy?: string;
      pageToken?: string;
      q?: string;
    };
    request: never;
    response: W.ChildList;
  };
  'comments.delete': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
    };
    request: never;
    response: void;
  };
  'comments.get': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
      includeDeleted?: boolean;
    };
    request: never;
    response: W.Comment;
  };
  'comments.insert': {
    params: GlobalParams & {
      fileId: string;
    };
    request: W.Comment;
    response: W.Comment;
  };
  'comments.list': {
    params: GlobalParams & {
      fileId: string;
      includeDeleted?: boolean;
      maxResults?: number;
      pageToken?: string;
      updatedMin?: string;
    };
    request: never;
    response: W.CommentList;
  };
  'comments.patch': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
    };
    request: W.Comment;
    response: W.Comment;
  };
  'comments.update': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
    };
    request: W.Comment;
    response: W.Comment;
  };
  'drives.delete': {
    params: GlobalParams & {
      driveId: string;
      useDomainAdminAccess?: boolean;
      allowItemDeletion?: boolean;
    };
    request: never;
    response: void;
  };
  'drives.get': {
    params: GlobalParams & {
      driveId: string;
      useDomainAdminAccess?: boolean;
    };
    request: never;
    response: W.Drive;
  };
  'drives.hide': {
    params: GlobalParams & {
      driveId: string;
    };
    request: never;
    response: W.Drive;
  };
  'drives.insert': {
    params: GlobalParams & {
      requestId: string;
    };
    request: W.Drive;
    response: W.Drive;
  };
  'drives.list': {
    params: GlobalParams & {
      maxResults?: number;
      pageToken?: string;
      q?: string;
      useDomainAdminAccess?: boolean;
    };
    request: never;
    response: W.DriveList;
  };
  'drives.unhide': {
    params: GlobalParams & {
      driveId: string;
    };
    request: never;
    response: W.Drive;
  };
  'drives.update': {
    params: GlobalParams & {
      driveId: string;
      useDomainAdminAccess?: boolean;
    };
    request: W.Drive;
    response: W.Drive;
  };
  'files.copy': {
    params: GlobalParams & {
      fileId: string;
      convert?: boolean;
      ocr?: boolean;
      ocrLanguage?: string;
      pinned?: boolean;
      supportsAllDrives?: boolean;
      timedTextLanguage?: string;
      timedTextTrackName?: string;
      visibility?: 'DEFAULT' | 'PRIVATE';
      includePermissionsForView?: string;
      includeLabels?: string;
    };
    request: W.File;
    response: W.File;
  };
  'files.delete': {
    params: GlobalParams & {
      fileId: string;
      supportsAllDrives?: boolean;
    };
    request: never;
    response: void;
  };
  'files.emptyTrash': {
    params: GlobalParams & {
      driveId?: string;
    };
    request: never;
    response: void;
  };
  'files.export': {
    params: GlobalParams & {
      fileId: string;
      mimeType: string;
    };
    request: never;
    response: void;
  };
  'files.generateIds': {
    params: GlobalParams & {
      maxResults?: number;
      space?: string;
      type?: string;
    };
    request: never;
    response: W.GeneratedIds;
  };
  'files.get': {
    params: GlobalParams & {
      fileId: string;
      acknowledgeAbuse?: boolean;
      revisionId?: string;
      supportsAllDrives?: boolean;
      includePermissionsForView?: string;
      includeLabels?: string;
    };
    request: never;
    response: W.File;
  };
  'files.insert': {
    params: GlobalParams & {
      convert?: boolean;
      ocr?: boolean;
      ocrLanguage?: string;
      pinned?: boolean;
      supportsAllDrives?: boolean;
      timedTextLanguage?: string;
      timedTextTrackName?: string;
      useContentAsIndexableText?: boolean;
      visibility?: 'DEFAULT' | 'PRIVATE';
      includePermissionsForView?: string;
      includeLabels?: string;
    };
    request: W.File;
    response: W.File;
  };
  'files.list': {
    params: GlobalParams & {
      corpora?: string;
      driveId?: string;
      includeItemsFromAllDrives?: boolean;
      maxResults?: number;
      orderBy?: string;
      pageToken?: string;
      q?: string;
      spaces?: string;
      supportsAllDrives?: boolean;
      includePermissionsForView?: string;
      includeLabels?: string;
    };
    request: never;
    response: W.FileList;
  };
  'files.listLabels': {
    params: GlobalParams & {
      fileId: string;
      maxResults?: number;
      pageToken?: string;
    };
    request: never;
    response: W.LabelList;
  };
  'files.modifyLabels': {
    params: GlobalParams & {
      fileId: string;
    };
    request: W.ModifyLabelsRequest;
    response: W.ModifyLabelsResponse;
  };
  'files.patch': {
    params: FileUpdateParams;
    request: W.File;
    response: W.File;
  };
  'files.touch': {
    params: FileStateParams;
    request: never;
    response: W.File;
  };
  'files.trash': {
    params: FileStateParams;
    request: never;
    response: W.File;
  };
  'files.untrash': {
    params: FileStateParams;
    request: never;
    response: W.File;
  };
  'files.update': {
    params: FileUpdateParams;
    request: W.File;
    response: W.File;
  };
  'files.watch': {
    params: GlobalParams & {
      fileId: string;
      supportsAllDrives?: boolean;
      acknowledgeAbuse?: boolean;
      includePermissionsForView?: string;
      revisionId?: string;
      includeLabels?: string;
    };
    request: W.Channel;
    response: W.Channel;
  };
  'parents.delete': {
    params: GlobalParams & {
      fileId: string;
      parentId: string;
    };
    request: never;
    response: void;
  };
  'parents.get': {
    params: GlobalParams & {
      fileId: string;
      parentId: string;
    };
    request: never;
    response: W.ParentReference;
  };
  'parents.insert': {
    params: GlobalParams & {
      fileId: string;
      supportsAllDrives?: boolean;
    };
    request: W.ParentReference;
    response: W.ParentReference;
  };
  'parents.list': {
    params: GlobalParams & {
      fileId: string;
    };
    request: never;
    response: W.ParentList;
  };
  'permissions.delete': {
    params: GlobalParams & {
      fileId: string;
      permissionId: string;
      supportsAllDrives?: boolean;
      useDomainAdminAccess?: boolean;
    };
    request: never;
    response: void;
  };
  'permissions.get': {
    params: GlobalParams & {
      fileId: string;
      permissionId: string;
      supportsAllDrives?: boolean;
      useDomainAdminAccess?: boolean;
    };
    request: never;
    response: W.Permission;
  };
  'permissions.getIdForEmail': {
    params: GlobalParams & {
      email: string;
    };
    request: never;
    response: W.PermissionId;
  };
  'permissions.insert': {
    params: GlobalParams & {
      fileId: string;
      emailMessage?: string;
      moveToNewOwnersRoot?: boolean;
      sendNotificationEmails?: boolean;
      supportsAllDrives?: boolean;
      useDomainAdminAccess?: boolean;
    };
    request: W.Permission;
    response: W.Permission;
  };
  'permissions.list': {
    params: GlobalParams & {
      fileId: string;
      maxResults?: number;
      pageToken?: string;
      supportsAllDrives?: boolean;
      useDomainAdminAccess?: boolean;
      includePermissionsForView?: string;
    };
    request: never;
    response: W.PermissionList;
  };
  'permissions.patch': {
    params: GlobalParams & {
      fileId: string;
      permissionId: string;
      removeExpiration?: boolean;
      supportsAllDrives?: boolean;
      transferOwnership?: boolean;
      useDomainAdminAccess?: boolean;
    };
    request: W.Permission;
    response: W.Permission;
  };
  'permissions.update': {
    params: GlobalParams & {
      fileId: string;
      permissionId: string;
      removeExpiration?: boolean;
      supportsAllDrives?: boolean;
      transferOwnership?: boolean;
      useDomainAdminAccess?: boolean;
    };
    request: W.Permission;
    response: W.Permission;
  };
  'properties.delete': {
    params: GlobalParams & {
      fileId: string;
      propertyKey: string;
      visibility?: string;
    };
    request: never;
    response: void;
  };
  'properties.get': {
    params: GlobalParams & {
      fileId: string;
      propertyKey: string;
      visibility?: string;
    };
    request: never;
    response: W.Property;
  };
  'properties.insert': {
    params: GlobalParams & {
      fileId: string;
    };
    request: W.Property;
    response: W.Property;
  };
  'properties.list': {
    params: GlobalParams & {
      fileId: string;
    };
    request: never;
    response: W.PropertyList;
  };
  'properties.patch': {
    params: GlobalParams & {
      fileId: string;
      propertyKey: string;
      visibility?: string;
    };
    request: W.Property;
    response: W.Property;
  };
  'properties.update': {
    params: GlobalParams & {
      fileId: string;
      propertyKey: string;
      visibility?: string;
    };
    request: W.Property;
    response: W.Property;
  };
  'replies.delete': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
      replyId: string;
    };
    request: never;
    response: void;
  };
  'replies.get': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
      replyId: string;
      includeDeleted?: boolean;
    };
    request: never;
    response: W.CommentReply;
  };
  'replies.insert': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
    };
    request: W.CommentReply;
    response: W.CommentReply;
  };
  'replies.list': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
      includeDeleted?: boolean;
      maxResults?: number;
      pageToken?: string;
    };
    request: never;
    response: W.CommentReplyList;
  };
  'replies.patch': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
      replyId: string;
    };
    request: W.CommentReply;
    response: W.CommentReply;
  };
  'replies.update': {
    params: GlobalParams & {
      fileId: string;
      commentId: string;
      replyId: string;
    };
    request: W.CommentReply;
    response: W.CommentReply;
  };
  'revisions.delete': {
    params: GlobalParams & {
      fileId: string;
      revisionId: string;
    };
    request: never;
    response: void;
  };
  'revisions.get': {
    params: GlobalParams & {
      fileId: string;
      revisionId: string;
    };
    request: never;
    response: W.Revision;
  };
  'revisions.list': {
    params: GlobalParams & {
      fileId: string;
      maxResults?: number;
      pageToken?: string;
    };
    request: never;
    response: W.RevisionList;
  };
  'revisions.patch': {
    params: GlobalParams & {
      fileId: string;
      revisionId: string;
    };
    request: W.Revision;
    response: W.Revision;
  };
  'revisions.update': {
    params: GlobalParams & {
      fileId: string;
      revisionId: string;
    };
    request: W.Revision;
    response: W.Revision;
  };
}

export type OperationId = keyof OperationMap;
export type OperationParams<K extends OperationId> = OperationMap[K]['params'];
export type OperationRequest<K extends OperationId> = OperationMap[K]['request'];
export type OperationResponse<K extends OperationId> = OperationMap[K]['response'];

export const OPERATION_IDS: readonly OperationId[] = [
  'about.get',
  'apps.get',
  'apps.list',
  'changes.get',
  'changes.getStartPageToken',
  'changes.list',
  'changes.watch',
  'channels.stop',
  'children.delete',
  'children.get',
  'children.insert',
  'children.list',
  'comments.delete',
  'comments.get',
  'comments.insert',
  'comments.list',
  'comments.patch',
  'comments.update',
  'drives.delete',
  'drives.get',
  'drives.hide',
  'drives.insert',
  'drives.list',
  'drives.unhide',
  'drives.update',
  'files.copy',
  'files.delete',
  'files.emptyTrash',
  'files.export',
  'files.generateIds',
  'files.get',
  'files.insert',
  'files.list',
  'files.listLabels',
  'files.modifyLabels',
  'files.patch',
  'files.touch',
  'files.trash',
  'files.untrash',
  'files.update',
  'files.watch',
  'parents.delete',
  'parents.get',
  'parents.insert',
  'parents.list',
  'permissions.delete',
  'permissions.get',
  'permissions.getIdForEmail',
  'permissions.insert',
  'permissions.list',
  'permissions.patch',
  'permissions.update',
  'properties.delete',
  'properties.get',
  'properties.insert',
  'properties.list',
  'properties.patch',
  'properties.update',
  'replies.delete',
  'replies.get',
  'replies.insert',
  'replies.list',
  'replies.patch',
  'replies.update',
  'revisions.delete',
  'revisions.get',
  'revisions.list',
  'revisions.patch',
  'revisions.update',
];
