// Account commands: who is signed in and how much of the quota is used, and the installed apps.
import * as vscode from 'vscode';
import type { About } from '../../../shared/wire/storage';
import { formatSize } from '../../core/present';
import { type CommandContext, guarded, registerStorageCommand as reg } from './common';

/** One line for the view's description and the About message: user, then quota used of total. */
export function aboutLine(about: About): string {
  const used = Number(about.quotaBytesUsed ?? 0);
  const total = Number(about.quotaBytesTotal ?? 0);
  const who = `${about.user?.displayName ?? about.name ?? 'Unknown user'}${about.user?.emailAddress ? ` <${about.user.emailAddress}>` : ''}`;
  return `${who} · ${formatSize(used)} of ${total ? formatSize(total) : 'unlimited'} used`;
}

export function registerAccountCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('apps', async () =>
      guarded(ctx, 'Loading apps', async () => {
        const client = await ctx.client();
        const apps = await client.call('apps.list', {});
        const pick = await vscode.window.showQuickPick(
          (apps.items ?? []).map((a) => ({ label: a.name ?? a.id ?? '', description: a.shortDescription, app: a })),
          { placeHolder: vscode.l10n.t('Installed apps') },
        );
        if (pick) await ctx.showJson(`${pick.app.name} — app`, await client.call('apps.get', { appId: pick.app.id! }));
        return apps.items;
      }),
    ),

    reg('about', async () =>
      guarded(ctx, 'Loading account details', async () => {
        const about = await (await ctx.client()).about();
        void vscode.window.showInformationMessage(aboutLine(about));
        return about;
      }),
    ),
  ];
}
