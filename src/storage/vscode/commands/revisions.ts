// Revision commands: list a file's revisions, open or compare one, keep it forever, delete it.
import * as vscode from 'vscode';
import { isWorkspaceDocument, type File, type Revision } from '../../../shared/wire/storage';
import { formatDate, formatSize } from '../../core/present';
import { displayName, filePath } from '../../core/storePaths';
import type { TreeEntry } from '../../core/tree';
import { REVISION_SCHEME, STORE_SCHEME } from '../fileSystemProvider';
import { type CommandContext, fileOf, guarded, registerStorageCommand as reg } from './common';

function revisionUri(f: File, revisionId: string | undefined): vscode.Uri {
  return vscode.Uri.from({ scheme: REVISION_SCHEME, path: `/${f.id}/${revisionId}/${displayName(f.title)}` });
}

async function manageRevisions(ctx: CommandContext, e: TreeEntry, f: File | undefined) {
  if (!f?.id) return;
  const client = await ctx.client();
  const list = await client.call('revisions.list', { fileId: f.id });
  const items = (list.items ?? []).slice().reverse();
  const pick = await vscode.window.showQuickPick(
    items.map((r, i) => ({
      label: `${formatDate(r.modifiedDate ?? '')}${i === 0 ? ' (current)' : ''}`,
      description: [
        r.fileSize ? formatSize(Number(r.fileSize)) : '',
        r.lastModifyingUserName ?? '',
        r.pinned ? 'kept forever' : '',
      ]
        .filter(Boolean)
        .join(' · '),
      revision: r,
    })),
    { placeHolder: vscode.l10n.t('Revisions of "{0}"', displayName(f.title)) },
  );
  if (!pick) return;
  const r: Revision = pick.revision;
  // Workspace documents keep their revisions by the service's own rules: no pinning or deleting.
  const actions = [
    'Open',
    'Compare with current',
    ...(isWorkspaceDocument(f) ? [] : [r.pinned ? 'Stop keeping forever' : 'Keep forever', 'Delete']),
  ];
  const action = await vscode.window.showQuickPick(actions, { placeHolder: pick.label });
  if (action === 'Open') {
    await vscode.window.showTextDocument(revisionUri(f, r.id), { preview: true });
  } else if (action === 'Compare with current') {
    // The tree's own entry: its folder path names the current side (breadcrumbs, tab) as the tree opens it.
    await vscode.commands.executeCommand('apiWorkbench.storage.compareRevision', e, r.id);
  } else if (action === 'Keep forever' || action === 'Stop keeping forever') {
    return client.call('revisions.patch', { fileId: f.id, revisionId: r.id! }, { pinned: action === 'Keep forever' });
  } else if (action === 'Delete') {
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the revision of {0} permanently?', pick.label),
      { modal: true },
      vscode.l10n.t('Delete'),
    );
    if (ok === 'Delete') return client.call('revisions.delete', { fileId: f.id, revisionId: r.id! });
  }
  return undefined;
}

export function registerRevisionCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('revisions', async (e: TreeEntry) =>
      guarded(ctx, 'Loading revisions', () => manageRevisions(ctx, e, fileOf(e))),
    ),
    reg('compareRevision', async (e: TreeEntry, revisionId: string) => {
      const f = fileOf(e);
      if (!f?.id) return;
      // The same URI the tree opens the file as, so the diff shows (and edits) the open document.
      const right = (await ctx.storeUri(e)) ?? vscode.Uri.from({ scheme: STORE_SCHEME, path: filePath(f.id, f.title) });
      await vscode.commands.executeCommand(
        'vscode.diff',
        revisionUri(f, revisionId),
        right,
        `${displayName(f.title)} (revision ${revisionId.slice(0, 8)}) ↔ current`,
      );
    }),
  ];
}
