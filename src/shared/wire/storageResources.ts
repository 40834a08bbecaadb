// Wire shapes of the storage API's resources beside files and their metadata: users, comments and replies,
// shared drives, watch channels, apps, generated ids and labels. Re-exported by
// storage.ts, which is what both sides import.
export interface User {
  kind?: 'drive#user';
  displayName?: string;
  emailAddress?: string;
  permissionId?: string;
  isAuthenticatedUser?: boolean;
  picture?: { url?: string };
}

/** What a comment and a reply both carry: who wrote what, when, and whether it is deleted. */
interface Post {
  createdDate?: string;
  modifiedDate?: string;
  author?: User;
  content?: string;
  htmlContent?: string;
  deleted?: boolean;
}

export interface CommentReply extends Post {
  kind?: 'drive#commentReply';
  replyId?: string;
  /** "resolve" or "reopen" when the reply changed the comment's status. */
  verb?: string;
}

export interface Comment extends Post {
  kind?: 'drive#comment';
  commentId?: string;
  fileId?: string;
  fileTitle?: string;
  selfLink?: string;
  /** "open" or "resolved". */
  status?: string;
  anchor?: string;
  context?: { type?: string; value?: string };
  replies?: CommentReply[];
}

export interface CommentList {
  kind?: 'drive#commentList';
  selfLink?: string;
  nextPageToken?: string;
  nextLink?: string;
  items?: Comment[];
}

export interface CommentReplyList {
  kind?: 'drive#commentReplyList';
  selfLink?: string;
  nextPageToken?: string;
  nextLink?: string;
  items?: CommentReply[];
}

export interface Drive {
  kind?: 'drive#drive';
  id?: string;
  name?: string;
  colorRgb?: string;
  themeId?: string;
  hidden?: boolean;
  createdDate?: string;
  capabilities?: Record<string, boolean>;
  restrictions?: Record<string, boolean>;
  backgroundImageLink?: string;
  orgUnitId?: string;
}

export interface DriveList {
  kind?: 'drive#driveList';
  nextPageToken?: string;
  items?: Drive[];
}

export interface Channel {
  kind?: 'api#channel';
  id?: string;
  resourceId?: string;
  resourceUri?: string;
  token?: string;
  expiration?: string;
  type?: string;
  address?: string;
  payload?: boolean;
  params?: Record<string, string>;
}

export interface App {
  kind?: 'drive#app';
  id?: string;
  name?: string;
  objectType?: string;
  shortDescription?: string;
  longDescription?: string;
  supportsCreate?: boolean;
  supportsImport?: boolean;
  supportsMultiOpen?: boolean;
  supportsOfflineCreate?: boolean;
  installed?: boolean;
  authorized?: boolean;
  useByDefault?: boolean;
  hasDriveWideScope?: boolean;
  productUrl?: string;
  productId?: string;
  openUrlTemplate?: string;
  createUrl?: string;
  createInFolderTemplate?: string;
  primaryMimeTypes?: string[];
  secondaryMimeTypes?: string[];
  primaryFileExtensions?: string[];
  secondaryFileExtensions?: string[];
  icons?: { category?: string; iconUrl?: string; size?: number }[];
}

export interface AppList {
  kind?: 'drive#appList';
  etag?: string;
  selfLink?: string;
  defaultAppIds?: string[];
  items?: App[];
}

export interface GeneratedIds {
  kind?: 'drive#generatedIds';
  ids?: string[];
  space?: string;
}

export interface LabelField {
  kind?: 'drive#labelField';
  id?: string;
  valueType?: string;
  text?: string[];
  integer?: string[];
  dateString?: string[];
  selection?: string[];
  user?: User[];
}

export interface Label {
  kind?: 'drive#label';
  id?: string;
  revisionId?: string;
  fields?: Record<string, LabelField>;
}

export interface LabelList {
  kind?: 'drive#labelList';
  nextPageToken?: string;
  items?: Label[];
}

export interface LabelFieldModification {
  kind?: 'drive#labelFieldModification';
  fieldId?: string;
  setTextValues?: string[];
  setIntegerValues?: string[];
  setDateValues?: string[];
  setSelectionValues?: string[];
  setUserValues?: string[];
  unsetValues?: boolean;
}

export interface LabelModification {
  kind?: 'drive#labelModification';
  labelId?: string;
  removeLabel?: boolean;
  fieldModifications?: LabelFieldModification[];
}

export interface ModifyLabelsRequest {
  kind?: 'drive#modifyLabelsRequest';
  labelModifications?: LabelModification[];
}

export interface ModifyLabelsResponse {
  kind?: 'drive#modifyLabelsResponse';
  modifiedLabels?: Label[];
}
