// Stored records → wire resources. v2 returns the whole resource unless `fields` narrows it, so
// these produce every property the emulator can back with real data.
import { blobRefOf } from './blobs';
import { canWrite, roleOf } from './access';
import { FOLDER_MIME, SHORTCUT_MIME, isWorkspaceDocument } from '../../shared/wire/storage';
import type * as W from '../../shared/wire/storage';
import { exportTargets } from './exports';
import {
  etagOf,
  type Store,
  type StoredFile,
  type StoredPermission,
  type StoredProperty,
  type StoredRevision,
  type StoredDrive,
  type StoredApp,
} from './model';

/** Where links in rendered resources point: the request's own origin and API prefix. */
export interface LinkBase {
  origin: string;
  /** '/store/v2' or '/drive/v2': links stay in the prefix the client used. */
  service: string;
}

export function apiUrl(base: LinkBase, path: string): string {
  return `${base.origin}${base.service}/${path}`;
}

/** Checksums of no bytes, for a blob file that has no content yet. */
const EMPTY = blobRefOf(new Uint8Array(0));

export function renderUser(store: Store, userId: string): W.User {
  const u = store.user(userId);
  return {
    kind: 'drive#user',
    displayName: u.displayName,
    emailAddress: u.emailAddress,
    permissionId: u.permissionId,
    isAuthenticatedUser: u.permissionId === store.state.meId,
    picture: { url: `https://example.com/avatars/${u.permissionId}.png` },
  };
}

function capabilities(store: Store, f: StoredFile, role: string | undefined): Record<string, boolean> {
  const write = canWrite(role);
  const own = role === 'owner' || role === 'organizer';
  const folder = f.mimeType === FOLDER_MIME;
  const commenter =
    write || f.permissions.some((p) => p.id === store.state.meId && p.additionalRoles.includes('commenter'));
  const inDrive = !!f.driveId;
  return {
    canAddChildren: folder && write,
    canChangeCopyRequiresWriterPermission: own,
    canComment: commenter,
    canCopy: !folder && (!f.copyRequiresWriterPermission || write),
    canDelete: own,
    canDeleteChildren: folder && own,
    canDownload: !folder,
    canEdit: write,
    canListChildren: folder,
    canModifyContent: write && !folder,
    canModifyLabels: write,
    canMoveItemWithinDrive: write,
    canMoveItemOutOfDrive: own,
    canReadLabels: true,
    canReadRevisions: write,
    canRemoveChildren: folder && write,
    canRename: write,
    canShare: own || (write && f.writersCanShare),
    canTrash: own || (inDrive && write),
    canTrashChildren: folder && own,
    canUntrash: own || (inDrive && write),
    canReadDrive: inDrive,
    canAddMyDriveParent: !inDrive,
    canRemoveMyDriveParent: !inDrive && f.parents.length > 0,
    canAcceptOwnership: false,
  };
}

export function fileSize(f: StoredFile): number | undefined {
  if (f.mimeType === FOLDER_MIME || isWorkspaceDocument(f) || f.mimeType === SHORTCUT_MIME) return undefined;
  return f.content?.size ?? 0;
}

function extensionOf(title: string): { ext?: string; full?: string } {
  const base = title.split('/').pop() ?? title;
  const dot = base.indexOf('.');
  if (dot <= 0 || dot === base.length - 1) return {};
  return { full: base.slice(dot + 1), ext: base.slice(base.lastIndexOf('.') + 1) };
}

export function renderParent(store: Store, base: LinkBase, fileId: string, parentId: string): W.ParentReference {
  return {
    kind: 'drive#parentReference',
    id: parentId,
    selfLink: apiUrl(base, `files/${fileId}/parents/${parentId}`),
    parentLink: apiUrl(base, `files/${parentId}`),
    isRoot: parentId === store.state.rootId,
  };
}

export function renderChild(base: LinkBase, folderId: string, childId: string): W.ChildReference {
  return {
    kind: 'drive#childReference',
    id: childId,
    selfLink: apiUrl(base, `files/${folderId}/children/${childId}`),
    childLink: apiUrl(base, `files/${childId}`),
  };
}

