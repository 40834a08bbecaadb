// Commands on files and folders: open, create, copy, rename, trash and restore, delete, star,
// touch and details. Prompts name exactly what a destructive action affects.
import * as vscode from 'vscode';
import { FOLDER_MIME, type File } from '../../../shared/wire/storage';
import { formatSize } from '../../core/present';
import { displayName, folderPath, nameSelection } from '../../core/storePaths';
import type { TreeEntry } from '../../core/tree';
import { STORE_SCHEME } from '../fileSystemProvider';
import {
  type CommandContext,
  fileOf,
  folderIdOf,
  guarded,
  names,
  registerStorageCommand as reg,
  selection,
} from './common';

/** Editors read the whole file into memory, and VS Code stops syncing documents over 50 MB. */
const LARGE_FILE = 50 * 1024 * 1024;

async function confirm(message: string, detail: string, action: string, confirmed?: boolean): Promise<boolean> {
  if (confirmed) return true;
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
}

async function setStar(ctx: CommandContext, files: File[], starred: boolean) {
  return guarded(ctx, starred ? 'Starring' : 'Unstarring', async () => {
    const client = await ctx.client();
    for (const f of files)
      await client.call('files.patch', { fileId: f.id!, supportsAllDrives: true }, { labels: { starred } });
    ctx.tree.refresh(undefined);
    return files.length;
  });
}

