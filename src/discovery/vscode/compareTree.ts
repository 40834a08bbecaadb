// The Revision Diff view: the last Compare With… report, grouped by severity; an entry reveals its
// place in both revisions side by side, or in VS Code's diff editor.
import * as vscode from 'vscode';
import type { DiffChange, DiffPlace, DiffSeverity } from '../core/diff';

export const DIFF_VIEW_ID = 'apiWorkbench.diffReport';

export interface DiffReport {
  oldUri: vscode.Uri;
  newUri: vscode.Uri;
  oldLabel: string;
  newLabel: string;
  changes: DiffChange[];
}

type Node =
  | { kind: 'group'; severity: DiffSeverity; changes: DiffChange[] }
  | { kind: 'change'; change: DiffChange }
  | { kind: 'message'; text: string };

const GROUPS: { severity: DiffSeverity; title: () => string; icon: vscode.ThemeIcon }[] = [
  {
    severity: 'breaking',
    title: () => vscode.l10n.t('Breaking'),
    icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  },
  {
    severity: 'warning',
    title: () => vscode.l10n.t('Warning'),
    icon: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  },
  { severity: 'info', title: () => vscode.l10n.t('Info'), icon: new vscode.ThemeIcon('info') },
];

function placeText(side: string, place: DiffPlace | null): string {
  return place
    ? vscode.l10n.t('{0}: line {1}, `{2}`', side, place.line, place.pointer || '/')
    : vscode.l10n.t('{0}: absent', side);
}

export class DiffReportTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  report: DiffReport | undefined;
  view: vscode.TreeView<Node> | undefined;

  show(report: DiffReport): void {
    this.report = report;
    if (this.view) {
      this.view.description = `${report.oldLabel} ↔ ${report.newLabel}`;
      const count = report.changes.filter((c) => c.severity === 'breaking').length;
      this.view.badge = count ? { value: count, tooltip: vscode.l10n.t('{0} breaking change(s)', count) } : undefined;
    }
    this.emitter.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    const report = this.report;
    if (!report) return [];
    if (!node) {
      if (!report.changes.length)
        return [
          {
            kind: 'message',
            text: vscode.l10n.t('No changes between {0} and {1}.', report.oldLabel, report.newLabel),
          },
        ];
      return GROUPS.map((g) => ({
        kind: 'group' as const,
        severity: g.severity,
        changes: report.changes.filter((c) => c.severity === g.severity),
      })).filter((g) => g.changes.length > 0);
    }
    return node.kind === 'group' ? node.changes.map((change) => ({ kind: 'change', change })) : [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'message') {
      const t = new vscode.TreeItem(node.text);
      t.iconPath = new vscode.ThemeIcon('pass');
      return t;
    }
    if (node.kind === 'group') {
      const g = GROUPS.find((x) => x.severity === node.severity)!;
      const t = new vscode.TreeItem(g.title(), vscode.TreeItemCollapsibleState.Expanded);
      t.id = `group:${node.severity}`;
      t.description = String(node.changes.length);
      t.iconPath = g.icon;
      return t;
    }
    const c = node.change;
    const t = new vscode.TreeItem(c.message);
    t.description = c.code;
    t.iconPath = GROUPS.find((x) => x.severity === c.severity)!.icon;
    t.tooltip = new vscode.MarkdownString(
      `**${c.code}** (${c.severity})\n\n${c.message}\n\n${placeText(vscode.l10n.t('Old'), c.old)}  \n${placeText(vscode.l10n.t('New'), c.new)}`,
    );
    t.contextValue = 'diffChange';
    t.command = { command: 'apiWorkbench.diffReport.reveal', title: vscode.l10n.t('Reveal'), arguments: [c] };
    return t;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

function lineRange(doc: vscode.TextDocument, place: DiffPlace): vscode.Range {
  const line = Math.min(Math.max(place.line - 1, 0), doc.lineCount - 1);
  return doc.lineAt(line).range;
}

async function showAt(uri: vscode.Uri, place: DiffPlace, column: vscode.ViewColumn): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const range = lineRange(doc, place);
  return vscode.window.showTextDocument(doc, { viewColumn: column, selection: range, preview: true });
}

/** Both revisions side by side (old left, new right), each at the change's line where it has one. */
export async function revealChange(report: DiffReport, change: DiffChange): Promise<vscode.TextEditor[]> {
  const editors: vscode.TextEditor[] = [];
  if (change.old) editors.push(await showAt(report.oldUri, change.old, vscode.ViewColumn.One));
  if (change.new) editors.push(await showAt(report.newUri, change.new, vscode.ViewColumn.Two));
  for (const e of editors) e.revealRange(e.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editors;
}

/** VS Code's diff editor on the two revisions, at the change's line on the new (modified) side when it has one. */
export async function openDiffEditor(report: DiffReport, change?: DiffChange): Promise<void> {
  const title = vscode.l10n.t('{0} ↔ {1}', report.oldLabel, report.newLabel);
  const selection = change?.new
    ? lineRange(await vscode.workspace.openTextDocument(report.newUri), change.new)
    : undefined;
  await vscode.commands.executeCommand('vscode.diff', report.oldUri, report.newUri, title, {
    selection,
    preview: true,
  });
}
