// Shared-drive commands: create, hide and show again, delete (only empty drives can go).
import * as vscode from 'vscode';
import type { TreeEntry } from '../../core/tree';
import { type CommandContext, guarded, registerStorageCommand as reg } from './common';

async function driveAction(ctx: CommandContext, e: TreeEntry, op: 'drives.hide' | 'drives.unhide') {
  return guarded(ctx, op === 'drives.hide' ? 'Hiding the drive' : 'Showing the drive', async () => {
    if (e?.type !== 'drive' || !e.drive.id) return;
    const d = await (await ctx.client()).call(op, { driveId: e.drive.id });
    ctx.tree.refresh(undefined);
    return d;
  });
}

/** A fresh request id per creation: the service makes one drive per id, so a retried request cannot make two. */
function requestId(): string {
  return `aw-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function registerDriveCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('createDrive', async (_e: TreeEntry, name?: string) =>
      guarded(ctx, 'Creating the shared drive', async () => {
        const value =
          name ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('Name of the new shared drive') }));
        if (!value) return;
        const d = await (await ctx.client()).call('drives.insert', { requestId: requestId() }, { name: value });
        ctx.tree.refresh(undefined);
        return d;
      }),
    ),
    reg('hideDrive', async (e: TreeEntry) => driveAction(ctx, e, 'drives.hide')),
    reg('unhideDrive', async (e: TreeEntry) => driveAction(ctx, e, 'drives.unhide')),
    reg('deleteDrive', async (e: TreeEntry, confirmed?: boolean) =>
      guarded(ctx, 'Deleting the shared drive', async () => {
        if (e?.type !== 'drive' || !e.drive.id) return;
        if (!confirmed) {
          const ok = await vscode.window.showWarningMessage(
            vscode.l10n.t('Delete the shared drive "{0}"?', e.drive.name ?? ''),
            { modal: true, detail: vscode.l10n.t('Only empty shared drives can be deleted.') },
            vscode.l10n.t('Delete Drive'),
          );
          if (ok !== 'Delete Drive') return;
        }
        await (await ctx.client()).call('drives.delete', { driveId: e.drive.id });
        ctx.tree.refresh(undefined);
        return true;
      }),
    ),
  ];
}
