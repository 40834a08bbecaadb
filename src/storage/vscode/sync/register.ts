// Folder sync in the editor (issue 25): a thin layer over the engine in core/sync. Loaded with the storage
// feature; the entry loads that at start-up only in a workspace that has links (so an unfinished run
// resumes and the watchers run), otherwise on first use as before.
import * as vscode from 'vscode';
import type { FeatureShell, WorkbenchServices } from '../../../platform/services';
import type { CommandContext } from '../commands/common';
import { within } from '../../core/sync/names';
import { registerSyncCommands } from './commands';
import { LINKS_SETTING, SyncController } from './controller';
import { PLAN_VIEW_ID, type PlanNode } from './planView';
import { SYNC_VIEW_ID, type SyncNode } from './syncView';
import { syncTestSeams } from './testSeams';

export function registerSync(
  services: WorkbenchServices,
  shell: FeatureShell,
  ctx: CommandContext,
): { disposables: vscode.Disposable[]; storeChanged(): void } {
  const sync = new SyncController({
    client: () => ctx.client(),
    log: services.log,
    state: services.context.workspaceState,
  });
  shell.treeView<SyncNode>(SYNC_VIEW_ID, sync.view);
  const planView = shell.treeView<PlanNode>(PLAN_VIEW_ID, sync.plans);
  const setChecked = (node: PlanNode, checked: boolean) => {
    const s = sync.plans.session;
    if (!s) return;
    const paths = node.type === 'group' ? node.items.map((i) => i.path) : node.type === 'item' ? [node.item.path] : [];
    for (const p of paths) {
      // Ticking an item below an unticked folder ticks the folder again (the item cannot go without it).
      if (checked) for (const x of [...s.excluded]) if (within(p, x)) s.excluded.delete(x);
      if (!checked) s.excluded.add(p);
    }
  };
  const planMessage = () => {
    const s = sync.plans.session;
    planView.description = s?.title;
    planView.message = !s
      ? undefined
      : s.reason === 'maxDelete'
        ? vscode.l10n.t(
            'Would delete {0} of {1} synced files. Right-click a deletion to restore it, or untick what must stay out of the link; then Apply.',
            s.plan.deletes,
            s.plan.baseFiles,
          )
        : s.plan.actions.length
          ? vscode.l10n.t('First sync: unticked items stay out of the link. Then Apply.')
          : vscode.l10n.t('Both sides hold the same files. Apply to keep them in sync.');
  };
  sync.load();
  void sync.resumeAll();
  sync.paint();

  const disposables: vscode.Disposable[] = [
    sync,
    planView.onDidChangeCheckboxState((e) => {
      for (const [node, state] of e.items) setChecked(node, state === vscode.TreeItemCheckboxState.Checked);
      sync.plans.refresh();
    }),
    sync.plans.onDidChangeTreeData(planMessage),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`apiWorkbench.storage.${LINKS_SETTING}`)) sync.load();
      if (e.affectsConfiguration('apiWorkbench.storage.syncPollSeconds'))
        for (const r of sync.runners.values()) r.restartPoll();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => sync.load()),
    ...registerSyncCommands(ctx, sync),
    ...(__TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test
      ? syncTestSeams(sync, planView, setChecked)
      : []),
  ];
  return {
    disposables,
    // The store's change feed saw changes: every link catches up (its own run reads the feed from its token).
    storeChanged: () => {
      for (const r of sync.runners.values()) r.soon();
    },
  };
}
