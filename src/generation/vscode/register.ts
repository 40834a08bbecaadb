// Registers the generation panel and its commands. The internal `_test*` commands let host
// tests drive the panel and read back what the webview reported rendering; they exist only when
// VS Code runs the extension under test, and not at all in the production build.
import * as vscode from 'vscode';
import { credentialTarget } from '../../platform/endpoints';
import type { FeatureRegistration } from '../../platform/services';
import { originOf } from '../../shared/http';
import { ChatSessions } from '../core/chatSessions';
import { ConversationStore } from '../core/conversation';
import { CHAT_PANEL_VIEW_TYPE, GENERATION_VIEW_ID, type PanelSettings, type RenderedAck } from '../protocol';
import { chatEnvironment } from './chatEnvironment';
import { ChatEditors } from './chatEditors';
import { GenerationPanel } from './panel';
import { PromptDiagnostics } from './promptDiagnostics';
import { registerPromptAssist } from './promptAssist';
import { PromptModels } from './promptModels';
import { PromptPreview } from './promptPreview';
import { PromptRunner, RUN_COMMAND } from './promptRun';
import { editorChatTestCommand, silentPageTestCommand } from './testEditorChat';
import { EvalGrids } from './evalGrids';
import { EVAL_GRID_VIEW_TYPE } from '../evalGridProtocol';
import { EvalRunner, RUN_EVAL_COMMAND, runRoot, type RunEvaluationOptions } from './evalRun';
import { evalGridTestCommands } from './testEvalGrid';
import { registerCommand } from '../../platform/lazy/commandTable';

let editors: ChatEditors | undefined;

/** The Run Evaluation command's options as given by a caller (anything else is ignored). */
function runOptions(v: unknown): RunEvaluationOptions {
  if (typeof v !== 'object' || v === null) return {};
  const o = v as Record<string, unknown>;
  return {
    dataset: o.dataset instanceof vscode.Uri ? o.dataset : undefined,
    models: Array.isArray(o.models) && o.models.every((m) => typeof m === 'string') ? o.models : undefined,
    resume: typeof o.resume === 'boolean' ? o.resume : undefined,
  };
}

/**
 * Restores a chat editor tab after a window reload. The serializer registered below calls it; a
 * lazy-loading entry's serializer shell can call it once `register` has run.
 */
export function deserializeChatPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
  if (!editors) return Promise.reject(new Error('The generation feature is not registered.'));
  return editors.deserialize(panel, state);
}

