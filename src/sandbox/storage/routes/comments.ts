// Comments and replies. Deleting is soft (the item stays with deleted: true, visible with
// includeDeleted); a reply's verb "resolve"/"reopen" changes its comment's status.
import type { Comment, CommentReply } from '../../../shared/wire/storage';
import { badRequest, forbidden, notFound, required } from '../errors';
import type { StoredComment, StoredFile, StoredReply } from '../model';
import { makeId } from '../model';
import { paginate } from '../paging';
import { boolParam, intParam } from '../params';
import { renderComment, renderReply } from '../renderComments';
import { roleOf, canWrite } from '../access';
import type { Reply, RequestContext, Router } from '../router';
import type { StorageService } from '../service';
import { readResource } from '../body';

const MAX_CONTENT = 64 * 1024;

function commentable(svc: StorageService, fileId: string): StoredFile {
  const f = svc.visibleFile(fileId);
  const role = roleOf(svc.store, f);
  const commenter =
    canWrite(role) ||
    f.permissions.some((p) => p.id === svc.store.state.meId && p.additionalRoles.includes('commenter'));
  if (!commenter)
    throw forbidden('insufficientFilePermissions', 'The user does not have permission to comment on this file.');
  return f;
}

function comment(f: StoredFile, id: string, includeDeleted = true): StoredComment {
  const c = f.comments.find((x) => x.commentId === id);
  if (!c || (c.deleted && !includeDeleted)) throw notFound('Comment', id);
  return c;
}

function reply(c: StoredComment, id: string, includeDeleted = true): StoredReply {
  const r = c.replies.find((x) => x.replyId === id);
  if (!r || (r.deleted && !includeDeleted)) throw notFound('Reply', id);
  return r;
}

function content(value: unknown, field = 'content'): string {
  if (typeof value !== 'string' || value.trim() === '') throw required(field);
  if (value.length > MAX_CONTENT)
    throw badRequest(`The ${field} is longer than ${MAX_CONTENT} characters.`, field, 'invalid');
  return value;
}

function mustBeAuthor(svc: StorageService, authorId: string, what: string): void {
  if (authorId !== svc.store.state.meId)
    throw forbidden('insufficientFilePermissions', `Only the author can change this ${what}.`);
}

function list(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const includeDeleted = boolParam(ctx.query, 'includeDeleted', false);
  const max = intParam(ctx.query, 'maxResults', 20, 0, 100) || 20;
  const updatedMin = ctx.query.get('updatedMin');
  const since = updatedMin ? Date.parse(updatedMin) : undefined;
  if (updatedMin && Number.isNaN(since))
    throw badRequest('updatedMin is not an RFC 3339 date.', 'updatedMin', 'invalid');
  const all = f.comments
    .filter((c) => includeDeleted || !c.deleted)
    .filter((c) => since === undefined || Date.parse(c.modifiedDate) >= since)
    .sort((a, b) => b.modifiedDate.localeCompare(a.modifiedDate) || a.commentId.localeCompare(b.commentId));
  const page = paginate(all, ctx.query.get('pageToken'), max, `comments|${f.id}|${includeDeleted}|${updatedMin}`);
  return {
    status: 200,
    json: {
      kind: 'drive#commentList',
      selfLink: ctx.url.href,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items.map((c) => renderComment(ctx.base, svc.store, f, c, includeDeleted)),
    },
  };
}

function get(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const includeDeleted = boolParam(ctx.query, 'includeDeleted', false);
  return {
    status: 200,
    json: renderComment(ctx.base, svc.store, f, comment(f, ctx.params.commentId, includeDeleted), includeDeleted),
  };
}

async function insert(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = commentable(svc, ctx.params.fileId);
  const body = (await readResource<Comment>(ctx.req, 'Comment')) ?? {};
  const now = svc.store.nowIso();
  const c: StoredComment = {
    commentId: makeId(`comment:${f.id}`, f.comments.length + 1 + f.version, 20).slice(1),
    createdDate: now,
    modifiedDate: now,
    authorId: svc.store.state.meId,
    content: content(body.content),
    status: 'open',
    deleted: false,
    replies: [],
    ...(body.anchor ? { anchor: String(body.anchor) } : {}),
    ...(body.context ? { context: { type: body.context.type, value: body.context.value } } : {}),
  };
  f.comments.push(c);
  svc.store.touchFile(f);
  return { status: 200, json: renderComment(ctx.base, svc.store, f, c) };
}

async function change(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = svc.visibleFile(ctx.params.fileId);
  const c = comment(f, ctx.params.commentId, false);
  const body = (await readResource<Comment>(ctx.req, 'Comment')) ?? {};
  mustBeAuthor(svc, c.authorId, 'comment');
  c.content = content(body.content);
  if (body.status === 'resolved' || body.status === 'open') c.status = body.status;
  c.modifiedDate = svc.store.nowIso();
  svc.store.touchFile(f);
  return { status: 200, json: renderComment(ctx.base, svc.store, f, c) };
}

