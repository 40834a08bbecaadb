// File mutations with Drive v2 semantics, shared by the metadata routes and the upload routes:
// creating (with reserved ids), applying metadata, new content (revisions), moving, trash, delete, copy.
import { FOLDER_MIME, SHORTCUT_MIME, WORKSPACE_MIME_PREFIX, isWorkspaceDocument } from '../../shared/wire/storage';
import { ApiError, badRequest, forbidden, notFound } from './errors';
import { makeId, type StoredFile, type StoredRevision } from './model';
import type { BlobRef } from './blobs';
import { canWrite, roleOf } from './access';
import { boolParam, enumParam, listParam } from './params';
import type { StorageService } from './service';

/** Source MIME → workspace type, for `convert=true`. */
export const IMPORTS: Record<string, string> = {
  'text/plain': 'application/vnd.google-apps.document',
  'text/markdown': 'application/vnd.google-apps.document',
  'text/html': 'application/vnd.google-apps.document',
  'text/csv': 'application/vnd.google-apps.spreadsheet',
  'image/svg+xml': 'application/vnd.google-apps.drawing',
};

const MAX_UNPINNED_REVISIONS = 100;
/** Larger text contents are not read into memory to become indexable text. */
const INDEXABLE_TEXT_SOURCE_MAX = 4 * 1024 * 1024;

export interface FileBody {
  id?: string;
  title?: string;
  mimeType?: string;
  description?: string;
  parents?: { id?: string }[];
  labels?: { starred?: boolean; hidden?: boolean; restricted?: boolean; viewed?: boolean; trashed?: boolean };
  properties?: { key?: string; value?: string; visibility?: string }[];
  folderColorRgb?: string;
  modifiedDate?: string;
  lastViewedByMeDate?: string;
  originalFilename?: string;
  writersCanShare?: boolean;
  copyRequiresWriterPermission?: boolean;
  indexableText?: { text?: string };
  shortcutDetails?: { targetId?: string };
  [k: string]: unknown;
}

/** Resolves and checks parent ids: they exist, are folders, can take children, sit in one drive. */
export function checkParents(
  svc: StorageService,
  ids: string[],
  supportsAllDrives: boolean,
): { ids: string[]; driveId?: string } {
  const out: string[] = [];
  let driveId: string | undefined;
  for (const raw of ids) {
    const p = svc.store.file(raw);
    if (!p || !svc.canSee(p) || (p.driveId && !supportsAllDrives)) throw notFound('File', raw);
    if (p.mimeType !== FOLDER_MIME) throw badRequest(`The parent ${raw} is not a folder.`, 'parents', 'invalidParent');
    if (!canWrite(roleOf(svc.store, p)))
      throw forbidden(
        'insufficientFilePermissions',
        'The user does not have sufficient permissions for the parent folder.',
      );
    if (p.trashed) throw badRequest(`The parent ${raw} is in the trash.`, 'parents', 'invalidParent');
    out.push(p.id);
    driveId = p.driveId;
  }
  const drives = new Set(out.map((id) => svc.store.state.files[id].driveId ?? ''));
  if (drives.size > 1 || (driveId && out.length > 1)) {
    throw forbidden('teamDrivesParentLimit', 'A shared drive item must have exactly one parent.');
  }
  return { ids: [...new Set(out)], driveId };
}

export function blankFile(
  svc: StorageService,
  id: string,
  title: string,
  mimeType: string,
  parents: string[],
  driveId: string | undefined,
): StoredFile {
  const now = svc.store.nowIso();
  const me = svc.store.me;
  return {
    id,
    title,
    mimeType,
    parents,
    driveId,
    starred: false,
    hidden: false,
    restricted: false,
    viewed: true,
    trashed: false,
    explicitlyTrashed: false,
    createdDate: now,
    modifiedDate: now,
    modifiedByMeDate: now,
    lastViewedByMeDate: now,
    version: 1,
    ownerId: me.permissionId,
    lastModifyingUserId: me.permissionId,
    revisions: [],
    properties: [],
    comments: [],
    labels: [],
    spaces: ['drive'],
    permissions: driveId
      ? []
      : [
          {
            id: me.permissionId,
            type: 'user',
            role: 'owner',
            additionalRoles: [],
            emailAddress: me.emailAddress,
            name: me.displayName,
            version: 1,
          },
        ],
    copyRequiresWriterPermission: false,
    writersCanShare: true,
  };
}

