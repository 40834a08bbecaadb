// Revisions of a file's content: listing, pinning and publishing, deleting all but the head.
import { FOLDER_MIME, SHORTCUT_MIME, isWorkspaceDocument, type Revision } from '../../../shared/wire/storage';
import { ApiError, badRequest, forbidden, notFound } from '../errors';
import type { StoredFile } from '../model';
import { paginate } from '../paging';
import { intParam } from '../params';
import { renderRevision } from '../render';
import { canWrite, roleOf } from '../access';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';

function revisionable(svc: StorageService, fileId: string, write: boolean): StoredFile {
  const f = write ? svc.writableFile(fileId) : svc.visibleFile(fileId);
  if (f.mimeType === FOLDER_MIME || f.mimeType === SHORTCUT_MIME)
    throw forbidden('revisionsNotSupported', 'Folders and shortcuts have no revisions.');
  if (!canWrite(roleOf(svc.store, f)))
    throw forbidden(
      'insufficientFilePermissions',
      'The user does not have sufficient permissions to read revisions of this file.',
    );
  return f;
}

function revision(f: StoredFile, id: string) {
  const r = id === 'head' ? f.revisions[f.revisions.length - 1] : f.revisions.find((x) => x.id === id);
  if (!r) throw notFound('Revision', id);
  return r;
}

function listRevisions(ctx: RequestContext, svc: StorageService): Reply {
  const f = revisionable(svc, ctx.params.fileId, false);
  const max = intParam(ctx.query, 'maxResults', 200, 1, 1000);
  const page = paginate(f.revisions, ctx.query.get('pageToken'), max, `revisions|${f.id}`);
  return {
    status: 200,
    json: {
      kind: 'drive#revisionList',
      etag: `"${f.version}"`,
      selfLink: ctx.url.href,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items.map((r) => renderRevision(ctx.base, svc.store, f, r)),
    },
  };
}

function getRevision(ctx: RequestContext, svc: StorageService): Reply {
  const f = revisionable(svc, ctx.params.fileId, false);
  return { status: 200, json: renderRevision(ctx.base, svc.store, f, revision(f, ctx.params.revisionId)) };
}

async function changeRevision(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = revisionable(svc, ctx.params.fileId, true);
  const r = revision(f, ctx.params.revisionId);
  const b = (await readResource<Revision>(ctx.req, 'Revision')) ?? {};
  const doc = isWorkspaceDocument(f);
  if (b.pinned !== undefined) {
    if (doc) throw badRequest('Workspace document revisions cannot be pinned.', 'revision.pinned', 'invalid');
    r.pinned = !!b.pinned;
  }
  for (const k of ['published', 'publishAuto', 'publishedOutsideDomain'] as const) {
    if (b[k] === undefined) continue;
    if (!doc) throw badRequest(`Only workspace document revisions can set ${k}.`, `revision.${k}`, 'invalid');
    r[k] = !!b[k];
  }
  svc.store.touchFile(f);
  return { status: 200, json: renderRevision(ctx.base, svc.store, f, r) };
}

function deleteRevision(ctx: RequestContext, svc: StorageService): Reply {
  const f = revisionable(svc, ctx.params.fileId, true);
  const r = revision(f, ctx.params.revisionId);
  if (isWorkspaceDocument(f))
    throw forbidden('revisionDeletionNotSupported', 'Revisions of workspace documents cannot be deleted.');
  if (r === f.revisions[f.revisions.length - 1])
    throw new ApiError(400, {
      domain: 'global',
      reason: 'cannotDeleteHeadRevision',
      message: 'The current revision of a file cannot be deleted.',
      locationType: 'parameter',
      location: 'revisionId',
    });
  f.revisions = f.revisions.filter((x) => x !== r);
  svc.store.touchFile(f);
  return { status: 204, empty: true };
}

export function registerRevisionRoutes(r: Router<StorageService>): void {
  r.add('GET', 'files/{fileId}/revisions', listRevisions);
  r.add('GET', 'files/{fileId}/revisions/{revisionId}', getRevision);
  r.add('PATCH', 'files/{fileId}/revisions/{revisionId}', changeRevision);
  r.add('PUT', 'files/{fileId}/revisions/{revisionId}', changeRevision);
  r.add('DELETE', 'files/{fileId}/revisions/{revisionId}', deleteRevision);
}
