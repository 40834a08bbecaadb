// The evaluation results grid as an editor tab: one WebviewPanel per run, fed the run's cells (live while it
// runs), with the grid's actions: a diff of two cells (vscode.diff of two read-only virtual documents), Open in
// Chat, Export CSV / JSON (save dialog), Compare with an earlier run of the same prompt, and Open Run.
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import { webviewHtml } from '../../platform/webviewHtml';
import { panelFrame, WebviewPage } from '../../platform/webviewPage';
import { cellKey } from '../core/eval/cellKey';
import { compareRuns, gridCsv, gridJson, type CellMark, type RunMeta } from '../core/eval/grid';
import type { CellResult } from '../core/eval/runner';
import { listRuns, readRun, type RunFiles, type StoredRun } from '../core/eval/runStore';
import {
  EVAL_GRID_VIEW_TYPE,
  type CellRef,
  type Comparison,
  type GridProgress,
  type GridRenderedAck,
  type GridRestoreState,
  type GridToHost,
  type HostToGrid,
} from '../evalGridProtocol';

const DIFF_SCHEME = 'api-workbench-eval';

/** A run's stamp (2026-11-29T01-02-03-456Z) as a local date and time; the stamp itself when it is not one. */
function stampTime(stamp: string): string {
  const d = new Date(stamp.replace(/T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/, 'T$1:$2:$3.$4Z'));
  return Number.isNaN(d.getTime()) ? stamp : d.toLocaleString();
}

/** What the grid needs from the rest of the feature: continuing a cell's exchange in the chat. */
export interface GridActions {
  openInChat(meta: RunMeta, cell: CellResult, resultsPath: string): Promise<void>;
}

export class EvalGrid implements vscode.Disposable {
  readonly cells: Map<string, CellResult>;
  private marks = new Map<string, CellMark>();
  private comparison: Comparison | undefined;
  /** The earlier run's file the grid is compared with (kept with the tab). */
  private earlier: string | undefined;
  private ready = false;
  private readonly queue: HostToGrid[] = [];
  private readonly ackWaiters = new Set<(a: GridRenderedAck) => void>();
  lastRendered: GridRenderedAck | undefined;
  /** Set by a live run: what the grid's Stop does. */
  onStop: (() => void) | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly page: WebviewPage;

  constructor(
    private readonly owner: EvalGrids,
    readonly panel: vscode.WebviewPanel,
    readonly meta: RunMeta,
    readonly files: RunFiles,
    cells: ReadonlyMap<string, CellResult>,
    private progress: GridProgress,
  ) {
    this.cells = new Map(cells);
    const { services } = owner;
    panel.webview.options = { enableScripts: true, localResourceRoots: [services.context.extensionUri] };
    this.page = new WebviewPage(panelFrame(panel), {
      name: vscode.l10n.t('evaluation results grid'),
      html: (webview) =>
        webviewHtml(webview, services.context.extensionUri, {
          script: ['dist', 'webview', 'evalGrid.js'],
          css: ['media', 'generation', 'evalGrid.css'],
          title: 'Evaluation results',
          root: { id: 'app' },
        }),
      log: services.log,
    });
    this.disposables.push(
      this.page,
      panel.webview.onDidReceiveMessage((m: GridToHost) => void this.receive(m)),
    );
    this.page.load();
  }

  private disposed = false;

  private post(m: HostToGrid): void {
    // A run goes on saving cells after its grid was closed (Stop follows at once, but a cell may land first).
    if (this.disposed) return;
    if (!this.ready) this.queue.push(m);
    else void this.panel.webview.postMessage(m);
  }

  private init(): void {
    const services = this.owner.services;
    void this.panel.webview.postMessage({
      type: 'init',
      data: {
        meta: this.meta,
        cells: [...this.cells.values()],
        progress: this.progress,
        source: vscode.workspace.asRelativePath(this.files.results),
        comparison: this.comparison,
        testAcks: __TEST_SEAMS__ && services.context.extensionMode === vscode.ExtensionMode.Test,
      },
    } satisfies HostToGrid);
    this.remember();
  }

  private remember(): void {
    const state: GridRestoreState = { results: this.files.results, earlier: this.earlier };
    this.post({ type: 'remember', state });
  }

  /** A cell completed (live): shown at once, and marked when the grid is compared with an earlier run. */
  add(cell: CellResult): void {
    this.cells.set(cellKey(cell.item, cell.variant), cell);
    this.post({ type: 'cells', cells: [cell] });
  }

  setProgress(progress: GridProgress): void {
    this.progress = progress;
    this.post({ type: 'progress', progress });
  }

  /** Marks what got worse or better against the run in `resultsPath`. */
  async compareWith(resultsPath: string): Promise<Comparison> {
    const earlier = await readRun(resultsPath);
    this.marks = compareRuns(this.cells.values(), earlier.cells.values());
    this.comparison = {
      label: earlier.meta.startedAt ? new Date(earlier.meta.startedAt).toLocaleString() : earlier.files.stamp,
      marks: [...this.marks],
    };
    this.earlier = resultsPath;
    this.post({ type: 'comparison', comparison: this.comparison });
    this.remember();
    return this.comparison;
  }