/** Takes an id from the body: it must come from generateIds and not be in use. */
export function claimId(svc: StorageService, wanted: string | undefined): string {
  if (!wanted) return svc.store.newId();
  if (svc.store.state.files[wanted]) {
    throw new ApiError(409, {
      domain: 'global',
      reason: 'duplicate',
      message: 'A file already exists with the provided ID.',
      locationType: 'other',
      location: 'file.id',
    });
  }
  const i = svc.store.state.reservedIds.indexOf(wanted);
  if (i < 0) throw badRequest('The provided file ID is not usable.', 'file.id', 'fileIdNotUsable');
  svc.store.state.reservedIds.splice(i, 1);
  return wanted;
}

/** files.insert without content, or the metadata half of an upload. */
export function createFile(
  svc: StorageService,
  q: URLSearchParams,
  body: FileBody,
  content?: { blob: BlobRef; type?: string },
): StoredFile {
  const supports = boolParam(q, 'supportsAllDrives', false) || boolParam(q, 'supportsTeamDrives', false);
  const parentIds = (body.parents ?? []).map((p) => p.id ?? '').filter(Boolean);
  // `appDataFolder` is the hidden per-app space: its files have no visible parent.
  const appData = parentIds.includes('appDataFolder');
  const parents = appData
    ? { ids: [] as string[], driveId: undefined }
    : checkParents(svc, parentIds.length ? parentIds : [svc.store.state.rootId], supports);
  const id = claimId(svc, body.id);
  let mimeType = body.mimeType ?? content?.type ?? 'application/octet-stream';
  if (typeof mimeType !== 'string' || !/^[\w.+-]+\/[\w.+-]+/.test(mimeType))
    throw badRequest(`Invalid MIME type ${String(mimeType)}.`, 'mimeType', 'invalid');
  mimeType = mimeType.split(';')[0].trim();
  const title = typeof body.title === 'string' && body.title !== '' ? body.title : 'Untitled';
  const f = blankFile(svc, id, title, mimeType, parents.ids, parents.driveId);
  if (appData) f.spaces = ['appDataFolder'];
  if (mimeType === SHORTCUT_MIME) {
    const target = body.shortcutDetails?.targetId;
    if (!target || !svc.store.file(target))
      throw badRequest(
        'A shortcut needs shortcutDetails.targetId naming an existing file.',
        'shortcutDetails.targetId',
        'invalid',
      );
    f.shortcutTargetId = svc.store.resolveId(target);
  }
  applyMetadata(svc, f, body, { insert: true });
  if (content) setContent(svc, f, content.blob, q, { type: content.type, insert: true });
  else if (!isWorkspaceDocument(f) && mimeType !== FOLDER_MIME && mimeType !== SHORTCUT_MIME) {
    // A blob created without content still has an (empty) head revision, as uploads do.
    setContent(svc, f, svc.store.blobs.putBytes(Buffer.alloc(0)), q, { insert: true });
  } else if (isWorkspaceDocument(f)) f.content = svc.store.blobs.putBytes(Buffer.alloc(0));
  if (boolParam(q, 'pinned', false) && f.revisions.length) f.revisions[f.revisions.length - 1].pinned = true;
  if (enumParam(q, 'visibility', ['DEFAULT', 'PRIVATE'] as const, 'DEFAULT') === 'PRIVATE') f.writersCanShare = false;
  svc.store.addFile(f);
  return f;
}