export function registerFileCommands(ctx: CommandContext): vscode.Disposable[] {
  const refreshAround = (e: TreeEntry | undefined) => ctx.tree.refresh(e);
  return [
    reg('open', async (e: TreeEntry, confirmed?: boolean) => {
      const f = fileOf(e);
      if (!f?.id) return;
      const size = Number(f.fileSize ?? 0);
      if (size > LARGE_FILE && !confirmed) {
        const pick = await vscode.window.showWarningMessage(
          vscode.l10n.t('"{0}" is {1}. Open it in an editor anyway?', displayName(f.title), formatSize(size)),
          { modal: true },
          vscode.l10n.t('Open'),
          vscode.l10n.t('Download Instead'),
        );
        if (pick === 'Download Instead') return vscode.commands.executeCommand('apiWorkbench.storage.download', e);
        if (pick !== 'Open') return;
      }
      const uri = await ctx.storeUri(e);
      if (uri) await vscode.commands.executeCommand('vscode.open', uri);
      return uri?.toString();
    }),

    reg('openAsWorkspaceFolder', (e: TreeEntry) => {
      const id = folderIdOf(e);
      if (!id) return;
      const label = e.type === 'root' ? 'My files' : e.type === 'drive' ? e.drive.name : fileOf(e)?.title;
      const uri = vscode.Uri.from({ scheme: STORE_SCHEME, path: folderPath(id) });
      vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, {
        uri,
        name: `${label ?? id} (storage)`,
      });
    }),

    reg('newFolder', async (e: TreeEntry, name?: string) =>
      guarded(ctx, 'Creating the folder', async () => {
        const parent = folderIdOf(e) ?? 'root';
        const title =
          name ??
          (await vscode.window.showInputBox({
            prompt: vscode.l10n.t('Name of the new folder'),
            value: 'New folder',
            validateInput: (v) => (v.trim() ? undefined : 'A name is required'),
          }));
        if (!title) return;
        const client = await ctx.client();
        const made = await client.call(
          'files.insert',
          { supportsAllDrives: true },
          { title: title.trim(), mimeType: FOLDER_MIME, parents: [{ id: parent }] },
        );
        ctx.tree.refresh(e);
        return made;
      }),
    ),

    reg('copy', async (e: TreeEntry, title?: string) =>
      guarded(ctx, 'Copying', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const name =
          title ??
          (await vscode.window.showInputBox({
            prompt: vscode.l10n.t('Title of the copy'),
            value: `Copy of ${f.title ?? ''}`,
          }));
        if (!name) return;
        const copy = await (
          await ctx.client()
        ).call('files.copy', { fileId: f.id, supportsAllDrives: true }, { title: name });
        refreshAround(e);
        return copy;
      }),
    ),

    reg('rename', async (e: TreeEntry, title?: string) =>
      guarded(ctx, 'Renaming', async () => {
        const f = fileOf(e);
        const driveEntry = e?.type === 'drive' ? e.drive : undefined;
        const client = await ctx.client();
        if (driveEntry?.id) {
          const name =
            title ??
            (await vscode.window.showInputBox({
              prompt: vscode.l10n.t('New name of the shared drive'),
              value: driveEntry.name,
            }));
          if (!name) return;
          const d = await client.call('drives.update', { driveId: driveEntry.id }, { name });
          ctx.tree.refresh(undefined);
          return d;
        }
        if (!f?.id) return;
        const name =
          title ??
          (await vscode.window.showInputBox({
            prompt: vscode.l10n.t('New title'),
            value: f.title,
            // As in the Explorer: the name is selected, its extension is not.
            valueSelection: f.title ? nameSelection(f.title, e.type === 'file' && e.folder) : undefined,
          }));
        if (!name || name === f.title) return;
        const updated = await client.call(
          'files.patch',
          { fileId: f.id, supportsAllDrives: true },
          { title: name },
          { headers: f.etag ? { 'if-match': f.etag } : {} },
        );
        refreshAround(e);
        return updated;
      }),
    ),

    // Trash asks nothing (Explorer and Drive do the same): it can be undone, from the notification or Trash.
    reg('trash', async (e: TreeEntry, all?: TreeEntry[]) =>
      guarded(ctx, vscode.l10n.t('Moving to the trash'), async () => {
        const files = selection(e, all);
        if (!files.length) return;
        const client = await ctx.client();
        for (const f of files) await client.call('files.trash', { fileId: f.id!, supportsAllDrives: true });
        ctx.tree.refresh(undefined);
        const undo = vscode.l10n.t('Undo');
        void vscode.window
          .showInformationMessage(vscode.l10n.t('Moved {0} to the trash.', names(files)), undo)
          .then((pick) =>
            pick === undo
              ? guarded(ctx, vscode.l10n.t('Restoring'), async () => {
                  for (const f of files) await client.call('files.untrash', { fileId: f.id!, supportsAllDrives: true });
                  ctx.tree.refresh(undefined);
                })
              : undefined,
          );
        return files.length;
      }),
    ),

    reg('untrash', async (e: TreeEntry, all?: TreeEntry[]) =>
      guarded(ctx, 'Restoring', async () => {
        const client = await ctx.client();
        const files = selection(e, all);
        for (const f of files) await client.call('files.untrash', { fileId: f.id!, supportsAllDrives: true });
        ctx.tree.refresh(undefined);
        return files.length;
      }),
    ),

    reg('deletePermanently', async (e: TreeEntry, all?: TreeEntry[], confirmed?: boolean) =>
      guarded(ctx, 'Deleting', async () => {
        const files = selection(e, all);
        if (!files.length) return;
        const detail =
          'This skips the trash and cannot be undone. Folders are deleted with everything you own in them.';
        if (!(await confirm(`Delete ${names(files)} permanently?`, detail, 'Delete Permanently', confirmed))) return;
        const client = await ctx.client();
        for (const f of files) await client.call('files.delete', { fileId: f.id!, supportsAllDrives: true });
        ctx.tree.refresh(undefined);
        return files.length;
      }),
    ),

    reg('emptyTrash', async (_e: TreeEntry, confirmed?: boolean) =>
      guarded(ctx, 'Emptying the trash', async () => {
        const client = await ctx.client();
        const all = await client.listAllFiles({
          q: "trashed = true and 'me' in owners",
          fields: 'nextPageToken,items(id,title,explicitlyTrashed)',
          maxResults: 1000,
        });
        const trashed = all.filter((f) => f.explicitlyTrashed);
        if (!trashed.length) {
          void vscode.window.showInformationMessage(vscode.l10n.t('The trash is already empty.'));
          return 0;
        }
        if (
          !(await confirm(
            `Permanently delete ${trashed.length} item(s) in the trash: ${names(trashed)}?`,
            'This cannot be undone.',
            'Empty Trash',
            confirmed,
          ))
        )
          return;
        await client.call('files.emptyTrash', {});
        ctx.tree.refresh(undefined);
        return trashed.length;
      }),
    ),

    reg('touch', async (e: TreeEntry) =>
      guarded(ctx, 'Touching', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const updated = await (await ctx.client()).call('files.touch', { fileId: f.id, supportsAllDrives: true });
        refreshAround(e);
        return updated;
      }),
    ),

    reg('star', async (e: TreeEntry, all?: TreeEntry[]) => setStar(ctx, selection(e, all), true)),
    reg('unstar', async (e: TreeEntry, all?: TreeEntry[]) => setStar(ctx, selection(e, all), false)),

    // The link opens the file in the service's web UI; the id is what the API and the CLI take.
    reg('copyLink', async (e: TreeEntry) =>
      guarded(ctx, vscode.l10n.t('Copying the link'), async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        // The tree lists items without their links: ask for them when the listing did not carry one.
        const links = f.alternateLink
          ? f
          : await (await ctx.client()).getFile(f.id, { fields: 'alternateLink,webContentLink' });
        const link = links.alternateLink ?? links.webContentLink;
        if (!link) {
          void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" has no link.', displayName(f.title)));
          return;
        }
        await vscode.env.clipboard.writeText(link);
        return link;
      }),
    ),
    reg('copyId', async (e: TreeEntry) => {
      const id = fileOf(e)?.id ?? (e?.type === 'drive' ? e.drive.id : undefined);
      if (!id) return;
      await vscode.env.clipboard.writeText(id);
      return id;
    }),

    reg('details', async (e: TreeEntry) =>
      guarded(ctx, 'Loading details', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const full = await (await ctx.client()).getFile(f.id);
        await ctx.showJson(`${displayName(full.title)} — details`, full);
        return full;
      }),
    ),
  ];
}
