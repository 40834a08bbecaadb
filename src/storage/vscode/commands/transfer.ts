// Upload, download and export commands: pick what and where, then hand over to the core transfer
// code with a cancellable progress notification.
import * as vscode from 'vscode';
import { isWorkspaceDocument, type File } from '../../../shared/wire/storage';
import { exportToFile, safeLocalName } from '../../core/download';
import { exportChoices, extensionOf } from '../../core/exportFormats';
import { displayName } from '../../core/storePaths';
import type { TreeEntry } from '../../core/tree';
import { downloadTree, uploadTree } from '../../core/transfer';
import type { StorageClient } from '../../core/client';
import {
  type CommandContext,
  fileOf,
  folderIdOf,
  guarded,
  registerStorageCommand as reg,
  selection,
  withCancellableProgress,
} from './common';

/** Uploads local files and folders into a storage folder under one progress notification. */
export async function uploadPaths(
  client: StorageClient,
  paths: string[],
  parentId: string,
  extra?: vscode.CancellationToken,
): Promise<File[]> {
  return withCancellableProgress(
    'Uploading',
    async (report, signal) => {
      const made: File[] = [];
      for (const p of paths) made.push(...(await uploadTree(client, p, parentId, { signal, report })));
      return made;
    },
    extra,
  );
}

async function uploadInto(ctx: CommandContext, e: TreeEntry, paths: string[] | undefined, folders: boolean) {
  return guarded(ctx, 'Uploading', async () => {
    const parent = folderIdOf(e) ?? 'root';
    const chosen =
      paths ??
      (
        await vscode.window.showOpenDialog({
          canSelectMany: true,
          canSelectFiles: !folders,
          canSelectFolders: folders,
          openLabel: vscode.l10n.t('Upload'),
        })
      )?.map((u) => u.fsPath);
    if (!chosen?.length) return;
    const made = await uploadPaths(await ctx.client(), chosen, parent);
    ctx.tree.refresh(e);
    return made;
  });
}

export function registerTransferCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('upload', async (e: TreeEntry, paths?: string[]) => uploadInto(ctx, e, paths, false)),
    reg('uploadFolder', async (e: TreeEntry, paths?: string[]) => uploadInto(ctx, e, paths, true)),

    reg('download', async (e: TreeEntry, all?: TreeEntry[], targetDir?: string) =>
      guarded(ctx, 'Downloading', async () => {
        const files = selection(e, all);
        if (!files.length) return;
        const dir =
          targetDir ??
          (
            await vscode.window.showOpenDialog({
              canSelectFolders: true,
              canSelectFiles: false,
              openLabel: vscode.l10n.t('Download here'),
            })
          )?.[0]?.fsPath;
        if (!dir) return;
        const client = await ctx.client();
        const result = await withCancellableProgress('Downloading', (report, signal) =>
          downloadTree(client, files, dir, { signal, report }),
        );
        for (const s of result.skipped) ctx.log.info(`storage: download skipped "${s.title}": ${s.reason}`);
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Downloaded {0} file(s) to {1}.', result.written.length, dir),
        );
        return result.written;
      }),
    ),

    reg('export', async (e: TreeEntry, mimeType?: string, target?: string) =>
      guarded(ctx, 'Exporting', async () => {
        const f = fileOf(e);
        if (!f?.id || !isWorkspaceDocument(f)) return;
        const client = await ctx.client();
        const links = f.exportLinks ?? (await client.getFile(f.id, { fields: 'exportLinks' })).exportLinks ?? {};
        const choice =
          mimeType ??
          (
            await vscode.window.showQuickPick(
              exportChoices(links).map((c) => ({ label: c.label, description: c.mimeType })),
              { placeHolder: vscode.l10n.t('Export "{0}" as…', displayName(f.title)) },
            )
          )?.description;
        if (!choice) return;
        const file =
          target ??
          (
            await vscode.window.showSaveDialog({
              defaultUri: vscode.Uri.file(safeLocalName(f.title ?? 'export', extensionOf(choice))),
            })
          )?.fsPath;
        if (!file) return;
        await exportToFile(client, f.id, choice, file);
        return file;
      }),
    ),
  ];
}
