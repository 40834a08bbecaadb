// The results grids open in the window: opening one (a run's, a stored run's, one the window restored), a grid
// moved to a new panel when its page stayed blank, the diff's virtual documents, and Open Evaluation Run….
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import type { CellResult } from '../core/eval/runner';
import { readRun, type StoredRun } from '../core/eval/runStore';
import { EVAL_GRID_VIEW_TYPE, type GridProgress, type GridRestoreState } from '../evalGridProtocol';
import { panelInPlaceOf, PanelTabs, TAB_PANEL_OPTIONS } from '../../platform/panelTabs';
import { EvalGrid, type GridActions, type PageCarry } from './evalGrid';

const DIFF_SCHEME = 'api-workbench-eval';

export class EvalGrids implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly grids: PanelTabs<EvalGrid>;
  /** The texts of the diff's virtual documents, by URI. */
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  /** Test mode only: how the next grid's page loads (a shorter watchdog wait, loads whose ready goes unheard). */
  nextPage: PageCarry | undefined;

  constructor(
    readonly services: WorkbenchServices,
    readonly actions: GridActions,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
    const icon = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'icons', 'workbench.svg');
    this.grids = new PanelTabs<EvalGrid>(icon, (grid) => {
      grid.onStop?.();
      grid.dispose();
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  virtualDocument(stamp: string, c: CellResult): vscode.Uri {
    let json: string | undefined;
    try {
      json = /^\s*[[{]/.test(c.output) ? JSON.stringify(JSON.parse(c.output), null, 2) : undefined;
    } catch {
      json = undefined;
    }
    const text = c.error ? `${c.error.code} ${c.error.status}: ${c.error.message}\n` : (json ?? c.output);
    const safe = c.variant.replace(/[^\w.-]/g, '_');
    const uri = vscode.Uri.from({
      scheme: DIFF_SCHEME,
      path: `/${stamp}/item-${c.item}-${safe}.${json === undefined ? 'md' : 'json'}`,
    });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  /** The grid tab that last had focus (a grid opened takes it). */
  get active(): EvalGrid | undefined {
    return this.grids.lastActive;
  }

  /** Opens a grid of a run (in `restored`, a tab the window brought back); `progress` says how far a live run is. */
  open(
    run: Pick<StoredRun, 'meta' | 'files' | 'cells'>,
    progress?: GridProgress,
    restored?: vscode.WebviewPanel,
  ): EvalGrid {
    const total = run.meta.items.length * run.meta.variants.length;
    const title = vscode.l10n.t('Results: {0}', run.meta.prompt.replace(/^.*[\\/]/, ''));
    const panel =
      restored ??
      vscode.window.createWebviewPanel(EVAL_GRID_VIEW_TYPE, title, vscode.ViewColumn.Active, TAB_PANEL_OPTIONS);
    panel.title = title;
    const grid = new EvalGrid(
      this,
      panel,
      run.meta,
      run.files,
      run.cells,
      progress ?? { done: run.cells.size, total, running: false },
      this.nextPage,
    );
    this.nextPage = undefined;
    this.grids.follow(grid, panel);
    this.grids.lastActive = grid;
    return grid;
  }

  /**
   * A grid whose page stayed blank through the watchdog's reloads: the same grid in a new panel in its place (a
   * new webview host frame), the old panel closed. A run that feeds it goes on; nothing of the grid is lost.
   */
  replace(grid: EvalGrid, carried: PageCarry): void {
    const old = grid.panel;
    const next = panelInPlaceOf(old, EVAL_GRID_VIEW_TYPE, TAB_PANEL_OPTIONS, vscode.ViewColumn.Active);
    grid.showIn(next, carried);
    this.grids.follow(grid, next);
    old.dispose();
  }

  /** Opens a stored run's results file (.jsonl) in a grid. */
  async openFile(resultsPath: string): Promise<EvalGrid> {
    return this.open(await readRun(resultsPath));
  }

  /**
   * A grid tab brought back by a window reload: the run is read again from its file (a run that was going when
   * the window closed shows the cells it saved; Run Evaluation offers to finish it), and so is its comparison.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const s = state as Partial<GridRestoreState> | undefined;
    if (typeof s?.results !== 'string') {
      panel.dispose();
      return;
    }
    let run: StoredRun;
    try {
      run = await readRun(s.results);
    } catch (e) {
      panel.dispose();
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The evaluation run {0} could not be reopened ({1}). Open Evaluation Run… opens another.',
          vscode.workspace.asRelativePath(s.results),
          (e as Error).message,
        ),
      );
      return;
    }
    const grid = this.open(run, undefined, panel);
    if (typeof s.earlier === 'string') await grid.compareWith(s.earlier).catch(() => undefined);
  }

  /** "Open Evaluation Run…": a results file picked from a runs folder. */
  async pickAndOpen(folder?: string): Promise<EvalGrid | undefined> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Open an evaluation run'),
      defaultUri: folder ? vscode.Uri.file(folder) : root && vscode.Uri.joinPath(root, '.api-workbench', 'evals'),
      filters: { [vscode.l10n.t('Evaluation results')]: ['jsonl'] },
      canSelectMany: false,
    });
    if (!picked?.[0]) return undefined;
    try {
      return await this.openFile(picked[0].fsPath);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Cannot open the run: {0}', (e as Error).message));
      return undefined;
    }
  }

  dispose(): void {
    for (const g of [...this.grids.open]) g.panel.dispose();
    this.registration.dispose();
  }
}
