// Test hooks of folder sync (ExtensionMode.Test only, never in the production build): host tests read
// the views and the status bar as plain data and drive what a user does with the mouse.
import * as vscode from 'vscode';
import { registerCommand } from '../../../platform/lazy/commandTable';
import type { SyncController } from './controller';
import type { PlanNode } from './planView';
import type { SyncNode } from './syncView';

/** A tree view's node as plain data (the host tests read the views through it). */
export interface PlainNode {
  label: string;
  description?: string;
  contextValue?: string;
  checked?: boolean;
  command?: string;
  children: PlainNode[];
}

const labelOf = (t: vscode.TreeItem) => (typeof t.label === 'string' ? t.label : (t.label?.label ?? ''));

export function syncTestSeams(
  sync: SyncController,
  planView: vscode.TreeView<PlanNode>,
  setChecked: (node: PlanNode, checked: boolean) => void,
): vscode.Disposable[] {
  const plain = <T>(provider: vscode.TreeDataProvider<T>, node: T): PlainNode => {
    const t = provider.getTreeItem(node) as vscode.TreeItem;
    const kids = (provider.getChildren(node) as T[]) ?? [];
    return {
      label: labelOf(t),
      description: typeof t.description === 'string' ? t.description : undefined,
      contextValue: t.contextValue,
      ...(t.checkboxState !== undefined
        ? {
            checked:
              (typeof t.checkboxState === 'object' ? t.checkboxState.state : t.checkboxState) ===
              vscode.TreeItemCheckboxState.Checked,
          }
        : {}),
      command: t.command?.command,
      children: kids.map((k) => plain(provider, k)),
    };
  };
  const findSync = (pathOf: string[]): SyncNode => {
    let level = sync.view.getChildren();
    let found: SyncNode | undefined;
    for (const label of pathOf) {
      found = level.find((n) => labelOf(sync.view.getTreeItem(n)) === label);
      if (!found) throw new Error(`no Sync view node "${label}" (of ${pathOf.join(' / ')})`);
      level = sync.view.getChildren(found);
    }
    if (!found) throw new Error('no node');
    return found;
  };
  const findPlan = (label: string): PlanNode => {
    for (const root of sync.plans.getChildren()) {
      if (labelOf(sync.plans.getTreeItem(root)) === label) return root;
      for (const k of sync.plans.getChildren(root)) if (labelOf(sync.plans.getTreeItem(k)) === label) return k;
    }
    throw new Error(`no plan item "${label}"`);
  };
  let redraws = 0;
  const counting = sync.view.onDidChangeTreeData(() => redraws++);
  const history: string[] = [];
  sync.onPaint = (text) => {
    if (history.at(-1) !== text) history.push(text);
  };
  return [
    counting,
    /** Paints the views (as any change of a link does) and says how often the Sync view was redrawn so far. */
    registerCommand('apiWorkbench.storage._testSyncRedraws', () => {
      sync.paint();
      return redraws;
    }),
    registerCommand('apiWorkbench.storage._testSyncView', () =>
      sync.view.getChildren().map((n) => plain(sync.view, n)),
    ),
    registerCommand('apiWorkbench.storage._testSyncPlan', () =>
      sync.plans.session
        ? {
            reason: sync.plans.session.reason,
            message: planView.message,
            nodes: sync.plans.getChildren().map((n) => plain(sync.plans, n)),
          }
        : undefined,
    ),
    /** Checks or unchecks a plan item or group by its label, as a click on its checkbox does. */
    registerCommand('apiWorkbench.storage._testSyncPlanCheck', (label: string, checked: boolean) => {
      setChecked(findPlan(label), checked);
      sync.plans.refresh();
    }),
    /** Runs a sync command on the plan item with this label (the item's context menu). */
    registerCommand('apiWorkbench.storage._testSyncPlanRun', (label: string, command: string) =>
      vscode.commands.executeCommand(`apiWorkbench.storage.${command}`, findPlan(label)),
    ),
    /** Runs a sync command on the Sync view node at this label path (its context menu, or a click). */
    registerCommand(
      'apiWorkbench.storage._testSyncRun',
      async (labels: string[], command: string, ...args: unknown[]) => {
        const result = await vscode.commands.executeCommand(
          `apiWorkbench.storage.${command}`,
          findSync(labels),
          ...args,
        );
        return JSON.parse(JSON.stringify(result ?? null)) as unknown;
      },
    ),
    registerCommand('apiWorkbench.storage._testSyncStatusBar', () => {
      sync.paint();
      return { text: sync.status.text, tooltip: sync.status.tooltip, command: sync.status.command };
    }),
    /** The texts the status bar item showed since the last call (a run is too quick to catch by polling). */
    registerCommand('apiWorkbench.storage._testSyncStatusHistory', () => {
      sync.paint();
      return history.splice(0);
    }),
    registerCommand('apiWorkbench.storage._testSyncWait', () => sync.idle()),
    registerCommand('apiWorkbench.storage._testSyncRecords', () =>
      [...sync.runners.values()].map((r) => ({
        key: r.key,
        label: r.label,
        phase: r.phase,
        link: r.link,
        record: r.record,
        interrupted: r.interrupted(),
      })),
    ),
    /** The next run of the link `key` stops (as a cancel, a crash or a reload would) after this many actions. */
    registerCommand('apiWorkbench.storage._testSyncAbortAfter', (key: string, events: number) => {
      sync.abortAfter = { events, key };
    }),
    /** What a new window does at activation: the links are read afresh and an unfinished run runs again. */
    registerCommand('apiWorkbench.storage._testSyncRestart', async () => {
      sync.restart();
      const resumed = await sync.resumeAll();
      await sync.idle();
      return resumed;
    }),
  ];
}
