// Registers the generation panel and its commands. The internal `_test*` commands let host
// tests drive the panel and read back what the webview reported rendering; they exist only when
// VS Code runs the extension under test, and not at all in the production build.
import * as vscode from 'vscode';
import { credentialTarget } from '../../platform/endpoints';
import type { FeatureRegistration } from '../../platform/services';
import { originOf } from '../../shared/http';
import { GENERATION_VIEW_ID, type PanelSettings, type RenderedAck } from '../protocol';
import { GenerationPanel } from './panel';

export const register: FeatureRegistration = (services) => {
  const panel = new GenerationPanel(services);

  const finalAck = (turnId: string, timeoutMs?: number) =>
    panel.waitForAck((a) => a.turnId === turnId && a.state !== 'streaming', timeoutMs);

  return [
    panel,
    vscode.window.registerWebviewViewProvider(GENERATION_VIEW_ID, panel, {
      webviewOptions: { retainContextWhenHidden: true },
    }),
    vscode.commands.registerCommand('apiWorkbench.generation.open', () => panel.reveal()),
    vscode.commands.registerCommand('apiWorkbench.generation.setApiKey', async () => {
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
    vscode.commands.registerCommand('apiWorkbench.generation.clearApiKey', async () => {
      await services.secrets.delete('generation');
      void vscode.window.showInformationMessage(vscode.l10n.t('Generation API key removed.'));
    }),
    vscode.commands.registerCommand('apiWorkbench.generation.newChat', async () => {
      await panel.reveal();
      await panel.newChat();
    }),
    vscode.commands.registerCommand('apiWorkbench.generation.sendSelection', async () => {
      const editor = vscode.window.activeTextEditor;
      const text = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : undefined;
      if (!text) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Select some text to send to the model.'));
        return;
      }
      await panel.reveal();
      await panel.send(text);
    }),
    vscode.commands.registerCommand('apiWorkbench.generation.attachSelection', () => panel.attach('selection')),
    vscode.commands.registerCommand('apiWorkbench.generation.attachFile', () => panel.attach('activeFile')),
    vscode.commands.registerCommand('apiWorkbench.generation.exportMarkdown', () =>
      panel.exportConversation('markdown'),
    ),
    vscode.commands.registerCommand('apiWorkbench.generation.exportJson', () => panel.exportConversation('json')),

    // Internal, for host tests: drive the panel and read back what the webview rendered.
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test
      ? [
          vscode.commands.registerCommand(
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
          vscode.commands.registerCommand(
            'apiWorkbench.generation._testWaitRendered',
            (turnId: string, minLength = 1, timeoutMs?: number) =>
              panel.waitForAck(
                (a) => a.turnId === turnId && (a.textLength >= minLength || a.state !== 'streaming'),
                timeoutMs,
              ),
          ),
          vscode.commands.registerCommand(
            'apiWorkbench.generation._testWaitFinal',
            (turnId: string, timeoutMs?: number) => finalAck(turnId, timeoutMs),
          ),
          vscode.commands.registerCommand(
            'apiWorkbench.generation._testWaitNextFinal',
            (afterTurnId: string, timeoutMs?: number) =>
              panel.waitForAck(
                (a) => panel.turnIndex(a.turnId) > panel.turnIndex(afterTurnId) && a.state !== 'streaming',
                timeoutMs,
              ),
          ),
          vscode.commands.registerCommand(
            'apiWorkbench.generation._testSettings',
            (patch: Partial<PanelSettings> | null) => panel.updateSettings(patch),
          ),
          vscode.commands.registerCommand('apiWorkbench.generation._testStop', () => panel.stop()),
          vscode.commands.registerCommand('apiWorkbench.generation._testDecide', async (approve: boolean) => {
            const turnId = panel.lastTurnId;
            if (!turnId) return undefined;
            const next = await panel.decideCalls(turnId, approve);
            return next ? finalAck(next) : undefined;
          }),
          vscode.commands.registerCommand('apiWorkbench.generation._testNewChat', () => panel.newChat()),
          vscode.commands.registerCommand('apiWorkbench.generation._testReload', async () => {
            await panel.reload();
            const last = panel.lastTurnId;
            return last ? finalAck(last) : undefined;
          }),
          vscode.commands.registerCommand('apiWorkbench.generation._testLastRendered', () => panel.lastRendered),
        ]
      : []),
  ];
};