  /** Resolves with the page's next render report that `until` accepts (test mode only). */
  waitForAck(until: (a: GridRenderedAck) => boolean, timeoutMs = 20_000): Promise<GridRenderedAck> {
    if (this.lastRendered && until(this.lastRendered)) return Promise.resolve(this.lastRendered);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.ackWaiters.delete(check);
        reject(new Error(`the grid did not render as expected: ${JSON.stringify(this.lastRendered)}`));
      }, timeoutMs);
      const check = (a: GridRenderedAck) => {
        if (!until(a)) return;
        clearTimeout(timer);
        this.ackWaiters.delete(check);
        resolve(a);
      };
      this.ackWaiters.add(check);
    });
  }

  private async receive(m: GridToHost): Promise<void> {
    try {
      switch (m.type) {
        case 'ready':
          if (!this.page.ready()) return;
          this.ready = true;
          this.init();
          for (const q of this.queue.splice(0)) void this.panel.webview.postMessage(q);
          return;
        case 'rendered':
          this.lastRendered = m;
          for (const w of [...this.ackWaiters]) w(m);
          return;
        case 'stop':
          this.onStop?.();
          return;
        case 'diff':
          return await this.diff(m.a, m.b);
        case 'openInChat': {
          const cell = this.cells.get(cellKey(m.cell.item, m.cell.variant));
          if (cell) await this.owner.actions.openInChat(this.meta, cell, this.files.results);
          return;
        }
        case 'export':
          await this.export(m.format);
          return;
        case 'compare':
          return await this.pickEarlier();
        case 'openRun':
          await this.owner.pickAndOpen(dirname(this.files.results));
          return;
      }
    } catch (e) {
      void vscode.window.showErrorMessage((e as Error).message);
    }
  }

  /** Two cells side by side in VS Code's diff editor (read-only virtual documents of their outputs). */
  async diff(a: CellRef, b: CellRef): Promise<void> {
    const left = this.cells.get(cellKey(a.item, a.variant));
    const right = this.cells.get(cellKey(b.item, b.variant));
    if (!left || !right) return;
    const name = (c: CellResult) => `#${c.item} ${c.variant}`;
    await vscode.commands.executeCommand(
      'vscode.diff',
      this.owner.virtualDocument(this.files.stamp, left),
      this.owner.virtualDocument(this.files.stamp, right),
      vscode.l10n.t('{0} ↔ {1}', name(left), name(right)),
      { preview: true },
    );
  }

  /** Writes the CSV or JSON export to `to`, or where a save dialog says. */
  async export(format: 'csv' | 'json', to?: vscode.Uri): Promise<string | undefined> {
    const target =
      to ??
      (await vscode.window.showSaveDialog({
        title: format === 'csv' ? vscode.l10n.t('Export results as CSV') : vscode.l10n.t('Export results as JSON'),
        defaultUri: vscode.Uri.file(this.files.results.replace(/\.jsonl$/, `.${format}`)),
        filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      }));
    if (!target) return undefined;
    const text =
      format === 'csv' ? gridCsv(this.meta, this.cells, this.marks) : gridJson(this.meta, this.cells, this.marks);
    await writeFile(target.fsPath, text);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Exported {0} cells to {1}.', this.cells.size, vscode.workspace.asRelativePath(target)),
    );
    return target.fsPath;
  }

  /** "Compare with earlier run…": the other runs of this prompt, newest first. */
  async pickEarlier(): Promise<void> {
    const runs = (await listRuns(dirname(this.files.results))).filter((r) => r.stamp !== this.files.stamp);
    if (!runs.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This prompt has no other run to compare with.'));
      return;
    }
    const picked = await vscode.window.showQuickPick(
      runs.map((r) => ({
        label: stampTime(r.stamp),
        description: vscode.workspace.asRelativePath(r.results),
        run: r,
      })),
      { title: vscode.l10n.t('Compare with an earlier run') },
    );
    if (picked) await this.compareWith(picked.run.results);
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export class EvalGrids implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly grids = new Set<EvalGrid>();
  private lastActive: EvalGrid | undefined;
  /** The texts of the diff's virtual documents, by URI. */
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;

  constructor(
    readonly services: WorkbenchServices,
    readonly actions: GridActions,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
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
    return this.lastActive;
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
      vscode.window.createWebviewPanel(
        EVAL_GRID_VIEW_TYPE,
        title,
        { viewColumn: vscode.ViewColumn.Active },
        { enableScripts: true, retainContextWhenHidden: true },
      );
    panel.title = title;
    panel.iconPath = vscode.Uri.joinPath(this.services.context.extensionUri, 'media', 'icons', 'workbench.svg');
    const grid = new EvalGrid(
      this,
      panel,
      run.meta,
      run.files,
      run.cells,
      progress ?? { done: run.cells.size, total, running: false },
    );
    this.grids.add(grid);
    this.lastActive = grid;
    panel.onDidChangeViewState(() => {
      if (panel.active) this.lastActive = grid;
    });
    panel.onDidDispose(() => {
      this.grids.delete(grid);
      if (this.lastActive === grid) this.lastActive = undefined;
      grid.onStop?.();
      grid.dispose();
    });
    return grid;
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
    for (const g of this.grids) g.panel.dispose();
    this.registration.dispose();
  }
}
