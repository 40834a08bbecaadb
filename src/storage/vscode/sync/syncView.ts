// The Sync view: each link (mode, last run, what is pending), its conflicts (Compare, Keep This, Keep
// That) and what its last run could not do, each with what to do about it. Empty: the welcome content
// (package.json viewsWelcome) offers Sync Folder with Storage….
import * as vscode from 'vscode';
import type { LinkRunner } from './runner';

export const SYNC_VIEW_ID = 'apiWorkbench.storage.sync';

export type SyncNode =
  | { type: 'link'; runner: LinkRunner }
  | { type: 'conflicts'; runner: LinkRunner }
  | { type: 'conflict'; runner: LinkRunner; path: string; copy: string }
  | { type: 'problems'; runner: LinkRunner }
  | { type: 'problem'; runner: LinkRunner; path: string; reason: string; kind: 'error' | 'skipped' }
  | { type: 'failure'; runner: LinkRunner; message: string; fix: 'signIn' | 'retry' | 'settings' | 'state' };

const MODE_LABEL = {
  'two-way': () => vscode.l10n.t('two-way'),
  upload: () => vscode.l10n.t('upload only'),
  download: () => vscode.l10n.t('download only'),
};

function when(iso: string | undefined): string {
  if (!iso) return vscode.l10n.t('never');
  const d = new Date(iso);
  const sameDay = d.toDateString() === new Date().toDateString();
  return sameDay ? d.toLocaleTimeString() : d.toLocaleString();
}

export class SyncTreeProvider implements vscode.TreeDataProvider<SyncNode> {
  private readonly changed = new vscode.EventEmitter<SyncNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** What the view showed at its last refresh, as text (see `picture`). */
  private shown: string | undefined;

  constructor(private readonly runners: () => LinkRunner[]) {}

  /**
   * Redraws the view when what it shows changed. A redraw that would show the same is not made: the rows it
   * rebuilds can take a click in the middle (a click on a conflict that should open Compare only selected it).
   */
  refresh(): void {
    const now = this.picture();
    if (now === this.shown) return;
    this.shown = now;
    this.changed.fire(undefined);
  }

  /** Every row the view can show (expanded or not), with all a row shows and does. */
  private picture(): string {
    const rows: string[] = [];
    const visit = (parent: SyncNode | undefined, depth: number) => {
      for (const node of this.getChildren(parent)) {
        const t = this.getTreeItem(node);
        const icon = t.iconPath instanceof vscode.ThemeIcon ? [t.iconPath.id, t.iconPath.color?.id] : t.iconPath;
        rows.push(
          JSON.stringify([
            depth,
            t.id,
            typeof t.label === 'string' ? t.label : t.label?.label,
            t.description,
            typeof t.tooltip === 'string' ? t.tooltip : t.tooltip?.value,
            icon,
            t.contextValue,
            t.command?.command,
            t.collapsibleState,
          ]),
        );
        visit(node, depth + 1);
      }
    };
    visit(undefined, 0);
    return rows.join('\n');
  }

  getChildren(node?: SyncNode): SyncNode[] {
    if (!node) return this.runners().map((runner) => ({ type: 'link', runner }));
    const r = node.runner.record;
    if (node.type === 'link') {
      const out: SyncNode[] = [];
      if (r.failure && node.runner.phase === 'error') out.push({ type: 'failure', runner: node.runner, ...r.failure });
      if (r.conflicts.length) out.push({ type: 'conflicts', runner: node.runner });
      if (r.problems.length) out.push({ type: 'problems', runner: node.runner });
      return out;
    }
    if (node.type === 'conflicts') return r.conflicts.map((c) => ({ type: 'conflict', runner: node.runner, ...c }));
    if (node.type === 'problems') return r.problems.map((p) => ({ type: 'problem', runner: node.runner, ...p }));
    return [];
  }