export function renderPermission(base: LinkBase, fileId: string, p: StoredPermission): W.Permission {
  return {
    kind: 'drive#permission',
    id: p.id,
    etag: etagOf('permission', `${fileId}/${p.id}`, p.version),
    selfLink: apiUrl(base, `files/${fileId}/permissions/${p.id}`),
    type: p.type,
    role: p.role,
    ...(p.additionalRoles.length ? { additionalRoles: [...p.additionalRoles] } : {}),
    ...(p.name ? { name: p.name } : {}),
    ...(p.emailAddress ? { emailAddress: p.emailAddress } : {}),
    ...(p.domain ? { domain: p.domain } : {}),
    ...(p.type === 'anyone' || p.type === 'domain'
      ? { withLink: !!p.withLink, value: p.domain ?? '' }
      : { value: p.emailAddress ?? '' }),
    ...(p.expirationDate ? { expirationDate: p.expirationDate } : {}),
    ...(p.pendingOwner ? { pendingOwner: true } : {}),
    ...(p.view ? { view: p.view } : {}),
    deleted: false,
  };
}

export function renderProperty(base: LinkBase, fileId: string, p: StoredProperty): W.Property {
  return {
    kind: 'drive#property',
    key: p.key,
    value: p.value,
    visibility: p.visibility,
    etag: etagOf('property', `${fileId}/${p.visibility}/${p.key}`, p.version),
    selfLink: apiUrl(base, `files/${fileId}/properties/${encodeURIComponent(p.key)}?visibility=${p.visibility}`),
  };
}

/**
 * `only`: the top-level properties a `fields` selection keeps. Expensive groups nobody asked for
 * are skipped (the projection would drop them anyway), which keeps large listings fast.
 */
