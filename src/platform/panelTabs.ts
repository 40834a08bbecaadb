// Editor tabs of one kind, each a webview panel that the page watchdog may move to a new panel in its place
// (src/platform/webviewPage.ts): which tab had focus last, and what closing one ends. A tab whose panel was
// replaced is not closed by the old panel's going.
import * as vscode from 'vscode';

/** What every editor tab's panel of ours is made with: scripts on, the page kept while the tab is hidden. */
export const TAB_PANEL_OPTIONS = { enableScripts: true, retainContextWhenHidden: true };

export interface PanelTab {
  /** The tab's panel now (a new one after a replacement). */
  readonly panel: vscode.WebviewPanel;
}

export class PanelTabs<T extends PanelTab> {
  readonly open = new Set<T>();
  /** The tab that last had focus (a tab opened takes it), until it closes. */
  lastActive: T | undefined;

  constructor(
    private readonly icon: vscode.Uri,
    /** The tab's last panel closed: end what it holds. */
    private readonly closed: (tab: T) => void,
  ) {}

  /** Follows `panel` as `tab`'s: its focus and its closing. Called for a tab's first panel and each one after. */
  follow(tab: T, panel: vscode.WebviewPanel): void {
    this.open.add(tab);
    panel.iconPath = this.icon;
    panel.onDidChangeViewState(() => {
      if (panel.active) this.lastActive = tab;
    });
    panel.onDidDispose(() => {
      if (tab.panel !== panel) return;
      this.open.delete(tab);
      if (this.lastActive === tab) this.lastActive = undefined;
      this.closed(tab);
    });
  }
}

/**
 * A new panel where `old` is (its column and title) to take its place; it takes the focus only when `focus` says
 * (by default, when the old one had it).
 */
export function panelInPlaceOf(
  old: vscode.WebviewPanel,
  viewType: string,
  options: vscode.WebviewPanelOptions & vscode.WebviewOptions,
  fallbackColumn: vscode.ViewColumn,
  focus = old.active,
): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(
    viewType,
    old.title,
    { viewColumn: old.viewColumn ?? fallbackColumn, preserveFocus: !focus },
    options,
  );
}
