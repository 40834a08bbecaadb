// Sets a webview's page and sees that it loads. Every page of ours posts `ready` once its script runs; a page
// that has not done so within a few seconds of being visible is set again (new html, new nonce), up to three
// times, each time logged with the surface's name; after that one warning tells the user to reload the window.
// (VS Code's webview frame can wait for good for its service worker, e.g. after a window reload in a browser;
// see ARCHITECTURE.md, "Webview bundles and their protocols".) The clock is src/shared/readyWatch.ts.
import * as vscode from 'vscode';
import { ReadyWatch } from '../shared/readyWatch';

/** Visible time a page may take to report ready before it is set again. */
export const PAGE_READY_MS = 8000;
/** How many times in a row a silent page is set again. */
export const PAGE_RELOADS = 3;

/** A webview with what tells whether it is shown: a panel's or a view's. */
export interface PageFrame {
  readonly webview: vscode.Webview;
  readonly visible: boolean;
  onDidChangeVisible(listener: (visible: boolean) => void): vscode.Disposable;
}

export function panelFrame(panel: vscode.WebviewPanel): PageFrame {
  return {
    webview: panel.webview,
    get visible() {
      return panel.visible;
    },
    onDidChangeVisible: (listener) => panel.onDidChangeViewState((e) => listener(e.webviewPanel.visible)),
  };
}

export function viewFrame(view: vscode.WebviewView): PageFrame {
  return {
    webview: view.webview,
    get visible() {
      return view.visible;
    },
    onDidChangeVisible: (listener) => view.onDidChangeVisibility(() => listener(view.visible)),
  };
}

export interface WebviewPageOptions {
  /** The surface as the user knows it (already localised): "Generation chat". */
  name: string;
  /** A fresh page (a new nonce each call). */
  html(webview: vscode.Webview): string;
  log: vscode.LogOutputChannel;
  /** Test mode only: a shorter wait. */
  readyMs?: number;
  /** Test mode only: how many loads' `ready` go unheard, as when the frame never loads the page. */
  silentLoads?: number;
}

export class WebviewPage implements vscode.Disposable {
  private readonly watch: ReadyWatch;
  private readonly visibility: vscode.Disposable;
  private silentLoads: number;
  private loads = 0;

  constructor(
    private readonly frame: PageFrame,
    private readonly options: WebviewPageOptions,
  ) {
    this.silentLoads = options.silentLoads ?? 0;
    const readyMs = options.readyMs ?? PAGE_READY_MS;
    this.watch = new ReadyWatch(
      {
        delayMs: readyMs,
        reloads: PAGE_RELOADS,
        reload: (attempt) => {
          options.log.warn(
            `webview: the ${options.name} page did not report ready within ${readyMs / 1000} s of being shown; ` +
              `setting it again (${attempt} of ${PAGE_RELOADS})`,
          );
          this.load();
        },
        giveUp: () => this.giveUp(readyMs),
      },
      frame.visible,
    );
    this.visibility = frame.onDidChangeVisible((visible) => this.watch.setVisible(visible));
  }

  get webview(): vscode.Webview {
    return this.frame.webview;
  }

  /** Sets the page (again): a new load, watched until it reports ready. */
  load(): void {
    this.loads++;
    this.frame.webview.html = this.options.html(this.frame.webview);
    this.watch.started();
  }

  /** The page posted `ready`; false when the test seam made this load silent (the caller then ignores it). */
  ready(): boolean {
    if (this.silentLoads > 0) {
      this.silentLoads--;
      this.options.log.info(`webview: test seam: the ${this.options.name} page's ready of load ${this.loads} unheard`);
      return false;
    }
    if (this.loads > 1) this.options.log.info(`webview: the ${this.options.name} page loaded (load ${this.loads})`);
    this.loads = 0;
    this.watch.ready();
    return true;
  }

  dispose(): void {
    this.watch.dispose();
    this.visibility.dispose();
  }

  private giveUp(readyMs: number): void {
    this.options.log.error(
      `webview: the ${this.options.name} page stayed blank after ${PAGE_RELOADS} more loads ` +
        `(${readyMs / 1000} s visible each); telling the user to reload the window`,
    );
    const reload = vscode.l10n.t('Reload Window');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t('The {0} did not load. Reload Window to show it again.', this.options.name),
        reload,
      )
      .then((answer) =>
        answer === reload ? vscode.commands.executeCommand('workbench.action.reloadWindow') : undefined,
      );
  }
}
