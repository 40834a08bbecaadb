// Stored comments and replies → wire resources. A deleted comment or reply renders with its text
// blanked; deleted replies are left out unless asked for. htmlContent is the text escaped, with <br>.
import type * as W from '../../shared/wire/storage';
import type { Store, StoredComment, StoredFile, StoredReply } from './model';
import { apiUrl, renderUser, type LinkBase } from './render';

/** What a comment and a reply both show; a deleted one keeps its place but not its text. */
function renderPost(store: Store, p: StoredReply | StoredComment) {
  return {
    createdDate: p.createdDate,
    modifiedDate: p.modifiedDate,
    author: renderUser(store, p.authorId),
    content: p.deleted ? '' : p.content,
    htmlContent: p.deleted ? '' : htmlOf(p.content),
    deleted: p.deleted,
  };
}

export function renderReply(store: Store, r: StoredReply): W.CommentReply {
  return {
    kind: 'drive#commentReply',
    replyId: r.replyId,
    ...renderPost(store, r),
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
    ...renderPost(store, c),
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
