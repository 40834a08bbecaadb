// Mutating file operations on the metadata path, plus export and labels; parents/children edits.
import {
  FOLDER_MIME,
  isWorkspaceDocument,
  type LabelField,
  type ModifyLabelsRequest,
} from '../../../shared/wire/storage';
import { putOwn } from '../../../shared/wire/ownKeys';
import { ApiError, badRequest, forbidden, notFound, required } from '../errors';
import { convert, EXPORT_LIMIT_BYTES, exportTargets } from '../exports';
import { applyMetadata, applyModifiedDate, copyFile, createFile, type FileBody } from '../fileOps';
import { checkParents, deleteTree, moveFile, requireOwner, trash, untrash } from '../filePlacement';
import { paginate } from '../paging';
import { boolParam, intParam, requiredParam } from '../params';
import { renderChild, renderCreatedFile, renderFile, renderParent } from '../render';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';
import type { StoredFile } from '../model';

async function body(ctx: RequestContext): Promise<FileBody> {
  return (await readResource<FileBody>(ctx.req, 'File')) ?? {};
}

const supports = (q: URLSearchParams) =>
  boolParam(q, 'supportsAllDrives', false) || boolParam(q, 'supportsTeamDrives', false);

/** Shared-drive items need supportsAllDrives=true, otherwise they do not exist for the caller. */
function target(ctx: RequestContext, svc: StorageService, write: boolean): StoredFile {
  const f = write ? svc.writableFile(ctx.params.fileId) : svc.visibleFile(ctx.params.fileId);
  if (f.driveId && !supports(ctx.query) && f.id !== f.driveId) throw notFound('File', ctx.params.fileId);
  return f;
}

async function insert(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = createFile(svc, ctx.query, await body(ctx));
  return { status: 200, json: renderCreatedFile(svc.store, ctx.base, f) };
}

async function patchOrUpdate(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const b = await body(ctx);
  const f = target(ctx, svc, true);
  svc.checkFileIfMatch(ctx, f);
  const changed = applyMetadata(svc, f, b);
  moveFile(svc, f, ctx.query, b);
  applyModifiedDate(svc, f, ctx.query, b, changed);
  if (boolParam(ctx.query, 'updateViewedDate', true)) f.lastViewedByMeDate = svc.store.nowIso();
  svc.store.touchFile(f);
  return { status: 200, json: renderFile(svc.store, ctx.base, f) };
}

async function copy(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const src = target(ctx, svc, false);
  const f = copyFile(svc, src, ctx.query, await body(ctx));
  return { status: 200, json: renderCreatedFile(svc.store, ctx.base, f) };
}

function remove(ctx: RequestContext, svc: StorageService): Reply {
  const f = target(ctx, svc, false);
  if (f.id === svc.store.state.rootId) throw forbidden('cannotDeleteRoot', 'The root folder cannot be deleted.');
  requireOwner(svc, f, 'delete');
  svc.checkFileIfMatch(ctx, f);
  deleteTree(svc, f);
  return { status: 204, empty: true };
}

function trashOne(ctx: RequestContext, svc: StorageService): Reply {
  const f = target(ctx, svc, false);
  requireOwner(svc, f, 'trash');
  svc.checkFileIfMatch(ctx, f);
  if (!f.trashed || !f.explicitlyTrashed) trash(svc, f);
  return { status: 200, json: renderFile(svc.store, ctx.base, f) };
}

function untrashOne(ctx: RequestContext, svc: StorageService): Reply {
  const f = target(ctx, svc, false);
  requireOwner(svc, f, 'trash');
  svc.checkFileIfMatch(ctx, f);
  if (f.trashed) untrash(svc, f);
  return { status: 200, json: renderFile(svc.store, ctx.base, f) };
}

