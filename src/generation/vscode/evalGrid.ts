// The evaluation results grid as an editor tab: one WebviewPanel per run, fed the run's cells (live while it
// runs), with the grid's actions: a diff of two cells (vscode.diff of two read-only virtual documents), Open in
// Chat, Export CSV / JSON (save dialog), Compare with an earlier run of the same prompt, and Open Run.
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { webviewHtml } from '../../platform/webviewHtml';
import { panelFrame, WebviewPage, type WebviewPageOptions } from '../../platform/webviewPage';
import { cellKey } from '../core/eval/cellKey';
import { compareRuns, gridCsv, gridJson, type CellMark, type RunMeta } from '../core/eval/grid';
import type { CellResult } from '../core/eval/runner';
import { listRuns, readRun, type RunFiles } from '../core/eval/runStore';
import {
  type CellRef,
  type Comparison,
  type GridProgress,
  type GridRenderedAck,
  type GridRestoreState,
  type GridToHost,
  type HostToGrid,
} from '../evalGridProtocol';
import type { EvalGrids } from './evalGrids';

/** How a grid's page is watched: what a replacing panel carries over, or (test mode) how the next grid loads. */
export type PageCarry = Partial<Pick<WebviewPageOptions, 'reloadsDone' | 'silentLoads' | 'readyMs'>>;

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
  /** What belongs to the panel the grid is shown in (its page, its messages): replaced with the panel. */
  private framed: vscode.Disposable[] = [];
  private page!: WebviewPage;
  private shownIn!: vscode.WebviewPanel;

  constructor(
    private readonly owner: EvalGrids,
    panel: vscode.WebviewPanel,
    readonly meta: RunMeta,
    readonly files: RunFiles,
    cells: ReadonlyMap<string, CellResult>,
    private progress: GridProgress,
    page?: PageCarry,
  ) {
    this.cells = new Map(cells);
    this.showIn(panel, page);
  }

  /** The tab's panel (a new one when the page watchdog replaced a blank one). */
  get panel(): vscode.WebviewPanel {
    return this.shownIn;
  }

  /**
   * Shows the grid in `panel`, its first or one in place of a panel whose page stayed blank: the page is set and
   * watched, and once it reports ready it gets the whole grid (the cells of a live run go on arriving meanwhile).
   */
  showIn(panel: vscode.WebviewPanel, page: PageCarry = {}): void {
    for (const d of this.framed.splice(0)) d.dispose();
    this.shownIn = panel;
    this.ready = false;
    const { services } = this.owner;
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
      replace: (carried) => this.owner.replace(this, carried),
      ...page,
    });
    this.framed.push(
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
    for (const d of this.framed.splice(0)) d.dispose();
  }
}