export const register: FeatureRegistration = (services, shell) => {
  const store = new ConversationStore(services.context.workspaceState);
  const sessions = new ChatSessions(store, chatEnvironment(services));
  const panel = new GenerationPanel(services, sessions);
  const chatEditors = new ChatEditors(services, sessions);
  editors = chatEditors;
  /** The chat a command acts on: the focused editor tab, else the side-bar view. */
  const target = () => chatEditors.active?.chat ?? panel.chat;

  const finalAck = (turnId: string, timeoutMs?: number) =>
    panel.waitForAck((a) => a.turnId === turnId && a.state !== 'streaming', timeoutMs);

  // The entry registered the view (retaining its context when hidden) and resolves it through the panel now.
  shell.webviewView(GENERATION_VIEW_ID, panel);
  // The entry registered the serializer (so a restored tab activates us); it hands restoring over now.
  shell.webviewPanelSerializer(CHAT_PANEL_VIEW_TYPE, {
    deserializeWebviewPanel: (webviewPanel, state) => deserializeChatPanel(webviewPanel, state),
  });
  const promptModels = new PromptModels(services);
  const promptPreview = new PromptPreview();
  const promptRunner = new PromptRunner(services);
  const grids: EvalGrids = new EvalGrids(services, {
    openInChat: async (meta, cell, results) => {
      const conversation = await evalRunner.conversationOf(meta, cell, runRoot(results));
      await store.save(conversation);
      await chatEditors.open(conversation.id);
    },
  });
  const evalRunner = new EvalRunner(services, () => grids);
  // The entry registered the grid's serializer too: a grid tab a reload brought back reopens its run.
  shell.webviewPanelSerializer(EVAL_GRID_VIEW_TYPE, {
    deserializeWebviewPanel: (webviewPanel, state) => grids.restore(webviewPanel, state),
  });
  return [
    panel,
    chatEditors,
    promptModels,
    new PromptDiagnostics(promptModels),
    registerPromptAssist(promptModels),
    promptPreview,
    promptRunner,
    registerCommand(RUN_COMMAND, (uri?: unknown) => promptRunner.run(uri instanceof vscode.Uri ? uri : undefined)),
    evalRunner,
    grids,
    registerCommand(RUN_EVAL_COMMAND, (uri?: unknown, opts?: unknown) =>
      evalRunner.run(uri instanceof vscode.Uri ? uri : undefined, runOptions(opts)),
    ),
    registerCommand('apiWorkbench.generation.openEvalRun', (uri?: unknown) =>
      uri instanceof vscode.Uri ? grids.openFile(uri.fsPath) : grids.pickAndOpen(),
    ),
    registerCommand('apiWorkbench.generation.compareEvalRun', async (uri?: unknown) => {
      const grid = grids.active;
      if (!grid) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Open an evaluation run first (Run Evaluation or Open Evaluation Run…).'),
        );
        return undefined;
      }
      return uri instanceof vscode.Uri ? grid.compareWith(uri.fsPath) : grid.pickEarlier();
    }),
    registerCommand('apiWorkbench.generation.previewPrompt', (uri?: unknown) =>
      promptPreview.show(uri instanceof vscode.Uri ? uri : undefined),
    ),
    { dispose: () => sessions.dispose() },
    { dispose: () => editors === chatEditors && (editors = undefined) },
    // The chats keep the model picked in their header; a newer change of the setting is the newer choice
    // (otherwise editing the setting after the header was once used changed nothing, silently).
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('apiWorkbench.generation.model')) return;
      const model = vscode.workspace.getConfiguration('apiWorkbench.generation').get<string>('model');
      if (!model) return;
      await panel.updateSettings({ model });
      await Promise.all(chatEditors.views.map((v) => v.updateSettings({ model })));
    }),
    registerCommand('apiWorkbench.generation.open', () => panel.reveal()),
    registerCommand('apiWorkbench.generation.openInEditor', async (conversationId?: unknown) => {
      await chatEditors.open(typeof conversationId === 'string' ? conversationId : panel.chat.current.conversation.id);
    }),
    registerCommand('apiWorkbench.generation.newChatInEditor', async () => {
      await chatEditors.open();
    }),
    registerCommand('apiWorkbench.generation.renameChat', () => target().rename()),
    registerCommand('apiWorkbench.generation.setApiKey', async () => {
      const origin = originOf(credentialTarget('generation'));
      const key = await vscode.window.showInputBox({
        title: vscode.l10n.t('Generation API key'),
        prompt: vscode.l10n.t(
          'For {0} only. Stored in VS Code secret storage; sent in the x-goog-api-key header.',
          origin,
        ),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'Enter a key'),
      });
      if (key === undefined) return;
      await services.secrets.set('generation', key.trim(), origin);
      void vscode.window.showInformationMessage(vscode.l10n.t('Generation API key saved.'));
    }),
    registerCommand('apiWorkbench.generation.clearApiKey', async () => {
      await services.secrets.delete('generation');
      void vscode.window.showInformationMessage(vscode.l10n.t('Generation API key removed.'));
    }),
    registerCommand('apiWorkbench.generation.newChat', async () => {
      await panel.reveal();
      await panel.newChat();
    }),
    registerCommand('apiWorkbench.generation.sendSelection', async () => {
      const editor = vscode.window.activeTextEditor;
      const text = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : undefined;
      if (!text) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Select some text to send to the model.'));
        return;
      }
      await panel.reveal();
      await panel.send(text);
    }),
    registerCommand('apiWorkbench.generation.attachSelection', () => panel.attach('selection')),
    registerCommand('apiWorkbench.generation.attachFile', () => panel.attach('activeFile')),
    registerCommand('apiWorkbench.generation.exportMarkdown', () => target().exportConversation('markdown')),
    registerCommand('apiWorkbench.generation.exportJson', () => target().exportConversation('json')),

    // Internal, for host tests: drive the panel and read back what the webview rendered.
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test
      ? [
          registerCommand(
            'apiWorkbench.generation._testSend',
            async (
              prompt: string,
              opts?: { wait?: boolean; timeoutMs?: number },
            ): Promise<RenderedAck | string | { problems: string[] }> => {
              await panel.reveal();
              const turnId = await panel.send(prompt);
              if (!turnId) return { problems: panel.lastProblems };
              if (opts?.wait === false) return turnId;
              return finalAck(turnId, opts?.timeoutMs);
            },
          ),
          registerCommand(
            'apiWorkbench.generation._testWaitRendered',
            (turnId: string, minLength = 1, timeoutMs?: number) =>
              panel.waitForAck(
                (a) => a.turnId === turnId && (a.textLength >= minLength || a.state !== 'streaming'),
                timeoutMs,
              ),
          ),
          registerCommand('apiWorkbench.generation._testWaitFinal', (turnId: string, timeoutMs?: number) =>
            finalAck(turnId, timeoutMs),
          ),
          registerCommand('apiWorkbench.generation._testWaitNextFinal', (afterTurnId: string, timeoutMs?: number) =>
            panel.waitForAck(
              (a) => panel.turnIndex(a.turnId) > panel.turnIndex(afterTurnId) && a.state !== 'streaming',
              timeoutMs,
            ),
          ),
          registerCommand('apiWorkbench.generation._testSettings', (patch: Partial<PanelSettings> | null) =>
            panel.updateSettings(patch),
          ),
          registerCommand('apiWorkbench.generation._testStop', () => panel.stop()),
          registerCommand('apiWorkbench.generation._testDecide', async (approve: boolean) => {
            const turnId = panel.lastTurnId;
            if (!turnId) return undefined;
            const next = await panel.decideCalls(turnId, approve);
            return next ? finalAck(next) : undefined;
          }),
          registerCommand('apiWorkbench.generation._testNewChat', () => panel.newChat()),
          registerCommand('apiWorkbench.generation._testReload', async () => {
            await panel.reload();
            const last = panel.lastTurnId;
            return last ? finalAck(last) : undefined;
          }),
          registerCommand('apiWorkbench.generation._testLastRendered', () => panel.lastRendered),
          editorChatTestCommand(chatEditors, deserializeChatPanel),
          silentPageTestCommand(chatEditors),
          ...evalGridTestCommands(grids, chatEditors),
        ]
      : []),
  ];
};
