// Sharing commands: who has access to an item (or a shared drive), adding people, groups, domains
// or a link, changing a role and removing access. The rules live in core/sharing.
import * as vscode from 'vscode';
import type { Permission } from '../../../shared/wire/storage';
import {
  assignableRoles,
  describePermission,
  GRANTEE_TYPES,
  grantBody,
  granteePrompt,
  grantRoles,
  Sharing,
  type GranteeType,
  type GrantRole,
  type Role,
  type ShareTarget,
} from '../../core/sharing';
import type { TreeEntry } from '../../core/tree';
import { type CommandContext, fileOf, guarded, registerStorageCommand as reg, shareableIdOf } from './common';

function shareTarget(e: TreeEntry | undefined): ShareTarget | undefined {
  if (e?.type === 'drive' && e.drive.id) return { kind: 'drive', driveId: e.drive.id };
  const f = fileOf(e);
  return f?.id ? { kind: 'file', file: f } : undefined;
}

async function addGrant(sharing: Sharing, id: string, target: ShareTarget) {
  const type = (await vscode.window.showQuickPick([...GRANTEE_TYPES], { placeHolder: vscode.l10n.t('Share with') })) as
    GranteeType | undefined;
  if (!type) return;
  const prompt = granteePrompt(type);
  const value = prompt === undefined ? '' : await vscode.window.showInputBox({ prompt });
  if (value === undefined) return;
  const role = (await vscode.window.showQuickPick(grantRoles(target), { placeHolder: vscode.l10n.t('Role') })) as
    GrantRole | undefined;
  if (!role) return;
  return sharing.grant(id, grantBody(type, role, value));
}

async function managePermissions(ctx: CommandContext, e: TreeEntry) {
  const target = shareTarget(e);
  const id = shareableIdOf(e);
  if (!target || !id) return;
  const sharing = new Sharing(await ctx.client());
  const items = await sharing.list(id);
  const add = {
    label: '$(person-add) Add people or a link…',
    description: undefined as string | undefined,
    permission: undefined as Permission | undefined,
  };
  const pick = await vscode.window.showQuickPick(
    [add, ...items.map((p) => ({ ...describePermission(p), permission: p }))],
    { placeHolder: vscode.l10n.t('Who has access') },
  );
  if (!pick) return;
  if (!pick.permission) return addGrant(sharing, id, target);
  const p = pick.permission;
  const action = await vscode.window.showQuickPick(['Change role', 'Remove access'], { placeHolder: pick.label });
  if (action === 'Change role') {
    const role = (await vscode.window.showQuickPick(assignableRoles(target), {
      placeHolder: vscode.l10n.t('New role'),
    })) as Role | undefined;
    if (role) return sharing.changeRole(id, p.id!, role);
  } else if (action === 'Remove access') {
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the access of {0}?', pick.label),
      { modal: true },
      vscode.l10n.t('Remove'),
    );
    if (ok === 'Remove') return sharing.revoke(id, p.id!);
  }
  return undefined;
}

export function registerSharingCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('permissions', async (e: TreeEntry) => guarded(ctx, 'Sharing', () => managePermissions(ctx, e))),
    reg('share', async (e: TreeEntry, email: string, role: GrantRole = 'reader', type: GranteeType = 'user') =>
      guarded(ctx, 'Sharing', async () => {
        const id = shareableIdOf(e);
        if (!id) return;
        return new Sharing(await ctx.client()).grant(id, grantBody(type, role, email));
      }),
    ),
    reg('unshare', async (e: TreeEntry, permissionId: string) =>
      guarded(ctx, 'Removing access', async () => {
        const id = shareableIdOf(e);
        if (!id) return;
        await new Sharing(await ctx.client()).revoke(id, permissionId);
        return true;
      }),
    ),
    reg('permissionIdForEmail', async (email?: string) =>
      guarded(ctx, 'Looking up the permission id', async () => {
        const value = email ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('E-mail address') }));
        if (!value) return;
        const id = await new Sharing(await ctx.client()).permissionIdForEmail(value);
        if (!email) void vscode.window.showInformationMessage(vscode.l10n.t('Permission id of {0}: {1}', value, id));
        return id;
      }),
    ),
  ];
}
