// What the chat's code blocks and export menu do in the editor.
import * as vscode from 'vscode';
import type { Conversation } from '../core/conversation';
import { exportContent, exportFileName, type ExportFormat } from '../core/export';
import { languageId } from '../core/fileKinds';

export async function insertCode(code: string): Promise<void> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open an editor to insert the code into.'));
    return;
  }
  await editor.edit((b) => {
    for (const sel of editor.selections) b.replace(sel, code);
  });
}

export async function openAsNewFile(code: string, fence: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ content: code, language: languageId(fence) });
  await vscode.window.showTextDocument(doc);
}

/** Asks where to save the conversation (Markdown or JSON), writes it, and offers to open it. */
export async function exportConversation(conversation: Conversation, format: ExportFormat): Promise<void> {
  const name = exportFileName(conversation.title, format);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export chat "{0}"', conversation.title),
    saveLabel: vscode.l10n.t('Export'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: format === 'markdown' ? { [vscode.l10n.t('Markdown')]: ['md'] } : { [vscode.l10n.t('JSON')]: ['json'] },
  });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(exportContent(conversation, format)));
  } catch (e) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The chat could not be exported: {0}', e instanceof Error ? e.message : String(e)),
    );
    return;
  }
  const open = vscode.l10n.t('Open');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Chat exported to {0}.', vscode.workspace.asRelativePath(target)),
    open,
  );
  if (choice === open) await vscode.window.showTextDocument(target);
}

export async function copyCode(code: string): Promise<void> {
  await vscode.env.clipboard.writeText(code);
  vscode.window.setStatusBarMessage('Code copied', 2000);
}

export async function openLink(href: string): Promise<void> {
  if (/^(https?|mailto):/i.test(href)) await vscode.env.openExternal(vscode.Uri.parse(href));
}
