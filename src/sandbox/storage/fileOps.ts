// File mutations with Drive v2 semantics, shared by the metadata routes and the upload routes:
// creating (with reserved ids), applying metadata and modified dates, copying. New content is in
// fileContent.ts; moving, trash and delete in filePlacement.ts.
import { FOLDER_MIME, SHORTCUT_MIME, WORKSPACE_MIME_PREFIX, isWorkspaceDocument } from '../../shared/wire/storage';
import { ApiError, badRequest, forbidden } from './errors';
import type { StoredFile } from './model';
import type { BlobRef } from './blobs';
import { canWrite, roleOf } from './access';
import { boolParam, enumParam } from './params';
import { newFileRecord, newRevision, userPermission } from './records';
import { setContent } from './fileContent';
import { checkParents, trash, untrash } from './filePlacement';
import type { StorageService } from './service';

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

/** A new item owned by the user, not yet added to the store. */
export function blankFile(
  svc: StorageService,
  id: string,
  title: string,
  mimeType: string,
  parents: string[],
  driveId: string | undefined,
): StoredFile {
  const me = svc.store.me;
  return newFileRecord({
    id,
    title,
    mimeType,
    parents,
    driveId,
    date: svc.store.nowIso(),
    owner: me,
    // A shared drive's items carry no permissions of their own: access comes from the drive.
    permissions: driveId ? [] : [userPermission(me, 'owner')],
    touchedByMe: true,
  });
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
  if (!svc.store.useReservedId(wanted))
    throw badRequest('The provided file ID is not usable.', 'file.id', 'fileIdNotUsable');
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
  return addNewFile(svc, f, q);
}

/** Applies the query options of insert and copy (`pinned`, `visibility`) and adds the new file to the store. */
function addNewFile(svc: StorageService, f: StoredFile, q: URLSearchParams): StoredFile {
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

export function checkDate(value: unknown, field: string): string {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw badRequest(`Invalid value for ${field}; expected an RFC 3339 date.`, field, 'invalid');
  return new Date(t).toISOString();
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
      f.revisions.push(
        newRevision({
          id: '1',
          mimeType: f.mimeType,
          date: f.createdDate,
          userId: svc.store.state.meId,
          content: src.content,
        }),
      );
    } else setContent(svc, f, src.content, q, { insert: true });
  }
  return addNewFile(svc, f, q);
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
