// The "Request Log" tree: one item per call, newest first: status, method and path in the label (the
// part a narrow side bar still shows), size and time in the description.
import * as vscode from 'vscode';
import type { RequestEvent } from '../../shared/http/observe';
import { featureName, RequestLogModel, rowDescription, rowLabel, summary } from '../../shared/http/requestLog';

export const OPEN_DETAILS = 'apiWorkbench.requestLog.openDetails';

export class RequestLogTree implements vscode.TreeDataProvider<RequestEvent>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RequestEvent | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stop: () => void;
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly model: RequestLogModel) {
    // Paging and uploads make bursts of calls: refresh the view at most every 100 ms.
    this.stop = model.onChange(() => {
      this.pending ??= setTimeout(() => {
        this.pending = undefined;
        this.changed.fire(undefined);
      }, 100);
    });
  }

  getChildren(element?: RequestEvent): RequestEvent[] {
    return element ? [] : [...this.model.items];
  }

  getTreeItem(e: RequestEvent): vscode.TreeItem {
    const item = new vscode.TreeItem(rowLabel(e), vscode.TreeItemCollapsibleState.None);
    item.id = String(e.id);
    item.description = rowDescription(e);
    item.contextValue = 'request';
    item.iconPath = icon(e);
    item.tooltip = new vscode.MarkdownString(
      [
        `**${e.method}** \`${e.url.replace(/`/g, '%60')}\``,
        '',
        vscode.l10n.t('{0} · {1}', featureName(e.feature), summary(e)),
        '',
        vscode.l10n.t('Started {0}', new Date(e.startedAt).toLocaleTimeString()),
      ].join('\n'),
    );
    item.command = { command: OPEN_DETAILS, title: vscode.l10n.t('Open Details'), arguments: [e] };
    return item;
  }

  dispose(): void {
    this.stop();
    if (this.pending) clearTimeout(this.pending);
    this.changed.dispose();
  }
}

function icon(e: RequestEvent): vscode.ThemeIcon {
  if (e.phase === 'failed' || e.status === undefined)
    return new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  if (e.status >= 400) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  if (e.phase === 'headers') return new vscode.ThemeIcon('cloud-download');
  return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
}
