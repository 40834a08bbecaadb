// Upload, download and export commands: pick what and where, then hand over to the core transfer
// code with a cancellable progress notification.
import { basename } from 'node:path';
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
import { pickFolder } from './move';

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

/** Where the file dialog starts: the workspace's (first) folder, the place a user's files are. */
function dialogStart(): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder?.uri;
}

/** The storage folder an upload goes into, picked level by level; undefined when cancelled. */
async function pickUploadFolder(ctx: CommandContext, what: string): Promise<string | undefined> {
  const place = await pickFolder(ctx, {
    title: vscode.l10n.t('Upload {0} to…', what),
    hint: vscode.l10n.t('Pick a folder to look inside it, then "Upload to" it'),
    here: (name) => vscode.l10n.t('Upload to "{0}"', name),
  });
  return place?.id;
}

/**
 * Upload Files… / Upload Folder…: from a folder of the Storage view (inline button, context menu) into that
 * folder; from the Command Palette the folder is picked after the files.
 */
async function uploadInto(
  ctx: CommandContext,
  e: TreeEntry | undefined,
  paths: string[] | undefined,
  folders: boolean,
) {
  return guarded(ctx, 'Uploading', async () => {
    const chosen =
      paths ??
      (
        await vscode.window.showOpenDialog({
          canSelectMany: true,
          canSelectFiles: !folders,
          canSelectFolders: folders,
          defaultUri: dialogStart(),
          openLabel: vscode.l10n.t('Upload'),
        })
      )?.map((u) => u.fsPath);
    if (!chosen?.length) return;
    const parent = folderIdOf(e) ?? (await pickUploadFolder(ctx, countOf(chosen)));
    if (!parent) return;
    const made = await uploadPaths(await ctx.client(), chosen, parent);
    ctx.tree.refresh(e);
    return made;
  });
}

function countOf(paths: string[]): string {
  return paths.length === 1 ? `"${basename(paths[0])}"` : vscode.l10n.t('{0} items', paths.length);
}

/** Upload to Storage… from the Explorer: the clicked file or folder (or the Explorer's selection). */
async function uploadFromExplorer(ctx: CommandContext, clicked?: unknown, all?: unknown, targetId?: string) {
  const uris = (Array.isArray(all) && all.length ? all : [clicked]).filter(
    (u): u is vscode.Uri => u instanceof vscode.Uri && u.scheme === 'file',
  );
  if (!uris.length) return uploadInto(ctx, undefined, undefined, false);
  return guarded(ctx, 'Uploading', async () => {
    const paths = uris.map((u) => u.fsPath);
    const parent = targetId ?? (await pickUploadFolder(ctx, countOf(paths)));
    if (!parent) return;
    const made = await uploadPaths(await ctx.client(), paths, parent);
    ctx.tree.refresh(undefined);
    return made;
  });
}

export function registerTransferCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('upload', async (e?: TreeEntry, paths?: string[]) => uploadInto(ctx, e, paths, false)),
    reg('uploadFolder', async (e?: TreeEntry, paths?: string[]) => uploadInto(ctx, e, paths, true)),
    // Args as the Explorer passes them: the clicked URI and the selection; a test or keybinding may add a target folder id.
    reg('uploadToStorage', async (clicked?: unknown, all?: unknown, targetId?: string) =>
      uploadFromExplorer(ctx, clicked, all, typeof targetId === 'string' ? targetId : undefined),
    ),

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
              defaultUri: dialogStart(),
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