function emptyTrash(ctx: RequestContext, svc: StorageService): Reply {
  const driveId = ctx.query.get('driveId') ?? undefined;
  const s = svc.store.state;
  if (driveId && !s.drives[driveId]) throw notFound('Shared drive', driveId);
  if (driveId && !s.drives[driveId].organizerIds.includes(s.meId))
    throw forbidden('insufficientFilePermissions', 'Only organizers can empty the trash of a shared drive.');
  const doomed = Object.values(s.files).filter(
    (f) => f.explicitlyTrashed && (driveId ? f.driveId === driveId : !f.driveId && f.ownerId === s.meId),
  );
  for (const f of doomed) if (s.files[f.id]) deleteTree(svc, f);
  return { status: 204, empty: true };
}

function touch(ctx: RequestContext, svc: StorageService): Reply {
  const f = target(ctx, svc, true);
  const now = svc.store.nowIso();
  f.modifiedDate = now;
  f.modifiedByMeDate = now;
  f.lastModifyingUserId = svc.store.state.meId;
  svc.store.touchFile(f);
  return { status: 200, json: renderFile(svc.store, ctx.base, f) };
}

function exportFile(ctx: RequestContext, svc: StorageService): Reply {
  const mimeType = requiredParam(ctx.query, 'mimeType');
  const f = target(ctx, svc, false);
  if (!isWorkspaceDocument(f)) throw forbidden('fileNotExportable', 'Export only supports Docs Editors files.');
  const bytes = convert(
    f.mimeType,
    mimeType,
    f.content ? svc.store.blobs.readAll(f.content) : Buffer.alloc(0),
    f.title,
  );
  if (!bytes) {
    throw new ApiError(400, {
      domain: 'global',
      reason: 'badRequest',
      message: `The requested conversion is not supported. Targets for ${f.mimeType}: ${exportTargets(f.mimeType).join(', ')}.`,
      locationType: 'parameter',
      location: 'convertTo',
    });
  }
  if (bytes.length > EXPORT_LIMIT_BYTES)
    throw forbidden('exportSizeLimitExceeded', 'This file is too large to be exported.');
  return { status: 200, bytes, contentType: mimeType };
}

function listLabels(ctx: RequestContext, svc: StorageService): Reply {
  const f = target(ctx, svc, false);
  const max = intParam(ctx.query, 'maxResults', 100, 1, 100);
  const page = paginate(f.labels, ctx.query.get('pageToken'), max, `labels|${f.id}`);
  return {
    status: 200,
    json: {
      kind: 'drive#labelList',
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items.map((l) => ({ kind: 'drive#label', id: l.id, revisionId: l.revisionId, fields: l.fields })),
    },
  };
}

async function modifyLabels(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = target(ctx, svc, true);
  const b = (await readResource<ModifyLabelsRequest>(ctx.req, 'ModifyLabelsRequest')) ?? {};
  const modified = [];
  for (const m of b.labelModifications ?? []) {
    if (!m.labelId) throw required('labelModifications.labelId');
    const i = f.labels.findIndex((l) => l.id === m.labelId);
    if (m.removeLabel) {
      if (i >= 0) f.labels.splice(i, 1);
      modified.push({ kind: 'drive#label', id: m.labelId, revisionId: '0', fields: {} });
      continue;
    }
    const label = i >= 0 ? f.labels[i] : { id: m.labelId, revisionId: '1', fields: {} as Record<string, LabelField> };
    if (i < 0) f.labels.push(label);
    for (const fm of m.fieldModifications ?? []) {
      if (!fm.fieldId) throw required('fieldModifications.fieldId');
      if (fm.unsetValues) {
        delete label.fields[fm.fieldId];
        continue;
      }
      const field: LabelField = { kind: 'drive#labelField', id: fm.fieldId };
      if (fm.setTextValues) Object.assign(field, { valueType: 'text', text: fm.setTextValues });
      else if (fm.setIntegerValues) Object.assign(field, { valueType: 'integer', integer: fm.setIntegerValues });
      else if (fm.setDateValues) Object.assign(field, { valueType: 'dateString', dateString: fm.setDateValues });
      else if (fm.setSelectionValues)
        Object.assign(field, { valueType: 'selection', selection: fm.setSelectionValues });
      else if (fm.setUserValues)
        Object.assign(field, {
          valueType: 'user',
          user: fm.setUserValues.map((email) => ({ kind: 'drive#user', emailAddress: email })),
        });
      else throw badRequest(`Field modification of ${fm.fieldId} sets no value.`, 'fieldModifications', 'invalid');
      putOwn(label.fields, fm.fieldId, field);
    }
    label.revisionId = String(Number(label.revisionId) + 1);
    modified.push({ kind: 'drive#label', id: label.id, revisionId: label.revisionId, fields: label.fields });
  }
  svc.store.touchFile(f);
  return { status: 200, json: { kind: 'drive#modifyLabelsResponse', modifiedLabels: modified } };
}