/** Applies the writable metadata of a File body; returns whether something users see changed. */
export function applyMetadata(
  svc: StorageService,
  f: StoredFile,
  body: FileBody,
  opts: { insert?: boolean } = {},
): boolean {
  let changed = false;
  if (body.title !== undefined && !opts.insert) {
    if (typeof body.title !== 'string') throw badRequest('title must be a string.', 'title', 'invalid');
    if (body.title !== f.title) {
      f.title = body.title === '' ? 'Untitled' : body.title;
      changed = true;
    }
  }
  if (body.description !== undefined && body.description !== f.description) {
    f.description = String(body.description);
    changed = true;
  }
  if (body.mimeType !== undefined && !opts.insert && body.mimeType !== f.mimeType) {
    const from = f.mimeType;
    const to = String(body.mimeType);
    // Folder-ness and workspace types are fixed at creation.
    if (
      from === FOLDER_MIME ||
      to === FOLDER_MIME ||
      to.startsWith(WORKSPACE_MIME_PREFIX) ||
      from.startsWith(WORKSPACE_MIME_PREFIX)
    ) {
      throw badRequest(`The MIME type cannot change from ${from} to ${to}.`, 'mimeType', 'invalid');
    }
    f.mimeType = to;
    changed = true;
  }
  if (body.labels) {
    const l = body.labels;
    if (l.starred !== undefined) f.starred = !!l.starred;
    if (l.hidden !== undefined) f.hidden = !!l.hidden;
    if (l.restricted !== undefined) f.restricted = !!l.restricted;
    if (l.viewed !== undefined) f.viewed = !!l.viewed;
    if (l.trashed !== undefined && !opts.insert && l.trashed !== f.trashed) {
      if (l.trashed) trash(svc, f);
      else untrash(svc, f);
    }
  }
  if (body.properties) {
    for (const p of body.properties) {
      if (!p.key) throw badRequest('A property needs a key.', 'properties.key', 'required');
      const visibility = (p.visibility ?? 'PRIVATE').toUpperCase() === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE';
      const existing = f.properties.find((x) => x.key === p.key && x.visibility === visibility);
      if (existing) {
        existing.value = p.value ?? '';
        existing.version++;
      } else f.properties.push({ key: p.key, value: p.value ?? '', visibility, version: 1 });
    }
  }
  if (body.folderColorRgb !== undefined) f.folderColorRgb = String(body.folderColorRgb);
  if (body.writersCanShare !== undefined) f.writersCanShare = !!body.writersCanShare;
  if (body.copyRequiresWriterPermission !== undefined)
    f.copyRequiresWriterPermission = !!body.copyRequiresWriterPermission;
  if (body.originalFilename !== undefined) f.originalFilename = String(body.originalFilename);
  if (body.indexableText?.text !== undefined) f.indexableText = String(body.indexableText.text);
  if (body.lastViewedByMeDate !== undefined)
    f.lastViewedByMeDate = checkDate(body.lastViewedByMeDate, 'lastViewedByMeDate');
  if (opts.insert && body.modifiedDate !== undefined) f.modifiedDate = checkDate(body.modifiedDate, 'modifiedDate');
  return changed;
}

function checkDate(value: unknown, field: string): string {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw badRequest(`Invalid value for ${field}; expected an RFC 3339 date.`, field, 'invalid');
  return new Date(t).toISOString();
}

/**
 * New content for a file: a new head revision (or, with newRevision=false, replaces the head one).
 * `convert=true` turns importable types into workspace documents.
 */
export function setContent(
  svc: StorageService,
  f: StoredFile,
  bytes: BlobRef,
  q: URLSearchParams,
  opts: { type?: string; insert?: boolean } = {},
): void {
  if (f.mimeType === FOLDER_MIME || f.mimeType === SHORTCUT_MIME)
    throw badRequest('Folders and shortcuts have no content.', undefined, 'invalidContent');
  const sourceType = (opts.type ?? f.mimeType).split(';')[0].trim();
  if (opts.insert && boolParam(q, 'convert', false) && IMPORTS[sourceType]) {
    f.mimeType = IMPORTS[sourceType];
    f.title = f.title.replace(/\.(txt|md|markdown|html?|csv|svg)$/i, '');
  } else if (opts.type && !isWorkspaceDocument(f) && opts.insert) f.mimeType = sourceType;
  if (isWorkspaceDocument(f) && !opts.insert && !IMPORTS[sourceType] && sourceType !== f.mimeType) {
    throw badRequest(`Content of type ${sourceType} cannot replace a ${f.mimeType}.`, undefined, 'invalidContent');
  }
  const now = svc.store.nowIso();
  const newRevision = boolParam(q, 'newRevision', true);
  const head = f.revisions[f.revisions.length - 1];
  const doc = isWorkspaceDocument(f);
  if (!newRevision && head && !opts.insert) {
    head.content = bytes;
    head.modifiedDate = now;
    head.mimeType = f.mimeType;
    head.lastModifyingUserId = svc.store.state.meId;
  } else {
    const rev: StoredRevision = {
      id: doc
        ? String(Number(head?.id ?? 0) + 1)
        : makeId(`rev:${f.id}`, f.revisions.length + 1 + f.version, 24).slice(1),
      mimeType: f.mimeType,
      modifiedDate: now,
      lastModifyingUserId: svc.store.state.meId,
      originalFilename: doc ? undefined : (f.originalFilename ?? f.title),
      content: bytes,
      pinned: boolParam(q, 'pinned', false),
      published: false,
      publishAuto: false,
      publishedOutsideDomain: false,
    };
    f.revisions.push(rev);
    // Old unpinned revisions are purged, as the service does.
    const unpinned = f.revisions.filter((r) => !r.pinned);
    if (unpinned.length > MAX_UNPINNED_REVISIONS) {
      const drop = new Set(unpinned.slice(0, unpinned.length - MAX_UNPINNED_REVISIONS).map((r) => r.id));
      f.revisions = f.revisions.filter((r) => !drop.has(r.id) || r === f.revisions[f.revisions.length - 1]);
    }
  }
  f.content = bytes;
  if (!doc) f.originalFilename ??= f.title;
  if (
    boolParam(q, 'useContentAsIndexableText', false) &&
    /^text\//.test(sourceType) &&
    bytes.size <= INDEXABLE_TEXT_SOURCE_MAX
  ) {
    f.indexableText = svc.store.blobs
      .readAll(bytes)
      .toString('utf8')
      .slice(0, 128 * 1024);
  }
}