export function renderFile(store: Store, base: LinkBase, f: StoredFile, only?: ReadonlySet<string>): W.File {
  const w = (...keys: string[]) => !only || only.has('*') || keys.some((k) => only.has(k));
  const role = roleOf(store, f);
  const caps = w('capabilities', 'canComment', 'shareable') ? capabilities(store, f, role) : undefined;
  const size = fileSize(f);
  const { ext, full } = extensionOf(f.title);
  const owner = store.user(f.ownerId);
  const mine = f.ownerId === store.state.meId;
  const blob = size !== undefined;
  const head = f.revisions[f.revisions.length - 1];
  const exportsFor = isWorkspaceDocument(f) ? exportTargets(f.mimeType) : [];
  const myPermission = f.permissions.find((p) => p.id === store.state.meId);
  const out: W.File = {
    kind: 'drive#file',
    id: f.id,
    ...(w('etag') ? { etag: etagOf('file', f.id, f.version) } : {}),
    selfLink: apiUrl(base, `files/${f.id}`),
    alternateLink: `https://example.com/sandbox/open?id=${f.id}`,
    iconLink: `https://example.com/sandbox/icons/${encodeURIComponent(f.mimeType)}.png`,
    title: f.title,
    mimeType: f.mimeType,
    ...(f.description !== undefined ? { description: f.description } : {}),
    labels: {
      starred: f.starred,
      hidden: f.hidden,
      trashed: f.trashed,
      restricted: f.restricted,
      viewed: f.viewed,
      modified: !!f.modifiedByMeDate,
    },
    explicitlyTrashed: f.explicitlyTrashed,
    ...(f.trashed && f.trashedDate ? { trashedDate: f.trashedDate } : {}),
    ...(f.trashed && f.trashingUserId ? { trashingUser: renderUser(store, f.trashingUserId) } : {}),
    createdDate: f.createdDate,
    modifiedDate: f.modifiedDate,
    ...(f.modifiedByMeDate ? { modifiedByMeDate: f.modifiedByMeDate } : {}),
    ...(f.lastViewedByMeDate
      ? { lastViewedByMeDate: f.lastViewedByMeDate, markedViewedByMeDate: f.lastViewedByMeDate }
      : {}),
    ...(f.sharedWithMeDate ? { sharedWithMeDate: f.sharedWithMeDate } : {}),
    version: String(f.version),
    ...(w('parents') ? { parents: f.parents.map((p) => renderParent(store, base, f.id, p)) } : {}),
    ...(blob
      ? {
          downloadUrl: `${base.origin}${base.service}/files/${f.id}?alt=media`,
          webContentLink: `${base.origin}${base.service}/files/${f.id}?alt=media&source=download`,
          fileSize: String(size),
          ...(w('md5Checksum', 'sha1Checksum', 'sha256Checksum')
            ? {
                md5Checksum: f.content?.md5 ?? EMPTY.md5,
                sha1Checksum: f.content?.sha1 ?? EMPTY.sha1,
                sha256Checksum: f.content?.sha256 ?? EMPTY.sha256,
              }
            : {}),
          ...(ext ? { fileExtension: ext, fullFileExtension: full } : {}),
          ...(f.originalFilename ? { originalFilename: f.originalFilename } : {}),
          ...(head ? { headRevisionId: head.id } : {}),
        }
      : {}),
    quotaBytesUsed: String(mine && blob ? size : 0),
    ...(exportsFor.length
      ? {
          exportLinks: Object.fromEntries(
            exportsFor.map((t) => [
              t,
              `${base.origin}${base.service}/files/${f.id}/export?mimeType=${encodeURIComponent(t)}`,
            ]),
          ),
        }
      : {}),
    ...(f.shortcutTargetId
      ? {
          shortcutDetails: {
            targetId: f.shortcutTargetId,
            targetMimeType: store.state.files[f.shortcutTargetId]?.mimeType ?? '',
          },
        }
      : {}),
    ...(f.driveId ? { driveId: f.driveId, teamDriveId: f.driveId } : {}),
    ...(w('owners') ? { owners: f.driveId ? [] : [renderUser(store, owner.permissionId)] } : {}),
    ownerNames: f.driveId ? [] : [owner.displayName],
    ...(w('lastModifyingUser') ? { lastModifyingUser: renderUser(store, f.lastModifyingUserId) } : {}),
    lastModifyingUserName: store.user(f.lastModifyingUserId).displayName,
    ...(f.sharingUserId && w('sharingUser') ? { sharingUser: renderUser(store, f.sharingUserId) } : {}),
    ownedByMe: mine && !f.driveId,
    shared: f.permissions.length > 1,
    editable: canWrite(role),
    copyable: f.mimeType !== FOLDER_MIME && (!f.copyRequiresWriterPermission || canWrite(role)),
    ...(caps ? { canComment: caps.canComment, shareable: caps.canShare } : {}),
    canReadRevisions: canWrite(role),
    writersCanShare: f.writersCanShare,
    copyRequiresWriterPermission: f.copyRequiresWriterPermission,
    ...(caps && w('capabilities') ? { capabilities: caps } : {}),
    ...(myPermission && w('userPermission') ? { userPermission: renderPermission(base, f.id, myPermission) } : {}),
    ...(w('permissions')
      ? {
          permissions: canWrite(role) ? permissionOrder(f.permissions).map((p) => renderPermission(base, f.id, p)) : [],
        }
      : {}),
    permissionIds: f.permissions.map((p) => p.id),
    ...(w('properties') ? { properties: f.properties.map((p) => renderProperty(base, f.id, p)) } : {}),
    spaces: [...f.spaces],
    appDataContents: f.spaces.includes('appDataFolder'),
    ...(f.folderColorRgb ? { folderColorRgb: f.folderColorRgb } : {}),
    hasThumbnail: f.mimeType.startsWith('image/'),
    // Drive sends it on every file ("0" until a thumbnail exists); no thumbnails here.
    thumbnailVersion: '0',
    isAppAuthorized: true,
  };
  return out;
}

/**
 * The answer of files.insert and files.copy: Drive leaves the `permissions` member out of a file it has
 * just created (a files.get right after shows it).
 */
export function renderCreatedFile(store: Store, base: LinkBase, f: StoredFile): W.File {
  const { permissions: _omitted, ...rest } = renderFile(store, base, f);
  return rest;
}

