// What the chat's code blocks and export menu do in the editor.
import * as vscode from 'vscode';
import { toMarkdown, type Conversation } from '../core/conversation';

const LANGUAGE_ALIASES: Record<string, string> = {
  js: 'javascript',
  ts: 'typescript',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  yml: 'yaml',
  md: 'markdown',
};

/** A fence's info string as a VS Code language id. */
export function languageId(fence: string): string {
  const l = fence.toLowerCase();
  return LANGUAGE_ALIASES[l] ?? (l || 'plaintext');
}

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

export async function exportConversation(conversation: Conversation, format: 'markdown' | 'json'): Promise<void> {
  const content = format === 'markdown' ? toMarkdown(conversation) : JSON.stringify(conversation, null, 2);
  const doc = await vscode.workspace.openTextDocument({
    content,
    language: format === 'markdown' ? 'markdown' : 'json',
  });
  await vscode.window.showTextDocument(doc);
}

export async function copyCode(code: string): Promise<void> {
  await vscode.env.clipboard.writeText(code);
  vscode.window.setStatusBarMessage('Code copied', 2000);
}

export async function openLink(href: string): Promise<void> {
  if (/^(https?|mailto):/i.test(href)) await vscode.env.openExternal(vscode.Uri.parse(href));
}
