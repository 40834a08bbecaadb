// Context for the next prompt, gathered from the editor and the file system: the selection, the
// active file, workspace files as text, images inline up to 4 MiB and through the Files API beyond.
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import type { Part } from '../../shared/wire/generation';
import type { Attachment } from '../core/chatTypes';
import { fileDataPart, uploadFile, waitForActive } from '../core/files';
import { IMAGE_EXTENSIONS, imageMimeType } from '../core/fileKinds';
import { keyInQuery } from './chatEnvironment';

/** Images up to this size travel inline; larger ones go through the Files API. */
const INLINE_LIMIT_BYTES = 4 * 1024 * 1024;

export type AttachKind = 'selection' | 'activeFile' | 'files' | 'image';

function fenced(label: string, language: string, text: string): Part {
  return { text: `Context (${label}):\n\`\`\`${language}\n${text}\n\`\`\`` };
}

/** Asks for what to attach (an open dialog for files and images); empty when there is nothing or the user cancelled. */
export async function pickAttachments(services: WorkbenchServices, what: AttachKind): Promise<Attachment[]> {
  if (what === 'selection' || what === 'activeFile') {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No active editor to attach from.'));
      return [];
    }
    const rel = vscode.workspace.asRelativePath(editor.document.uri);
    const selected = what === 'selection' && !editor.selection.isEmpty;
    const label = selected ? `selection of ${rel}` : rel;
    const text = selected ? editor.document.getText(editor.selection) : editor.document.getText();
    return [{ label, parts: [fenced(label, editor.document.languageId, text)] }];
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: what === 'files',
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    filters: what === 'image' ? { Images: IMAGE_EXTENSIONS } : undefined,
  });
  const out: Attachment[] = [];
  for (const uri of picked ?? []) {
    const bytes = await vscode.workspace.fs.readFile(uri);
    const rel = vscode.workspace.asRelativePath(uri);
    if (what !== 'image') {
      out.push({ label: rel, parts: [fenced(rel, '', Buffer.from(bytes).toString('utf8'))] });
      continue;
    }
    const mimeType = imageMimeType(uri.path);
    if (!mimeType) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} is not a PNG, JPEG, WebP or GIF image.', rel));
      continue;
    }
    if (bytes.length <= INLINE_LIMIT_BYTES) {
      out.push({ label: rel, parts: [{ inlineData: { mimeType, data: Buffer.from(bytes).toString('base64') } }] });
      continue;
    }
    const part = await uploadLarge(services, bytes, mimeType, rel);
    if (part) out.push({ label: `${rel} (uploaded)`, parts: [part] });
  }
  return out;
}

/** Files API upload with a progress notification, then waits until the file is ACTIVE. */
async function uploadLarge(
  services: WorkbenchServices,
  bytes: Uint8Array,
  mimeType: string,
  label: string,
): Promise<Part | undefined> {
  const ep = await services.endpoints.resolve('generation');
  if (!ep.credential) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Set a generation API key before uploading files.'));
    return undefined;
  }
  const conn = { baseUrl: ep.baseUrl, apiKey: ep.credential, keyInQuery: keyInQuery() };
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Uploading {0}', label), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        let reported = 0;
        const up = await uploadFile({
          ...conn,
          data: bytes,
          mimeType,
          displayName: label,
          signal: controller.signal,
          onProgress: (sent, total) => {
            const pct = total ? Math.floor((sent / total) * 90) : 90;
            progress.report({
              increment: pct - reported,
              message: `${Math.round(sent / 1024)} of ${Math.round(total / 1024)} KiB`,
            });
            reported = pct;
          },
        });
        if (!up.file) {
          if (up.error)
            void vscode.window.showErrorMessage(
              vscode.l10n.t('Upload failed: {0}: {1}', up.error.status, up.error.message),
            );
          return undefined;
        }
        progress.report({ message: 'processing…' });
        const ready = await waitForActive({ ...conn, name: up.file.name, signal: controller.signal, intervalMs: 1000 });
        if (ready.error || !ready.file) {
          if (ready.error) void vscode.window.showErrorMessage(vscode.l10n.t('{0}: {1}', label, ready.error.message));
          return undefined;
        }
        progress.report({ increment: 100 - reported, message: 'ready' });
        return fileDataPart(ready.file);
      } finally {
        cancel.dispose();
      }
    },
  );
}
