// Comments and replies of `store:` documents through VS Code's Comments API: threads load when a
// document opens; add, reply, edit, resolve/reopen and delete map to comments.* and replies.*.
import * as vscode from 'vscode';
import type { Comment as StoreComment, CommentReply, File } from '../../shared/wire/storage';
import type { StorageClient } from '../core/client';
import { STORE_SCHEME } from './fileSystemProvider';
import type { StoreFileSystemProvider } from './fileSystemProvider';
import { registerCommand } from '../../platform/lazy/commandTable';

export const COMMENT_CONTROLLER_ID = 'apiWorkbench.storage.comments';

class StoreNote implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  savedBody: string | vscode.MarkdownString;
  constructor(
    public body: string | vscode.MarkdownString,
    public author: vscode.CommentAuthorInformation,
    readonly fileId: string,
    readonly commentId: string,
    /** Set for replies; the thread's first comment has none. */
    readonly replyId: string | undefined,
    public contextValue: string,
    public timestamp?: Date,
    public parent?: vscode.CommentThread,
  ) {
    this.savedBody = body;
  }
}

interface ThreadState {
  fileId: string;
  commentId?: string;
}

export class StoreComments implements vscode.Disposable {
  readonly controller: vscode.CommentController;
  private readonly threads = new Map<string, vscode.CommentThread[]>();
  private readonly state = new WeakMap<vscode.CommentThread, ThreadState>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly client: () => Promise<StorageClient>,
    private readonly fsp: StoreFileSystemProvider,
    testSeams = false,
  ) {
    this.controller = vscode.comments.createCommentController(COMMENT_CONTROLLER_ID, 'Storage comments');
    this.controller.options = { prompt: 'Add a comment', placeHolder: 'Comment on this file' };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (doc) =>
        doc.uri.scheme === STORE_SCHEME ? [new vscode.Range(0, 0, Math.max(0, doc.lineCount - 1), 0)] : undefined,
    };
    this.disposables.push(
      this.controller,
      vscode.workspace.onDidOpenTextDocument((d) => void this.load(d).catch(() => undefined)),
      vscode.workspace.onDidCloseTextDocument((d) => this.clear(d.uri)),
      registerCommand('apiWorkbench.storage.comment.create', (reply: vscode.CommentReply) => this.create(reply)),
      registerCommand('apiWorkbench.storage.comment.resolve', (thread: vscode.CommentThread) =>
        this.setStatus(thread, 'resolve'),
      ),
      registerCommand('apiWorkbench.storage.comment.reopen', (thread: vscode.CommentThread) =>
        this.setStatus(thread, 'reopen'),
      ),
      registerCommand('apiWorkbench.storage.comment.delete', (note: StoreNote) => this.remove(note)),
      registerCommand('apiWorkbench.storage.comment.edit', (note: StoreNote) =>
        this.setMode(note, vscode.CommentMode.Editing),
      ),
      registerCommand('apiWorkbench.storage.comment.cancel', (note: StoreNote) => {
        note.body = note.savedBody;
        this.setMode(note, vscode.CommentMode.Preview);
      }),
      registerCommand('apiWorkbench.storage.comment.save', (note: StoreNote) => this.save(note)),
    );
    // Test hooks (only under test; dropped from the production build): plain data of the threads of a
    // document, and comment actions without the UI.
    if (__TEST_SEAMS__ && testSeams)
      this.disposables.push(
        registerCommand('apiWorkbench.storage._testComments', async (uri: vscode.Uri) => {
          const doc = await vscode.workspace.openTextDocument(uri);
          await this.load(doc);
          return (this.threads.get(uri.toString()) ?? []).map((t) => ({
            line: t.range?.start.line,
            state: t.state === vscode.CommentThreadState.Resolved ? 'resolved' : 'open',
            comments: t.comments.map((c) => ({
              body: typeof c.body === 'string' ? c.body : c.body.value,
              author: c.author.name,
              contextValue: c.contextValue,
            })),
          }));
        }),
        registerCommand(
          'apiWorkbench.storage._testAddComment',
          async (uri: vscode.Uri, text: string, line: number = 0, replyToIndex?: number) => {
            const doc = await vscode.workspace.openTextDocument(uri);
            await this.load(doc);
            const existing = replyToIndex !== undefined ? this.threads.get(uri.toString())?.[replyToIndex] : undefined;
            const thread = existing ?? this.controller.createCommentThread(uri, new vscode.Range(line, 0, line, 0), []);
            await this.create({ thread, text });
          },
        ),
        registerCommand('apiWorkbench.storage._testResolve', async (uri: vscode.Uri, index: number) => {
          const t = this.threads.get(uri.toString())?.[index];
          if (t) await this.setStatus(t, 'resolve');
        }),
      );
    for (const d of vscode.workspace.textDocuments) void this.load(d).catch(() => undefined);
  }

  async load(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme !== STORE_SCHEME) return;
    const file = (await (await this.fsp.fsFor(doc.uri)).stat(doc.uri.path)).file;
    if (!file.id) return;
    const client = await this.client();
    const list = await client.call('comments.list', { fileId: file.id, maxResults: 100 });
    this.clear(doc.uri);
    const made: vscode.CommentThread[] = [];
    for (const c of list.items ?? []) made.push(this.threadFor(doc, file, c));
    this.threads.set(doc.uri.toString(), made);
  }

  private threadFor(doc: vscode.TextDocument, file: File, c: StoreComment): vscode.CommentThread {
    // Anchors are opaque; place the thread at the quoted text when it is in the document.
    const quoted = c.context?.value;
    let line = 0;
    if (quoted) {
      const at = doc.getText().indexOf(quoted);
      if (at >= 0) line = doc.positionAt(at).line;
    }
    const thread = this.controller.createCommentThread(doc.uri, new vscode.Range(line, 0, line, 0), []);
    thread.comments = [
      this.note(file.id!, c.commentId!, undefined, c.content ?? '', c.author, c.createdDate, thread),
      ...(c.replies ?? []).filter((r) => !r.deleted).map((r) => this.replyNote(file.id!, c.commentId!, r, thread)),
    ];
    thread.label = quoted ? `On "${quoted.slice(0, 40)}"` : undefined;
    thread.state = c.status === 'resolved' ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.contextValue = c.status === 'resolved' ? 'resolved' : 'open';
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    this.state.set(thread, { fileId: file.id!, commentId: c.commentId });
    return thread;
  }

  private note(
    fileId: string,
    commentId: string,
    replyId: string | undefined,
    text: string,
    author: { displayName?: string; isAuthenticatedUser?: boolean } | undefined,
    date: string | undefined,
    parent: vscode.CommentThread,
  ): StoreNote {
    return new StoreNote(
      new vscode.MarkdownString(text),
      { name: author?.displayName ?? 'Unknown' },
      fileId,
      commentId,
      replyId,
      author?.isAuthenticatedUser ? 'mine' : 'theirs',
      date ? new Date(date) : undefined,
      parent,
    );
  }

  private replyNote(fileId: string, commentId: string, r: CommentReply, thread: vscode.CommentThread): StoreNote {
    const text =
      r.verb && !r.content ? `_${r.verb === 'resolve' ? 'Marked as resolved' : 'Reopened'}_` : (r.content ?? '');
    return this.note(fileId, commentId, r.replyId, text, r.author, r.createdDate, thread);
  }

  private async create(reply: { thread: vscode.CommentThread; text: string }): Promise<void> {
    const thread = reply.thread;
    const client = await this.client();
    let st = this.state.get(thread);
    if (!st) {
      const file = (await (await this.fsp.fsFor(thread.uri)).stat(thread.uri.path)).file;
      st = { fileId: file.id! };
      this.state.set(thread, st);
    }
    if (!st.commentId) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === thread.uri.toString());
      const quoted = doc && thread.range ? doc.lineAt(thread.range.start.line).text.trim().slice(0, 200) : '';
      const c = await client.call(
        'comments.insert',
        { fileId: st.fileId },
        { content: reply.text, ...(quoted ? { context: { type: 'text/plain', value: quoted } } : {}) },
      );
      st.commentId = c.commentId;
      thread.comments = [
        this.note(st.fileId, c.commentId!, undefined, c.content ?? '', c.author, c.createdDate, thread),
      ];
      thread.contextValue = 'open';
      thread.state = vscode.CommentThreadState.Unresolved;
      const list = this.threads.get(thread.uri.toString()) ?? [];
      list.push(thread);
      this.threads.set(thread.uri.toString(), list);
      return;
    }
    const r = await client.call(
      'replies.insert',
      { fileId: st.fileId, commentId: st.commentId },
      { content: reply.text },
    );
    thread.comments = [...thread.comments, this.replyNote(st.fileId, st.commentId, r, thread)];
  }

  private async setStatus(thread: vscode.CommentThread, verb: 'resolve' | 'reopen'): Promise<void> {
    const st = this.state.get(thread);
    if (!st?.commentId) return;
    const r = await (
      await this.client()
    ).call('replies.insert', { fileId: st.fileId, commentId: st.commentId }, { verb });
    thread.comments = [...thread.comments, this.replyNote(st.fileId, st.commentId, r, thread)];
    thread.state = verb === 'resolve' ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.contextValue = verb === 'resolve' ? 'resolved' : 'open';
  }

  private async remove(note: StoreNote): Promise<void> {
    const client = await this.client();
    const thread = note.parent;
    if (note.replyId) {
      await client.call('replies.delete', { fileId: note.fileId, commentId: note.commentId, replyId: note.replyId });
      if (thread) thread.comments = thread.comments.filter((c) => c !== note);
      return;
    }
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete this comment and its replies?'),
      { modal: true },
      vscode.l10n.t('Delete'),
    );
    if (ok !== 'Delete') return;
    await client.call('comments.delete', { fileId: note.fileId, commentId: note.commentId });
    if (thread) {
      const list = this.threads.get(thread.uri.toString()) ?? [];
      this.threads.set(
        thread.uri.toString(),
        list.filter((t) => t !== thread),
      );
      thread.dispose();
    }
  }

  private async save(note: StoreNote): Promise<void> {
    const text = typeof note.body === 'string' ? note.body : note.body.value;
    const client = await this.client();
    if (note.replyId)
      await client.call(
        'replies.patch',
        { fileId: note.fileId, commentId: note.commentId, replyId: note.replyId },
        { content: text },
      );
    else await client.call('comments.patch', { fileId: note.fileId, commentId: note.commentId }, { content: text });
    note.savedBody = note.body;
    this.setMode(note, vscode.CommentMode.Preview);
  }

  private setMode(note: StoreNote, mode: vscode.CommentMode): void {
    const thread = note.parent;
    if (!thread) return;
    thread.comments = thread.comments.map((c) => {
      if (c === note) (c as StoreNote).mode = mode;
      return c;
    });
  }

  private clear(uri: vscode.Uri): void {
    for (const t of this.threads.get(uri.toString()) ?? []) t.dispose();
    this.threads.delete(uri.toString());
  }

  dispose(): void {
    for (const list of this.threads.values()) for (const t of list) t.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