// ---- parents and children: two views of the same parent set ----

async function parentsInsert(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = target(ctx, svc, true);
  const b = (await readResource<{ id?: string }>(ctx.req, 'ParentReference')) ?? {};
  if (!b.id) throw required('id');
  const pid = addParent(svc, f, b.id, supports(ctx.query));
  return { status: 200, json: renderParent(svc.store, ctx.base, f.id, pid) };
}

function addParent(svc: StorageService, f: StoredFile, parentId: string, supportsAll: boolean): string {
  const [pid] = checkParents(svc, [parentId], supportsAll || !!f.driveId).ids;
  if (f.parents.includes(pid)) return pid;
  if (f.mimeType === FOLDER_MIME && (pid === f.id || svc.store.ancestors(pid).has(f.id)))
    throw badRequest('A folder cannot be put into itself or its descendants.', 'id', 'invalidParent');
  const targetDrive = svc.store.state.files[pid].driveId;
  if (targetDrive || f.driveId)
    throw forbidden('teamDrivesParentLimit', 'A shared drive item must have exactly one parent.');
  svc.store.setParents(f, [...f.parents, pid]);
  svc.store.touchFile(f);
  return pid;
}

function removeParent(svc: StorageService, f: StoredFile, parentId: string): void {
  const pid = svc.store.resolveId(parentId);
  if (!f.parents.includes(pid)) throw notFound('Parent', parentId);
  svc.store.setParents(
    f,
    f.parents.filter((p) => p !== pid),
  );
  svc.store.touchFile(f);
}

function parentsDelete(ctx: RequestContext, svc: StorageService): Reply {
  const f = target(ctx, svc, true);
  removeParent(svc, f, ctx.params.parentId);
  return { status: 204, empty: true };
}

async function childrenInsert(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const folder = svc.visibleFile(ctx.params.folderId);
  const b = (await readResource<{ id?: string }>(ctx.req, 'ChildReference')) ?? {};
  if (!b.id) throw required('id');
  const child = svc.writableFile(b.id);
  addParent(svc, child, folder.id, supports(ctx.query));
  return { status: 200, json: renderChild(ctx.base, folder.id, child.id) };
}

function childrenDelete(ctx: RequestContext, svc: StorageService): Reply {
  const { folder, child } = svc.visibleChild(ctx.params.folderId, ctx.params.childId);
  svc.writableFile(child.id);
  removeParent(svc, child, folder.id);
  return { status: 204, empty: true };
}

export function registerFileRoutes(r: Router<StorageService>): void {
  r.add('POST', 'files', insert);
  r.add('PATCH', 'files/{fileId}', patchOrUpdate);
  r.add('PUT', 'files/{fileId}', patchOrUpdate);
  r.add('POST', 'files/{fileId}/copy', copy);
  r.add('DELETE', 'files/{fileId}', remove);
  r.add('DELETE', 'files/trash', emptyTrash);
  r.add('POST', 'files/{fileId}/trash', trashOne);
  r.add('POST', 'files/{fileId}/untrash', untrashOne);
  r.add('POST', 'files/{fileId}/touch', touch);
  r.add('GET', 'files/{fileId}/export', exportFile);
  r.add('GET', 'files/{fileId}/listLabels', listLabels);
  r.add('POST', 'files/{fileId}/modifyLabels', modifyLabels);
  r.add('POST', 'files/{fileId}/parents', parentsInsert);
  r.add('DELETE', 'files/{fileId}/parents/{parentId}', parentsDelete);
  r.add('POST', 'files/{folderId}/children', childrenInsert);
  r.add('DELETE', 'files/{folderId}/children/{childId}', childrenDelete);
}