function remove(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const c = comment(f, ctx.params.commentId, false);
  const owner = roleOf(svc.store, f) === 'owner' || roleOf(svc.store, f) === 'organizer';
  if (!owner) mustBeAuthor(svc, c.authorId, 'comment');
  c.deleted = true;
  c.modifiedDate = svc.store.nowIso();
  svc.store.touchFile(f);
  return { status: 204, empty: true };
}

function replyList(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const c = comment(f, ctx.params.commentId);
  const includeDeleted = boolParam(ctx.query, 'includeDeleted', false);
  const max = intParam(ctx.query, 'maxResults', 20, 0, 100) || 20;
  const all = c.replies.filter((r) => includeDeleted || !r.deleted);
  const page = paginate(all, ctx.query.get('pageToken'), max, `replies|${f.id}|${c.commentId}|${includeDeleted}`);
  return {
    status: 200,
    json: {
      kind: 'drive#commentReplyList',
      selfLink: ctx.url.href,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items.map((r) => renderReply(svc.store, r)),
    },
  };
}

function replyGet(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const c = comment(f, ctx.params.commentId);
  return {
    status: 200,
    json: renderReply(svc.store, reply(c, ctx.params.replyId, boolParam(ctx.query, 'includeDeleted', false))),
  };
}

async function replyInsert(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = commentable(svc, ctx.params.fileId);
  const c = comment(f, ctx.params.commentId, false);
  const body = (await readResource<CommentReply>(ctx.req, 'CommentReply')) ?? {};
  const verb = body.verb;
  if (verb !== undefined && verb !== 'resolve' && verb !== 'reopen')
    throw badRequest(`Invalid verb ${verb}; use resolve or reopen.`, 'verb', 'invalid');
  const text = verb && (body.content === undefined || body.content === '') ? '' : content(body.content);
  const now = svc.store.nowIso();
  const r: StoredReply = {
    replyId: makeId(`reply:${c.commentId}`, c.replies.length + 1 + f.version, 20).slice(1),
    createdDate: now,
    modifiedDate: now,
    authorId: svc.store.state.meId,
    content: text,
    deleted: false,
    ...(verb ? { verb } : {}),
  };
  c.replies.push(r);
  if (verb === 'resolve') c.status = 'resolved';
  if (verb === 'reopen') c.status = 'open';
  c.modifiedDate = now;
  svc.store.touchFile(f);
  return { status: 200, json: renderReply(svc.store, r) };
}

async function replyChange(ctx: RequestContext, svc: StorageService): Promise<Reply> {
  const f = svc.visibleFile(ctx.params.fileId);
  const c = comment(f, ctx.params.commentId, false);
  const r = reply(c, ctx.params.replyId, false);
  mustBeAuthor(svc, r.authorId, 'reply');
  const body = (await readResource<CommentReply>(ctx.req, 'CommentReply')) ?? {};
  r.content = content(body.content);
  r.modifiedDate = svc.store.nowIso();
  c.modifiedDate = r.modifiedDate;
  svc.store.touchFile(f);
  return { status: 200, json: renderReply(svc.store, r) };
}

function replyDelete(ctx: RequestContext, svc: StorageService): Reply {
  const f = svc.visibleFile(ctx.params.fileId);
  const c = comment(f, ctx.params.commentId, false);
  const r = reply(c, ctx.params.replyId, false);
  const owner = roleOf(svc.store, f) === 'owner' || roleOf(svc.store, f) === 'organizer';
  if (!owner) mustBeAuthor(svc, r.authorId, 'reply');
  r.deleted = true;
  r.modifiedDate = svc.store.nowIso();
  svc.store.touchFile(f);
  return { status: 204, empty: true };
}

export function registerCommentRoutes(r: Router<StorageService>): void {
  r.add('GET', 'files/{fileId}/comments', list);
  r.add('POST', 'files/{fileId}/comments', insert);
  r.add('GET', 'files/{fileId}/comments/{commentId}', get);
  r.add('PATCH', 'files/{fileId}/comments/{commentId}', change);
  r.add('PUT', 'files/{fileId}/comments/{commentId}', change);
  r.add('DELETE', 'files/{fileId}/comments/{commentId}', remove);
  r.add('GET', 'files/{fileId}/comments/{commentId}/replies', replyList);
  r.add('POST', 'files/{fileId}/comments/{commentId}/replies', replyInsert);
  r.add('GET', 'files/{fileId}/comments/{commentId}/replies/{replyId}', replyGet);
  r.add('PATCH', 'files/{fileId}/comments/{commentId}/replies/{replyId}', replyChange);
  r.add('PUT', 'files/{fileId}/comments/{commentId}/replies/{replyId}', replyChange);
  r.add('DELETE', 'files/{fileId}/comments/{commentId}/replies/{replyId}', replyDelete);
}
