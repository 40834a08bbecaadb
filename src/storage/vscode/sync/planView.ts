// The plan view: what a link's first run (or a run the max-delete guard stopped) would do, grouped by
// direction, one checkbox per item (unchecked items are left out of the link: added to its `exclude`), for
// each conflict the choice keep both / keep local / keep store, and for each deletion delete or restore (the
// other side's copy comes back). Apply runs it with those choices.
import * as vscode from 'vscode';
import { restorable, type ConflictChoice, type PlanChoice } from '../../core/sync/choices';
import { isDeletion, type Action, type Plan, type SyncMode } from '../../core/sync/model';
import { within } from '../../core/sync/names';

export const PLAN_VIEW_ID = 'apiWorkbench.storage.syncPlan';
export const PLAN_OPEN_CONTEXT = 'apiWorkbench.storage.syncPlanOpen';

type Group = 'upload' | 'download' | 'delete-store' | 'delete-local' | 'move-store' | 'move-local' | 'conflict';

export type PlanNode =
  | { type: 'group'; group: Group; items: PlanItem[] }
  | { type: 'item'; item: PlanItem }
  | { type: 'skipped'; path: string; reason: string };

export interface PlanItem {
  /** The path the checkbox excludes (a move: where it is now on the side that moved). */
  path: string;
  label: string;
  action: Action;
  group: Group;
}

/** A plan waiting for the user: for which link, why, and what they chose so far. */
export interface PlanSession {
  linkKey: string;
  title: string;
  reason: 'first' | 'maxDelete';
  mode: SyncMode;
  plan: Plan;
  excluded: Set<string>;
  choices: Map<string, PlanChoice>;
}

function groupOf(a: Action): Group {
  switch (a.kind) {
    case 'upload':
    case 'mkdir-store':
    case 'untrash-store':
      return 'upload';
    case 'download':
    case 'mkdir-local':
      return 'download';
    case 'rename-store':
      return 'move-store';
    case 'rename-local':
      return 'move-local';
    default:
      return a.kind;
  }
}

const ORDER: Group[] = ['conflict', 'upload', 'download', 'move-store', 'move-local', 'delete-store', 'delete-local'];

function groupLabel(g: Group, n: number): string {
  switch (g) {
    case 'upload':
      return vscode.l10n.t('Upload ({0})', n);
    case 'download':
      return vscode.l10n.t('Download ({0})', n);
    case 'delete-store':
      return vscode.l10n.t('Delete on the store ({0})', n);
    case 'delete-local':
      return vscode.l10n.t('Delete here ({0})', n);
    case 'move-store':
      return vscode.l10n.t('Move on the store ({0})', n);
    case 'move-local':
      return vscode.l10n.t('Move here ({0})', n);
    case 'conflict':
      return vscode.l10n.t('Conflicts ({0})', n);
  }
}

function groupTooltip(g: Group): string {
  switch (g) {
    case 'upload':
      return vscode.l10n.t('New or changed here: sent to the store.');
    case 'download':
      return vscode.l10n.t('New or changed on the store: written into this folder.');
    case 'delete-store':
      return vscode.l10n.t("Deleted here: moved to the store's trash.");
    case 'delete-local':
      return vscode.l10n.t('Deleted on the store: moved to the sync trash in .api-workbench-sync.');
    case 'move-store':
      return vscode.l10n.t('Moved or renamed here: the same move on the store.');
    case 'move-local':
      return vscode.l10n.t('Moved or renamed on the store: the same move here.');
    case 'conflict':
      return vscode.l10n.t('Changed on both sides. Right-click one to choose which version to keep.');
  }
}

export function choiceLabel(c: ConflictChoice): string {
  return c === 'keep-local'
    ? vscode.l10n.t('keep local')
    : c === 'keep-store'
      ? vscode.l10n.t('keep store')
      : vscode.l10n.t('keep both');
}

export class PlanTreeProvider implements vscode.TreeDataProvider<PlanNode> {
  session: PlanSession | undefined;
  private readonly changed = new vscode.EventEmitter<PlanNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: PlanNode[] = [];

