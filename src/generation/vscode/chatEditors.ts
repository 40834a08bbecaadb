// The chat as editor tabs: one WebviewPanel per conversation (opening a conversation that has a tab
// reveals it), titled after the conversation, restored after a window reload by the serializer
// (the page keeps its conversation id in its webview state).
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import type { ChatSession } from '../core/chatSession';
import type { ChatSessions } from '../core/chatSessions';
import { CHAT_PANEL_VIEW_TYPE, type ChatPanelState } from '../protocol';
import { ChatView, type ChatPageOptions } from './chatView';
import { panelInPlaceOf, PanelTabs, TAB_PANEL_OPTIONS } from '../../platform/panelTabs';
import { panelFrame } from '../../platform/webviewPage';

export interface ChatEditor {
  /** The tab's panel (a new one when the page watchdog replaced a blank one). */
  panel: vscode.WebviewPanel;
  readonly chat: ChatView;
}

function conversationIdOf(state: unknown): string | undefined {
  const id = state && typeof state === 'object' ? (state as ChatPanelState).conversationId : undefined;
  return typeof id === 'string' && id ? id : undefined;
}

export class ChatEditors implements vscode.Disposable {
  /** The open tabs, and the one last focused, so commands without a target act on it. */
  private readonly tabs: PanelTabs<ChatEditor>;
  /** Test mode only: how the next tab's page loads (a shorter watchdog wait, loads whose ready goes unheard). */
  nextPage: Pick<ChatPageOptions, 'readyMs' | 'silentLoads'> | undefined;

  constructor(
    private readonly services: WorkbenchServices,
    private readonly sessions: ChatSessions,
  ) {
    const icon = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'icons', 'workbench.svg');
    this.tabs = new PanelTabs<ChatEditor>(icon, (editor) => editor.chat.dispose());
  }

  private get editors(): Set<ChatEditor> {
    return this.tabs.open;
  }

  dispose(): void {
    for (const e of [...this.editors]) e.panel.dispose();
  }

  /** The tab showing a conversation, if any. */
  find(conversationId: string): ChatEditor | undefined {
    return [...this.editors].find((e) => e.chat.current.conversation.id === conversationId);
  }

  /** The tab of a panel. */
  of(panel: vscode.WebviewPanel): ChatEditor | undefined {
    return [...this.editors].find((e) => e.panel === panel);
  }

  get active(): ChatEditor | undefined {
    return [...this.editors].find((e) => e.panel.active) ?? this.tabs.lastActive;
  }

  /** Every open chat tab's view. */
  get views(): ChatView[] {
    return [...this.editors].map((e) => e.chat);
  }

  get count(): number {
    return this.editors.size;
  }

  /** Opens a conversation (a new one when none is named) in a tab, or reveals the tab that has it. */
  async open(conversationId?: string): Promise<ChatEditor> {
    const existing = conversationId ? this.find(conversationId) : undefined;
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn);
      await existing.chat.whenReady();
      return existing;
    }
    const session = (conversationId && this.sessions.acquire(conversationId)) || this.sessions.create();
    const panel = vscode.window.createWebviewPanel(
      CHAT_PANEL_VIEW_TYPE,
      session.conversation.title,
      vscode.ViewColumn.Active,
      TAB_PANEL_OPTIONS,
    );
    const editor = this.adopt(panel, session);
    await editor.chat.whenReady();
    return editor;
  }

  /** The serializer's half: shows a tab VS Code restored after a reload with the conversation it showed. */
  deserialize(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = conversationIdOf(state);
    // A conversation deleted meanwhile (or never sent) comes back as a new chat rather than an empty tab.
    const session = (id && !this.find(id) && this.sessions.acquire(id)) || this.sessions.create();
    this.adopt(panel, session);
    return Promise.resolve();
  }

  private adopt(panel: vscode.WebviewPanel, session: ChatSession): ChatEditor {
    // The editor's panel (it names its title as it is made, before the editor is complete).
    const place = { panel };
    const chat = new ChatView(this.services, this.sessions, session, {
      surface: 'editor',
      onTitle: (title) => (place.panel.title = title),
      openElsewhere: (id) => {
        const other = this.find(id);
        if (!other || other === editor) return false;
        other.panel.reveal(other.panel.viewColumn);
        return true;
      },
    });
    const editor: ChatEditor = Object.assign(place, { chat });
    this.attach(editor, panel, this.nextPage);
    this.nextPage = undefined;
    return editor;
  }

  /** Shows the tab's chat in `panel` and follows the panel's focus and closing. */
  private attach(editor: ChatEditor, panel: vscode.WebviewPanel, page?: ChatPageOptions): void {
    editor.panel = panel;
    editor.chat.bind(panelFrame(panel), { ...page, replace: (carried) => this.replace(editor, carried) });
    this.tabs.follow(editor, panel);
    if (panel.active) this.tabs.lastActive = editor;
  }

  /**
   * A tab whose page stayed blank through the watchdog's reloads: the same chat in a new panel in its place (a
   * new webview host frame), the old panel closed. Whoever waits for the tab's page waits for the new one.
   */
  private replace(editor: ChatEditor, carried: ChatPageOptions): void {
    const old = editor.panel;
    const next = panelInPlaceOf(old, CHAT_PANEL_VIEW_TYPE, TAB_PANEL_OPTIONS, vscode.ViewColumn.Active);
    this.attach(editor, next, carried);
    old.dispose();
  }
}
