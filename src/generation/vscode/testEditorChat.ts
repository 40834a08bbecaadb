// Internal, for host tests only (registered in ExtensionMode.Test and only where __TEST_SEAMS__):
// one command that drives the chat's editor tabs and reads back what their pages rendered.
import * as vscode from 'vscode';
import { CHAT_PANEL_VIEW_TYPE, type ChatPanelState, type RenderedAck } from '../protocol';
import type { ChatEditor, ChatEditors } from './chatEditors';
import { registerCommand } from '../../platform/lazy/commandTable';

export interface EditorChatInfo {
  conversationId: string;
  title: string;
  tabs: number;
  active: boolean;
  turnIds: string[];
}

type Op = 'info' | 'send' | 'resend' | 'rename' | 'reload';

function infoOf(editors: ChatEditors, e: ChatEditor): EditorChatInfo {
  const c = e.chat.current.conversation;
  return {
    conversationId: c.id,
    title: e.panel.title,
    tabs: editors.count,
    active: e.panel.active,
    turnIds: c.turns.map((t) => t.id),
  };
}

const finalAck = (e: ChatEditor, turnId: string) =>
  e.chat.waitForAck((a) => a.turnId === turnId && a.state !== 'streaming', 60_000);

export function editorChatTestCommand(
  editors: ChatEditors,
  deserialize: (panel: vscode.WebviewPanel, state: unknown) => Promise<void>,
): vscode.Disposable {
  return registerCommand(
    'apiWorkbench.generation._testEditorChat',
    async (op: Op, ...args: unknown[]): Promise<unknown> => {
      const e = editors.active;
      if (!e) throw new Error('No chat editor tab is open.');
      switch (op) {
        case 'info':
          return infoOf(editors, e);
        case 'send': {
          const turnId = await e.chat.send(String(args[0]));
          return turnId ? finalAck(e, turnId) : { problems: e.chat.lastProblems };
        }
        case 'resend': {
          const prompt = typeof args[1] === 'string' ? args[1] : undefined;
          const turnId = await e.chat.resend(String(args[0]), prompt, true);
          return turnId ? finalAck(e, turnId) : { problems: e.chat.lastProblems };
        }
        case 'rename':
          await e.chat.rename(String(args[0]));
          return infoOf(editors, e);
        case 'reload': {
          // What a window reload does to the tab: the page is gone, VS Code makes a new panel of the
          // same type and hands the serializer the state the page saved.
          const state: ChatPanelState = await e.chat.pageState();
          const column = e.panel.viewColumn;
          e.panel.dispose();
          const panel = vscode.window.createWebviewPanel(
            CHAT_PANEL_VIEW_TYPE,
            'Chat',
            column ?? vscode.ViewColumn.Active,
          );
          await deserialize(panel, state);
          const restored = editors.of(panel);
          if (!restored) throw new Error('The serializer did not restore the tab.');
          await restored.chat.whenReady();
          const last = restored.chat.current.conversation.turns.at(-1);
          const ack: RenderedAck | undefined = last ? await finalAck(restored, last.id) : undefined;
          return { state, info: infoOf(editors, restored), ack };
        }
      }
    },
  );
}

/**
 * The next chat tab's page loads silently: the first `silentLoads` loads' `ready` go unheard, as when VS Code
 * leaves the frame blank, and the page watchdog waits `readyMs` of visible time before setting it again.
 */
export function silentPageTestCommand(editors: ChatEditors): vscode.Disposable {
  return registerCommand('apiWorkbench.generation._testSilentPage', (silentLoads: unknown, readyMs: unknown) => {
    if (typeof silentLoads !== 'number' || typeof readyMs !== 'number')
      throw new Error('_testSilentPage takes the number of silent loads and the wait in ms.');
    editors.nextPage = { silentLoads, readyMs };
  });
}
