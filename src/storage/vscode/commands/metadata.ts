// Commands on an item's metadata: labels and custom properties (private to this app or public).
import * as vscode from 'vscode';
import type { File, Property } from '../../../shared/wire/storage';
import { otherVisibility, Sharing, type Visibility } from '../../core/sharing';
import { displayName } from '../../core/storePaths';
import type { TreeEntry } from '../../core/tree';
import { type CommandContext, fileOf, guarded, registerStorageCommand as reg } from './common';

async function addProperty(sharing: Sharing, fileId: string) {
  const key = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Key') });
  if (!key) return;
  const value = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Value of {0}', key) });
  if (value === undefined) return;
  const vis = (await vscode.window.showQuickPick(['PRIVATE', 'PUBLIC'], {
    placeHolder: vscode.l10n.t('Visibility: PRIVATE (this app only) or PUBLIC (every app)'),
  })) as Visibility | undefined;
  if (!vis) return;
  return sharing.setProperty(fileId, key, value, vis);
}

async function manageProperties(ctx: CommandContext, f: File | undefined) {
  if (!f?.id) return;
  const sharing = new Sharing(await ctx.client());
  const items = await sharing.listProperties(f.id);
  const add = { label: '$(add) Add property…', property: undefined as Property | undefined };
  const pick = await vscode.window.showQuickPick(
    [
      add,
      ...items.map((p) => ({
        label: `${p.key} = ${p.value}`,
        description: p.visibility,
        property: p,
      })),
    ],
    {
      placeHolder: vscode.l10n.t('Properties of "{0}"', displayName(f.title)),
    },
  );
  if (!pick) return;
  if (!pick.property) return addProperty(sharing, f.id);
  const p = pick.property;
  const action = await vscode.window.showQuickPick(
    ['Edit value', `Make ${p.visibility === 'PUBLIC' ? 'private' : 'public'}`, 'Delete'],
    { placeHolder: vscode.l10n.t('{0} ({1})', p.key, p.visibility ?? '') },
  );
  if (action === 'Edit value') {
    const value = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Value of {0}', p.key), value: p.value });
    if (value !== undefined) return sharing.updateProperty(f.id, p, { value });
  } else if (action === 'Delete') {
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the property "{0}"?', p.key),
      { modal: true },
      vscode.l10n.t('Delete'),
    );
    if (ok === 'Delete') return sharing.deleteProperty(f.id, p);
  } else if (action) {
    return sharing.updateProperty(f.id, p, { visibility: otherVisibility(p.visibility) });
  }
  return undefined;
}

export function registerMetadataCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('labels', async (e: TreeEntry) =>
      guarded(ctx, 'Loading labels', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const labels = await (await ctx.client()).call('files.listLabels', { fileId: f.id });
        await ctx.showJson(`${displayName(f.title)} — labels`, labels.items ?? []);
        return labels.items;
      }),
    ),

    reg('modifyLabel', async (e: TreeEntry, labelId?: string, fieldId?: string, value?: string) =>
      guarded(ctx, 'Changing the label', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        const id = labelId ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('Label id') }));
        if (!id) return;
        const field =
          fieldId ??
          (await vscode.window.showInputBox({ prompt: vscode.l10n.t('Field id (empty: remove the label)') }));
        if (field === undefined) return;
        const text = field
          ? (value ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('Text value of {0}', field) })))
          : undefined;
        const mod = field
          ? { labelId: id, fieldModifications: [{ fieldId: field, setTextValues: [text ?? ''] }] }
          : { labelId: id, removeLabel: true };
        return (await ctx.client()).call('files.modifyLabels', { fileId: f.id }, { labelModifications: [mod] });
      }),
    ),

    reg('properties', async (e: TreeEntry) =>
      guarded(ctx, 'Editing properties', () => manageProperties(ctx, fileOf(e))),
    ),
    reg('setProperty', async (e: TreeEntry, key: string, value: string, visibility: Visibility = 'PRIVATE') =>
      guarded(ctx, 'Setting the property', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        return new Sharing(await ctx.client()).setProperty(f.id, key, value, visibility);
      }),
    ),
    reg('deleteProperty', async (e: TreeEntry, key: string, visibility: Visibility = 'PRIVATE') =>
      guarded(ctx, 'Deleting the property', async () => {
        const f = fileOf(e);
        if (!f?.id) return;
        await new Sharing(await ctx.client()).deleteProperty(f.id, { key, visibility });
        return true;
      }),
    ),
  ];
}