/** The order Drive lists permissions in: link sharing (`anyone`) first, the rest as granted. */
export function permissionOrder(list: readonly StoredPermission[]): StoredPermission[] {
  return [...list.filter((p) => p.type === 'anyone'), ...list.filter((p) => p.type !== 'anyone')];
}

export function renderRevision(base: LinkBase, store: Store, f: StoredFile, r: StoredRevision): W.Revision {
  const doc = isWorkspaceDocument(f);
  return {
    kind: 'drive#revision',
    id: r.id,
    etag: etagOf('revision', `${f.id}/${r.id}`, r.pinned ? 2 : 1),
    selfLink: apiUrl(base, `files/${f.id}/revisions/${r.id}`),
    mimeType: r.mimeType,
    modifiedDate: r.modifiedDate,
    lastModifyingUser: renderUser(store, r.lastModifyingUserId),
    lastModifyingUserName: store.user(r.lastModifyingUserId).displayName,
    pinned: r.pinned,
    published: r.published,
    publishAuto: r.publishAuto,
    publishedOutsideDomain: r.publishedOutsideDomain,
    ...(doc
      ? {
          exportLinks: Object.fromEntries(
            exportTargets(f.mimeType).map((t) => [
              t,
              `${base.origin}${base.service}/files/${f.id}/export?mimeType=${encodeURIComponent(t)}`,
            ]),
          ),
        }
      : {
          fileSize: String(r.content.size),
          md5Checksum: r.content.md5,
          downloadUrl: `${base.origin}${base.service}/files/${f.id}?alt=media&revisionId=${r.id}`,
          ...(r.originalFilename ? { originalFilename: r.originalFilename } : {}),
        }),
  };
}

export function renderDrive(store: Store, d: StoredDrive): W.Drive {
  const organizer = d.organizerIds.includes(store.state.meId);
  return {
    kind: 'drive#drive',
    id: d.id,
    name: d.name,
    colorRgb: d.colorRgb,
    ...(d.themeId ? { themeId: d.themeId } : {}),
    hidden: d.hidden,
    createdDate: d.createdDate,
    backgroundImageLink: `https://example.com/sandbox/themes/${d.themeId ?? 'default'}.jpg`,
    capabilities: {
      canAddChildren: true,
      canComment: true,
      canCopy: true,
      canDeleteDrive: organizer,
      canDownload: true,
      canEdit: true,
      canListChildren: true,
      canManageMembers: organizer,
      canReadRevisions: true,
      canRename: true,
      canRenameDrive: organizer,
      canChangeDriveBackground: organizer,
      canShare: organizer,
      canTrashChildren: organizer,
    },
    restrictions: { ...d.restrictions },
  };
}

export function renderApp(a: StoredApp): W.App {
  return {
    kind: 'drive#app',
    id: a.id,
    name: a.name,
    objectType: a.objectType,
    shortDescription: a.shortDescription,
    longDescription: a.longDescription,
    productUrl: a.productUrl,
    productId: `sandbox-${a.id}`,
    primaryMimeTypes: [...a.primaryMimeTypes],
    secondaryMimeTypes: [...a.secondaryMimeTypes],
    primaryFileExtensions: [...a.primaryFileExtensions],
    secondaryFileExtensions: [...a.secondaryFileExtensions],
    supportsCreate: a.supportsCreate,
    supportsImport: a.supportsImport,
    supportsMultiOpen: a.supportsMultiOpen,
    supportsOfflineCreate: false,
    installed: true,
    authorized: true,
    useByDefault: a.useByDefault,
    hasDriveWideScope: false,
    openUrlTemplate: `${a.productUrl}/open?ids={ids}`,
    createUrl: a.supportsCreate ? `${a.productUrl}/new` : undefined,
    createInFolderTemplate: a.supportsCreate ? `${a.productUrl}/new?folderId={folderId}` : undefined,
    icons: [
      { category: 'application', size: 16, iconUrl: `${a.productUrl}/icon16.png` },
      { category: 'document', size: 32, iconUrl: `${a.productUrl}/icon32.png` },
    ],
  };
}
