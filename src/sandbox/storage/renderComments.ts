// Stored comments and replies → wire resources. A deleted comment or reply renders with its text
// blanked; deleted replies are left out unless asked for. htmlContent is the text escaped, with <br>.
import type * as W from '../../shared/wire/storage';
import type { Store, StoredComment, StoredFile, StoredReply } from './model';
import { apiUrl, renderUser, type LinkBase } from './render';

export function renderReply(store: Store, r: StoredReply): W.CommentReply {
  return {
    kind: 'drive#commentReply',
    replyId: r.replyId,
    createdDate: r.createdDate,
    modifiedDate: r.modifiedDate,
    author: renderUser(store, r.authorId),
    content: r.deleted ? '' : r.content,
    htmlContent: r.deleted ? '' : htmlOf(r.content),
    deleted: r.deleted,
    ...(r.verb ? { verb: r.verb } : {}),
  };
}

export function renderComment(
  base: LinkBase,
  store: Store,
  f: StoredFile,
  c: StoredComment,
  includeDeleted = false,
): W.Comment {
  return {
    kind: 'drive#comment',
    commentId: c.commentId,
    fileId: f.id,
    fileTitle: f.title,
    selfLink: apiUrl(base, `files/${f.id}/comments/${c.commentId}`),
    createdDate: c.createdDate,
    modifiedDate: c.modifiedDate,
    author: renderUser(store, c.authorId),
    content: c.deleted ? '' : c.content,
    htmlContent: c.deleted ? '' : htmlOf(c.content),
    deleted: c.deleted,
    status: c.status,
    ...(c.anchor ? { anchor: c.anchor } : {}),
    ...(c.context ? { context: { ...c.context } } : {}),
    replies: c.replies.filter((r) => includeDeleted || !r.deleted).map((r) => renderReply(store, r)),
  };
}

function htmlOf(text: string): string {
  return text
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
    .replace(/\n/g, '<br>');
}
