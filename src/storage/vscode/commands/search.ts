// The storage view's search box: titles (the magnifier in the view title) or contents (the view's "…"
// menu). Results show as a "Search: …" root above the others until Clear Search; a blank search clears.
import * as vscode from 'vscode';
import type { SearchMode } from '../../core/search';
import { type CommandContext, guarded, registerStorageCommand as reg } from './common';

async function search(ctx: CommandContext, mode: SearchMode, given?: string) {
  const text =
    given ??
    (await vscode.window.showInputBox({
      title: mode === 'fullText' ? vscode.l10n.t('Search File Contents') : vscode.l10n.t('Search Files'),
      prompt:
        mode === 'fullText'
          ? vscode.l10n.t('Files whose title, description or text contains…')
          : vscode.l10n.t('Files whose title contains (word prefixes)…'),
      value: ctx.tree.activeSearch?.text,
    }));
  if (text === undefined) return undefined;
  return guarded(ctx, vscode.l10n.t('Searching'), async () => {
    await ctx.tree.setSearch(text.trim() ? { text, mode } : undefined);
    await ctx.tree.revealSearch();
    return ctx.tree.activeSearch?.text;
  });
}

export function registerSearchCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    reg('search', (_e?: unknown, text?: string) => search(ctx, 'title', text)),
    reg('searchContents', (_e?: unknown, text?: string) => search(ctx, 'fullText', text)),
    reg('clearSearch', () => ctx.tree.setSearch(undefined)),
  ];
}