  show(session: PlanSession | undefined): void {
    this.session = session;
    this.roots = [];
    if (session) {
      const items = session.plan.actions.map((a): PlanItem => {
        const p = 'path' in a ? a.path : a.from;
        const label = a.kind === 'rename-local' || a.kind === 'rename-store' ? `${a.from} → ${a.to}` : p;
        return { path: p, label, action: a, group: groupOf(a) };
      });
      for (const g of ORDER) {
        const of = items.filter((i) => i.group === g);
        if (of.length) this.roots.push({ type: 'group', group: g, items: of });
      }
      for (const s of session.plan.skipped) this.roots.push({ type: 'skipped', path: s.path, reason: s.reason });
    }
    this.changed.fire(undefined);
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: PlanNode): PlanNode[] {
    if (!node) return this.roots;
    return node.type === 'group' ? node.items.map((item) => ({ type: 'item', item })) : [];
  }

  /** Whether the item at `path` is left out (itself, or a folder above it). */
  excluded(path: string): boolean {
    return [...(this.session?.excluded ?? [])].some((x) => within(path, x));
  }

  getTreeItem(node: PlanNode): vscode.TreeItem {
    const s = this.session;
    if (node.type === 'skipped') {
      const t = new vscode.TreeItem(node.path);
      t.description = vscode.l10n.t('not synced: {0}', node.reason);
      t.iconPath = new vscode.ThemeIcon('circle-slash');
      t.contextValue = 'syncPlan.skipped';
      return t;
    }
    if (node.type === 'group') {
      const t = new vscode.TreeItem(
        groupLabel(node.group, node.items.length),
        vscode.TreeItemCollapsibleState.Expanded,
      );
      t.id = `group:${node.group}`;
      t.tooltip = groupTooltip(node.group);
      t.iconPath = new vscode.ThemeIcon(
        node.group === 'conflict'
          ? 'warning'
          : node.group === 'upload'
            ? 'cloud-upload'
            : node.group === 'download'
              ? 'cloud-download'
              : node.group.startsWith('delete')
                ? 'trash'
                : 'arrow-right',
      );
      t.checkboxState = node.items.every((i) => this.excluded(i.path))
        ? vscode.TreeItemCheckboxState.Unchecked
        : vscode.TreeItemCheckboxState.Checked;
      t.contextValue =
        (node.group === 'delete-store' || node.group === 'delete-local') && s && restorable(s.mode, node.group)
          ? 'syncPlan.group.restorable'
          : 'syncPlan.group';
      return t;
    }
    const { item } = node;
    const a = item.action;
    const t = new vscode.TreeItem(item.label);
    t.id = `item:${item.group}:${item.path}`;
    const off = this.excluded(item.path);
    t.checkboxState = off ? vscode.TreeItemCheckboxState.Unchecked : vscode.TreeItemCheckboxState.Checked;
    if (isDeletion(a) && s && restorable(s.mode, a.kind)) {
      const restore = s.choices.get(a.path) === 'restore';
      t.description = off
        ? vscode.l10n.t('left out')
        : restore
          ? a.kind === 'delete-store'
            ? vscode.l10n.t('restore: the store copy comes back here')
            : vscode.l10n.t('restore: the local copy goes back to the store')
          : a.folder
            ? vscode.l10n.t('folder, {0} file(s)', a.files)
            : undefined;
      t.tooltip = restore
        ? vscode.l10n.t('Not deleted: Apply copies it back where it was deleted. Right-click to delete it after all.')
        : vscode.l10n.t('Right-click to restore it instead of deleting it.');
      t.contextValue = restore ? 'syncPlan.delete.restore' : 'syncPlan.delete.delete';
    } else if (a.kind === 'conflict') {
      const choice = (s?.choices.get(a.path) as ConflictChoice | undefined) ?? 'keep-both';
      t.description = off ? vscode.l10n.t('left out') : choiceLabel(choice);
      t.tooltip =
        choice === 'keep-local'
          ? vscode.l10n.t('The local version replaces the store version.')
          : choice === 'keep-store'
            ? vscode.l10n.t('The store version replaces the local file.')
            : vscode.l10n.t('The store version keeps this name; the local one is kept as {0} on both sides.', a.copy);
      t.contextValue = `syncPlan.conflict.${a.mode}`;
    } else {
      t.description = off
        ? vscode.l10n.t('left out')
        : 'size' in a
          ? bytes(a.size)
          : a.kind.startsWith('mkdir')
            ? vscode.l10n.t('new folder')
            : isDeletion(a) && a.folder
              ? vscode.l10n.t('folder, {0} file(s)', a.files)
              : undefined;
      t.contextValue = 'syncPlan.item';
    }
    t.iconPath = new vscode.ThemeIcon(a.kind.startsWith('mkdir') || ('folder' in a && a.folder) ? 'folder' : 'file');
    return t;
  }
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