  getTreeItem(node: SyncNode): vscode.TreeItem {
    const runner = node.runner;
    const r = runner.record;
    switch (node.type) {
      case 'link': {
        // Always expanded, under one id: an id that changed with its children (to drop the empty twistie) rebuilt
        // the rows under a click and lost it.
        const t = new vscode.TreeItem(runner.label, vscode.TreeItemCollapsibleState.Expanded);
        t.id = `link:${runner.key}`;
        const mode = MODE_LABEL[runner.link.mode]();
        const state =
          runner.phase === 'running'
            ? vscode.l10n.t('syncing {0} of {1}', Math.min(runner.done, runner.total), runner.total)
            : runner.phase === 'paused'
              ? vscode.l10n.t('paused')
              : runner.phase === 'plan'
                ? vscode.l10n.t('plan to review')
                : runner.phase === 'error'
                  ? vscode.l10n.t('last run failed')
                  : runner.phase === 'stopped'
                    ? vscode.l10n.t('stopped part-way: Sync Now finishes it')
                    : runner.pending
                      ? vscode.l10n.t('{0} local change(s) pending', runner.pending)
                      : vscode.l10n.t('in sync, {0}', when(r.finished));
        t.description = `${mode} · ${state}`;
        t.tooltip = new vscode.MarkdownString(
          [
            vscode.l10n.t('**{0}** ⇄ store folder **{1}**', runner.link.local || '.', runner.link.storeName),
            vscode.l10n.t('Mode: {0}', mode),
            vscode.l10n.t('Last run: {0} ({1})', when(r.finished), r.summary ?? vscode.l10n.t('none yet')),
            vscode.l10n.t('Pending: {0} local change(s) seen since', runner.pending),
            runner.link.exclude?.length
              ? vscode.l10n.t('Left out: {0}', runner.link.exclude.join(', '))
              : vscode.l10n.t('Nothing left out'),
          ].join('\n\n'),
        );
        t.iconPath = new vscode.ThemeIcon(
          runner.phase === 'running'
            ? 'sync~spin'
            : runner.phase === 'paused'
              ? 'debug-pause'
              : runner.phase === 'plan'
                ? 'checklist'
                : runner.phase === 'error'
                  ? 'error'
                  : runner.phase === 'stopped'
                    ? 'debug-stop'
                    : r.conflicts.length
                      ? 'warning'
                      : 'check',
        );
        t.contextValue = `sync.link.${runner.phase}`;
        if (runner.phase === 'plan')
          t.command = { command: 'apiWorkbench.storage.syncReviewPlan', title: '', arguments: [node] };
        return t;
      }
      case 'conflicts': {
        const t = new vscode.TreeItem(
          vscode.l10n.t('Conflicts ({0})', r.conflicts.length),
          vscode.TreeItemCollapsibleState.Expanded,
        );
        t.id = `conflicts:${runner.key}`;
        t.iconPath = new vscode.ThemeIcon('warning');
        return t;
      }
      case 'conflict': {
        const t = new vscode.TreeItem(node.path);
        t.id = `conflict:${runner.key}:${node.copy}`;
        t.description = vscode.l10n.t('and {0}', node.copy.slice(node.copy.lastIndexOf('/') + 1));
        t.tooltip = vscode.l10n.t(
          'Both sides changed {0}. The other version is kept as {1}. Compare them, then keep this one or that one: the other is removed on both sides.',
          node.path,
          node.copy,
        );
        t.iconPath = new vscode.ThemeIcon('diff');
        t.contextValue = 'sync.conflict';
        t.command = { command: 'apiWorkbench.storage.syncCompare', title: '', arguments: [node] };
        return t;
      }
      case 'problems': {
        const t = new vscode.TreeItem(
          vscode.l10n.t('Not synced ({0})', r.problems.length),
          vscode.TreeItemCollapsibleState.Expanded,
        );
        t.id = `problems:${runner.key}`;
        t.iconPath = new vscode.ThemeIcon('circle-slash');
        return t;
      }
      case 'problem': {
        const t = new vscode.TreeItem(node.path);
        t.id = `problem:${runner.key}:${node.path}`;
        t.description =
          node.kind === 'error'
            ? vscode.l10n.t('{0} — Sync Now retries it', node.reason)
            : vscode.l10n.t('{0} — rename or move it to sync it', node.reason);
        t.tooltip = node.reason;
        t.iconPath = new vscode.ThemeIcon(node.kind === 'error' ? 'error' : 'info');
        return t;
      }
      case 'failure': {
        const t = new vscode.TreeItem(node.message);
        t.id = `failure:${runner.key}`;
        t.iconPath = new vscode.ThemeIcon('error');
        const [fix, command] =
          node.fix === 'signIn'
            ? [vscode.l10n.t('Sign in to the store, then Sync Now'), 'apiWorkbench.storage.signIn']
            : node.fix === 'settings'
              ? [vscode.l10n.t('Check the storage endpoint, then Sync Now'), 'apiWorkbench.switchEndpoints']
              : node.fix === 'state'
                ? [vscode.l10n.t('Move the state file away to compare both sides afresh'), undefined]
                : [vscode.l10n.t('Click to retry (Sync Now)'), 'apiWorkbench.storage.syncNow'];
        t.description = fix;
        t.tooltip = `${node.message}\n\n${fix}`;
        if (command)
          t.command = {
            command,
            title: fix,
            arguments: command === 'apiWorkbench.storage.syncNow' ? [{ type: 'link', runner }] : [],
          };
        return t;
      }
    }
  }
}