/** Applies addParents/removeParents (and `parents` in the body, which replaces the set). */
export function moveFile(svc: StorageService, f: StoredFile, q: URLSearchParams, body: FileBody): boolean {
  const add = listParam(q, 'addParents');
  const remove = listParam(q, 'removeParents').map((id) => svc.store.resolveId(id));
  const supports = boolParam(q, 'supportsAllDrives', false) || boolParam(q, 'supportsTeamDrives', false);
  let next = [...f.parents];
  if (body.parents && add.length === 0 && remove.length === 0) {
    const wanted = body.parents.map((p) => p.id ?? '').filter(Boolean);
    const fresh = wanted.filter((id) => !f.parents.includes(svc.store.resolveId(id)));
    const checked = checkParents(svc, fresh, supports || !!f.driveId).ids;
    next = [...f.parents.filter((p) => wanted.map((w) => svc.store.resolveId(w)).includes(p)), ...checked];
  } else {
    if (add.length) next.push(...checkParents(svc, add, supports || !!f.driveId).ids);
    for (const r of remove) {
      if (!f.parents.includes(r))
        throw badRequest(`${r} is not a parent of the file.`, 'removeParents', 'invalidParent');
    }
    next = next.filter((p) => !remove.includes(p));
  }
  next = [...new Set(next)];
  if (JSON.stringify(next) === JSON.stringify(f.parents)) return false;
  if (f.mimeType === FOLDER_MIME) {
    for (const p of next)
      if (p === f.id || svc.store.ancestors(p).has(f.id))
        throw badRequest('A folder cannot be moved into itself or its descendants.', 'addParents', 'invalidParent');
  }
  const drives = new Set(next.map((p) => svc.store.state.files[p]?.driveId ?? ''));
  const newDrive = [...drives][0] || undefined;
  if (drives.size > 1 || (newDrive && next.length !== 1)) {
    throw forbidden('teamDrivesParentLimit', 'A shared drive item must have exactly one parent.');
  }
  svc.store.setParents(f, next);
  if (newDrive !== f.driveId) {
    for (const d of [f, ...svc.store.descendants(f.id)]) d.driveId = newDrive;
  }
  return true;
}

export function requireOwner(svc: StorageService, f: StoredFile, action: string): void {
  const role = roleOf(svc.store, f);
  const allowed =
    role === 'owner' ||
    role === 'organizer' ||
    (f.driveId && (role === 'fileOrganizer' || (action === 'trash' && role === 'writer')));
  if (!allowed)
    throw forbidden(
      'insufficientFilePermissions',
      `The user does not have sufficient permissions to ${action} this file.`,
    );
}

/** Trashes a file and everything below it; only the file itself is "explicitly" trashed. */
export function trash(svc: StorageService, f: StoredFile): void {
  if (f.id === svc.store.state.rootId || svc.store.state.drives[f.id])
    throw forbidden('cannotTrashRoot', 'The root folder cannot be trashed.');
  const now = svc.store.nowIso();
  const me = svc.store.state.meId;
  for (const d of [f, ...(f.mimeType === FOLDER_MIME ? svc.store.descendants(f.id) : [])]) {
    if (d.trashed && d !== f) continue;
    d.trashed = true;
    d.trashedDate = now;
    d.trashingUserId = me;
    d.explicitlyTrashed = d === f;
    svc.store.touchFile(d);
  }
}

/** Restores a file and the descendants that went to the trash with it (not ones trashed on their own). */
export function untrash(svc: StorageService, f: StoredFile): void {
  const restore = (d: StoredFile) => {
    d.trashed = false;
    d.explicitlyTrashed = false;
    d.trashedDate = undefined;
    d.trashingUserId = undefined;
    svc.store.touchFile(d);
  };
  restore(f);
  if (f.mimeType !== FOLDER_MIME) return;
  const queue = [f.id];
  while (queue.length) {
    const id = queue.pop()!;
    for (const cid of svc.store.childIds(id)) {
      const c = svc.store.state.files[cid];
      if (!c || !c.trashed || c.explicitlyTrashed) continue;
      restore(c);
      if (c.mimeType === FOLDER_MIME) queue.push(c.id);
    }
  }
}

