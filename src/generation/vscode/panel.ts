// The generation side-bar view: a WebviewViewProvider hosting one chat surface. It remembers which
// conversation it showed so a window reload reopens it; the commands reach the chat through it.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import type { ChatSession } from '../core/chatSession';
import type { ChatSessions } from '../core/chatSessions';
import { GENERATION_VIEW_ID, type PanelSettings, type RenderedAck } from '../protocol';
import type { AttachKind } from './attachments';
import { ChatView } from './chatView';
import { viewFrame } from '../../platform/webviewPage';

const CURRENT_KEY = 'apiWorkbench.generation.currentConversation';

export class GenerationPanel implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  readonly chat: ChatView;
  private readonly disposables: vscode.Disposable[] = [];

  /** `sessions` is shared with the editor tabs, so a conversation shown in both is one live session. */
  constructor(services: WorkbenchServices, sessions: ChatSessions) {
    const state = services.context.workspaceState;
    const id = state.get<string>(CURRENT_KEY);
    const session = (id && sessions.acquire(id)) || sessions.create();
    // The conversation shown from the start is remembered too, not only one picked later: a first chat's
    // prompts go into it, and after a reload the view must come back to it, not to a new chat.
    if (session.conversation.id !== id) void state.update(CURRENT_KEY, session.conversation.id);
    this.chat = new ChatView(services, sessions, session, {
      surface: 'view',
      onConversation: (c) => state.update(CURRENT_KEY, c),
      // The view's title bar names the conversation it shows.
      onTitle: (title) => {
        if (this.view) this.view.description = title;
      },
    });
  }

  dispose(): void {
    this.chat.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.description = this.chat.current.conversation.title;
    this.chat.bind(viewFrame(view));
    this.disposables.push(
      view.onDidDispose(() => {
        this.chat.unbind(view.webview);
        if (this.view === view) this.view = undefined;
      }),
    );
  }

  /** Brings the view up and waits until its page has loaded (a silent page is set again by its watchdog). */
  async reveal(): Promise<void> {
    if (!this.view) await vscode.commands.executeCommand(`${GENERATION_VIEW_ID}.focus`);
    else this.view.show(true);
    await this.chat.whenReady();
  }

  private get session(): ChatSession {
    return this.chat.current;
  }

  /** Sends a prompt; resolves with the new turn's id once it started, or undefined when refused (see lastProblems). */
  send(prompt: string): Promise<string | undefined> {
    return this.chat.send(prompt);
  }

  get lastProblems(): string[] {
    return this.chat.lastProblems;
  }

  stop(): void {
    this.session.stop();
  }

  newChat(): Promise<void> {
    return this.chat.newChat();
  }

  /** Drops everything held in memory and rebuilds the panel from workspace storage, like a window reload. */
  reload(): Promise<void> {
    return this.chat.reload();
  }

  /** Runs (or declines) the calls of a turn; resolves with the id of the turn that answers their results. */
  decideCalls(turnId: string, approve: boolean): Promise<string | undefined> {
    return this.session.decideCalls(turnId, approve);
  }

  updateSettings(patch: Partial<PanelSettings> | null): Promise<void> {
    return this.chat.updateSettings(patch);
  }

  attach(what: AttachKind): Promise<void> {
    return this.chat.attach(what);
  }

  exportConversation(format: 'markdown' | 'json'): Promise<void> {
    return this.chat.exportConversation(format);
  }

  get currentTurnId(): string | undefined {
    return this.session.runningTurnId;
  }

  get lastTurnId(): string | undefined {
    const turns = this.session.turns;
    return turns[turns.length - 1]?.id;
  }

  /** Position of a turn in the open conversation (-1 when it is not there). */
  turnIndex(id: string): number {
    return this.session.turns.findIndex((t) => t.id === id);
  }

  waitForAck(match: (a: RenderedAck) => boolean, timeoutMs?: number): Promise<RenderedAck> {
    return this.chat.waitForAck(match, timeoutMs);
  }

  get lastRendered(): RenderedAck | undefined {
    return this.chat.lastRendered;
  }
}
