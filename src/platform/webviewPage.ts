// Sets a webview's page and sees that it loads. Every page of ours posts `ready` once its script runs; a page
// that has not done so within a few seconds of being visible is set again (new html, new nonce), up to three
// times, each time logged with the surface's name; after that one warning tells the user to reload the window.
// (VS Code's webview frame can wait for good for its service worker, e.g. after a window reload in a browser;
// see ARCHITECTURE.md, "Webview bundles and their protocols".) The clock is src/shared/readyWatch.ts.
import * as vscode from 'vscode';
import { loadBudgetMs, ReadyWatch } from '../shared/readyWatch';

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
  /**
   * A panel can be replaced by a new one in its place: its last reload does that instead of setting the html,
   * since only a new host frame recovers one that waits for its service worker (setting the html again posts the
   * page to the same frame, which holds it until that wait ends). Views cannot be replaced. The new panel's page
   * gets what this one carries over: the reloads made (so the count goes on) and, in test mode, silent loads left.
   */
  replace?: (carried: { reloadsDone: number; silentLoads: number; readyMs?: number }) => void;
  /** Reloads made for the surface this page replaces (the count goes on: no endless replacing). */
  reloadsDone?: number;
  /** Test mode only: a shorter wait. */
  readyMs?: number;
  /** Test mode only: how many loads' `ready` go unheard, as when the frame never loads the page. */
  silentLoads?: number;
}

export class WebviewPage implements vscode.Disposable {
  private readonly watch: ReadyWatch;
  private readonly visibility: vscode.Disposable;
  /** Loads set so far (test mode: the first `silentLoads` of them are silent, whatever their timing). */
  private loads = 0;
  /** Reloads since the page last reported ready, this page's and those carried over. */
  private reloads: number;

  constructor(
    private readonly frame: PageFrame,
    private readonly options: WebviewPageOptions,
  ) {
    this.reloads = options.reloadsDone ?? 0;
    const readyMs = options.readyMs ?? PAGE_READY_MS;
    this.watch = new ReadyWatch(
      {
        delayMs: readyMs,
        reloads: PAGE_RELOADS,
        reload: (attempt) => this.reload(attempt, readyMs),
        giveUp: () => this.giveUp(readyMs),
        reloadsDone: options.reloadsDone,
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
    if (this.loads <= (this.options.silentLoads ?? 0)) {
      this.options.log.info(`webview: test seam: the ${this.options.name} page's ready of load ${this.loads} unheard`);
      return false;
    }
    if (this.reloads > 0)
      this.options.log.info(`webview: the ${this.options.name} page loaded after ${this.reloads} reloads`);
    this.reloads = 0;
    this.watch.ready();
    return true;
  }

  dispose(): void {
    this.watch.dispose();
    this.visibility.dispose();
  }

  private reload(attempt: number, readyMs: number): void {
    this.reloads = attempt;
    const replace = attempt === PAGE_RELOADS ? this.options.replace : undefined;
    this.options.log.warn(
      `webview: the ${this.options.name} page did not report ready within ${seconds(loadBudgetMs(readyMs, attempt - 1))} s of being shown; ` +
        `${replace ? 'replacing its panel with a new one' : 'setting it again'} (${attempt} of ${PAGE_RELOADS})`,
    );
    if (!replace) return this.load();
    try {
      replace({
        reloadsDone: attempt,
        silentLoads: Math.max(0, (this.options.silentLoads ?? 0) - this.loads),
        readyMs: this.options.readyMs,
      });
    } catch (e) {
      this.options.log.error(`webview: the ${this.options.name} panel could not be replaced: ${String(e)}`);
      this.load();
    }
  }

  private giveUp(readyMs: number): void {
    this.options.log.error(
      `webview: the ${this.options.name} page stayed blank after ${PAGE_RELOADS} more loads ` +
        `(${seconds(readyMs)} s visible at first, half as long again each time); telling the user to reload the window`,
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

const seconds = (ms: number) => String(Math.round(ms / 100) / 10);