/** Permanent delete: the file and the descendants the user owns; others' items just lose the parent. */
export function deleteTree(svc: StorageService, f: StoredFile): void {
  const me = svc.store.state.meId;
  const doomed = [f, ...(f.mimeType === FOLDER_MIME ? svc.store.descendants(f.id) : [])];
  for (const d of doomed) {
    if (d !== f && d.ownerId !== me && !d.driveId) {
      svc.store.setParents(
        d,
        d.parents.filter((p) => !doomed.some((x) => x.id === p)),
      );
      svc.store.touchFile(d);
      continue;
    }
    svc.store.removeFile(d.id);
  }
}

export function copyFile(svc: StorageService, src: StoredFile, q: URLSearchParams, body: FileBody): StoredFile {
  if (src.mimeType === FOLDER_MIME) throw forbidden('cannotCopyFile', 'Folders cannot be copied.');
  const role = roleOf(svc.store, src);
  if (src.copyRequiresWriterPermission && !canWrite(role))
    throw forbidden('cannotCopyFile', 'This file cannot be copied by the user.');
  const supports = boolParam(q, 'supportsAllDrives', false) || boolParam(q, 'supportsTeamDrives', false);
  const wanted = (body.parents ?? []).map((p) => p.id ?? '').filter(Boolean);
  const fallback = src.parents.filter((p) => {
    const parent = svc.store.state.files[p];
    return parent && canWrite(roleOf(svc.store, parent));
  });
  const parents = checkParents(
    svc,
    wanted.length ? wanted : fallback.length ? fallback.slice(0, 1) : [svc.store.state.rootId],
    supports || !!src.driveId,
  );
  const id = claimId(svc, body.id);
  const f = blankFile(
    svc,
    id,
    typeof body.title === 'string' && body.title ? body.title : src.title,
    src.mimeType,
    parents.ids,
    parents.driveId,
  );
  f.description = body.description ?? src.description;
  f.shortcutTargetId = src.shortcutTargetId;
  f.properties = src.properties.filter((p) => p.visibility === 'PUBLIC').map((p) => ({ ...p, version: 1 }));
  applyMetadata(svc, f, { ...body, title: undefined, parents: undefined }, { insert: true });
  if (src.content !== undefined) {
    if (isWorkspaceDocument(src)) {
      f.content = src.content;
      f.revisions.push({
        id: '1',
        mimeType: f.mimeType,
        modifiedDate: f.createdDate,
        lastModifyingUserId: svc.store.state.meId,
        content: src.content,
        pinned: false,
        published: false,
        publishAuto: false,
        publishedOutsideDomain: false,
      });
    } else setContent(svc, f, src.content, q, { insert: true });
  }
  if (boolParam(q, 'pinned', false) && f.revisions.length) f.revisions[f.revisions.length - 1].pinned = true;
  if (enumParam(q, 'visibility', ['DEFAULT', 'PRIVATE'] as const, 'DEFAULT') === 'PRIVATE') f.writersCanShare = false;
  svc.store.addFile(f);
  return f;
}

/** modifiedDateBehavior / setModifiedDate of update and patch. */
export function applyModifiedDate(
  svc: StorageService,
  f: StoredFile,
  q: URLSearchParams,
  body: FileBody,
  changed: boolean,
): void {
  const behavior = enumParam(
    q,
    'modifiedDateBehavior',
    ['fromBody', 'fromBodyIfNeeded', 'fromBodyOrNow', 'noChange', 'now', 'nowIfNeeded'] as const,
    boolParam(q, 'setModifiedDate', false) ? 'fromBody' : 'nowIfNeeded',
  );
  const fromBody = body.modifiedDate !== undefined ? checkDate(body.modifiedDate, 'modifiedDate') : undefined;
  const now = svc.store.nowIso();
  switch (behavior) {
    case 'fromBody':
      if (!fromBody)
        throw badRequest(
          'modifiedDate is required in the body with this modifiedDateBehavior.',
          'modifiedDate',
          'required',
        );
      f.modifiedDate = fromBody;
      break;
    case 'fromBodyIfNeeded':
      if (changed && fromBody) f.modifiedDate = fromBody;
      break;
    case 'fromBodyOrNow':
      f.modifiedDate = fromBody ?? now;
      break;
    case 'now':
      f.modifiedDate = now;
      break;
    case 'nowIfNeeded':
      if (changed) f.modifiedDate = now;
      break;
    case 'noChange':
      break;
  }
  if (changed || behavior === 'now') {
    f.modifiedByMeDate = now;
    f.lastModifyingUserId = svc.store.state.meId;
  }
}
