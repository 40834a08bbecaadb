// Notebook controllers — one per environment, so the kernel picker in the notebook toolbar is where the
// user chooses sandbox, production or QA for that notebook. Thin: all query logic lives in ../core.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import { sameResult, WATER_RESULT_MIME, type HostToRenderer, type RendererToHost, type WaterResult } from '../protocol';
import { AttributionCache } from '../core/attribution';
import { WaterClient } from '../core/client';
import { WaterApiError } from '../core/errors';
import { countOf } from '../core/partition';
import { continueResult, loadMoreRows, runQuery, wireRequest } from '../core/run';
import { summarizeResult } from '../core/summary';
import { analyzeQuery, hasErrors } from '../core/validate';
import {
  CONTROLLER_PREFIX,
  ENVIRONMENTS,
  NOTEBOOK_TYPE,
  QUERY_LANGUAGE,
  RENDERER_ID,
  type WaterEnvironment,
} from './constants';
import { resolveWaterEndpoint } from './endpoint';
import { exportResult } from './exportResult';

const LABELS: Record<WaterEnvironment, { label: string; description: string }> = {
  sandbox: {
    label: 'Water data: Sandbox',
    description: 'built-in emulator, or apiWorkbench.waterData.baseUrl when set',
  },
  production: { label: 'Water data: Production', description: 'api.datastream.org' },
  qa: { label: 'Water data: QA', description: 'api.qa.datastream.org' },
};

function isEnvironment(v: unknown): v is WaterEnvironment {
  return typeof v === 'string' && (ENVIRONMENTS as readonly string[]).includes(v);
}

export function environmentOf(nb: vscode.NotebookDocument): WaterEnvironment {
  const env: unknown = nb.metadata?.environment;
  return isEnvironment(env) ? env : 'sandbox';
}

const FETCH_ALL_CAP = 100_000;

function rowLimit(): number {
  return Math.max(1, vscode.workspace.getConfiguration('apiWorkbench.waterData').get<number>('rowLimit', 10000));
}

export class WaterKernel implements vscode.Disposable {
  private readonly controllers = new Map<WaterEnvironment, vscode.NotebookController>();
  private readonly disposables: vscode.Disposable[] = [];
  private executionOrder = 0;
  /** Notebooks for which some controller of ours is selected. */
  private readonly withKernel = new WeakSet<vscode.NotebookDocument>();
  readonly attributions = new AttributionCache();
  private readonly messaging: vscode.NotebookRendererMessaging;
  /** Results being continued: a second click while the first fetch runs would append the same rows twice. */
  private readonly continuing = new Set<string>();

  constructor(private readonly services: WorkbenchServices) {
    for (const env of ENVIRONMENTS) {
      const c = vscode.notebooks.createNotebookController(CONTROLLER_PREFIX + env, NOTEBOOK_TYPE, LABELS[env].label);
      c.description = LABELS[env].description;
      c.supportedLanguages = [QUERY_LANGUAGE];
      c.supportsExecutionOrder = true;
      c.executeHandler = (cells) => this.executeCells(env, c, cells);
      this.disposables.push(
        c,
        c.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
          if (selected) this.withKernel.add(notebook);
          if (selected && environmentOf(notebook) !== env) void this.rememberEnvironment(notebook, env);
        }),
      );
      this.controllers.set(env, c);
    }
    const prefer = (nb: vscode.NotebookDocument) => {
      if (nb.notebookType === NOTEBOOK_TYPE)
        this.controllers
          .get(environmentOf(nb))
          ?.updateNotebookAffinity(nb, vscode.NotebookControllerAffinity.Preferred);
    };
    vscode.workspace.notebookDocuments.forEach(prefer);
    this.disposables.push(vscode.workspace.onDidOpenNotebookDocument(prefer));
    // With three kernels VS Code would ask on the first run; a new user should just see results, so the
    // notebook's saved environment (sandbox by default) is selected when its editor first shows.
    const autoSelect = (editor: vscode.NotebookEditor | undefined) => {
      if (!editor || editor.notebook.notebookType !== NOTEBOOK_TYPE || this.withKernel.has(editor.notebook)) return;
      // The command acts on the active notebook editor, which is the one that just showed.
      void vscode.commands.executeCommand('notebook.selectKernel', {
        id: CONTROLLER_PREFIX + environmentOf(editor.notebook),
        extension: services.context.extension.id,
      });
    };
    autoSelect(vscode.window.activeNotebookEditor);
    this.disposables.push(vscode.window.onDidChangeActiveNotebookEditor(autoSelect));

    const messaging = (this.messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID));
    this.disposables.push(
      messaging.onDidReceiveMessage((e) => void this.onRendererMessage(e.editor, e.message as RendererToHost)),
    );
  }

  private async rememberEnvironment(nb: vscode.NotebookDocument, env: WaterEnvironment): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...nb.metadata, environment: env })]);
    await vscode.workspace.applyEdit(edit);
  }

  async client(env: WaterEnvironment, onRetry?: (s: string) => void): Promise<WaterClient> {
    const ep = await resolveWaterEndpoint(this.services, env);
    return new WaterClient({
      baseUrl: ep.baseUrl,
      apiKey: ep.apiKey,
      userAgent: `api-workbench vscode/${vscode.version}`,
      onRetry: (r) =>
        onRetry?.(`HTTP ${r.status}: waiting ${Math.round(r.delayMs / 100) / 10} s before retry ${r.attempt}…`),
    });
  }

  private async executeCells(
    env: WaterEnvironment,
    controller: vscode.NotebookController,
    cells: vscode.NotebookCell[],
  ): Promise<void> {
    for (const cell of cells) {
      if (cell.kind !== vscode.NotebookCellKind.Code) continue;
      // Like a script: stop at the first failure or cancellation, later cells may depend on it.
      const outcome = await this.executeCell(env, controller, cell);
      if (outcome !== 'ok') break;
    }
  }

  private async executeCell(
    env: WaterEnvironment,
    controller: vscode.NotebookController,
    cell: vscode.NotebookCell,
  ): Promise<'ok' | 'failed' | 'cancelled'> {
    const execution = controller.createNotebookCellExecution(cell);
    execution.executionOrder = ++this.executionOrder;
    execution.start(Date.now());
    await execution.clearOutput();
    const abort = new AbortController();
    const sub = execution.token.onCancellationRequested(() => abort.abort());
    let finished = false;
    let lastProgress = 0;
    let updates: Promise<unknown> = Promise.resolve();
    const settle = async () => {
      finished = true;
      await updates;
    };
    try {
      const parsed = analyzeQuery(cell.document.getText());
      if (hasErrors(parsed)) {
        const doc = cell.document;
        const lines = parsed.diagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => {
            const p = doc.positionAt(d.start);
            return `line ${p.line + 1}, column ${p.character + 1}: ${d.message}`;
          });
        await execution.replaceOutput(
          new vscode.NotebookCellOutput([
            vscode.NotebookCellOutputItem.error({ name: 'Invalid query', message: lines.join('\n') }),
          ]),
        );
        execution.end(false, Date.now());
        return 'failed';
      }
      const progress = (text: string) => {
        const now = Date.now();
        if (finished || now - lastProgress < 250) return;
        lastProgress = now;
        // Chained so a late progress line can never land after (and over) the result.
        updates = updates
          .then(() =>
            execution.replaceOutput(new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(text)])),
          )
          .catch(() => undefined);
      };
      const client = await this.client(env, progress);
      const result = await runQuery(parsed, {
        client,
        attributions: this.attributions,
        rowLimit: rowLimit(),
        signal: abort.signal,
        onProgress: (p) =>
          progress(`Fetching… ${p.pages} page${p.pages === 1 ? '' : 's'}, ${p.rows.toLocaleString('en')} rows`),
      });
      await settle();
      await execution.replaceOutput(resultOutput({ resultId: randomUUID(), ...result }));
      execution.end(true, Date.now());
      return 'ok';
    } catch (e) {
      await settle();
      await this.showError(execution, e);
      execution.end(false, Date.now());
      return abort.signal.aborted ? 'cancelled' : 'failed';
    } finally {
      sub.dispose();
    }
  }

  private async showError(execution: vscode.NotebookCellExecution, e: unknown): Promise<void> {
    if (e instanceof WaterApiError && e.kind === 'cancelled') {
      await execution.replaceOutput(new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text('Cancelled.')]));
      return;
    }
    const err = e instanceof WaterApiError ? e : undefined;
    const message = err ? `${err.message}\n${err.advice}`.trim() : String((e as Error)?.message ?? e);
    await execution.replaceOutput(
      new vscode.NotebookCellOutput([
        vscode.NotebookCellOutputItem.error({ name: err ? 'Water-quality API error' : 'Error', message }),
      ]),
    );
    if (err?.keyProblem) {
      void vscode.window.showErrorMessage(err.message, vscode.l10n.t('Set API key')).then((choice) => {
        if (choice) void vscode.commands.executeCommand('apiWorkbench.setCredential', 'waterData');
      });
    }
  }

  private findResultCell(
    nb: vscode.NotebookDocument,
    ref: { resultId?: string; requestUrl: string },
  ): vscode.NotebookCell | undefined {
    return nb.getCells().find((cell) => !!resultIn(cell, ref));
  }

  private async onRendererMessage(editor: vscode.NotebookEditor, message: RendererToHost): Promise<void> {
    if (
      !message ||
      typeof message !== 'object' ||
      typeof message.requestUrl !== 'string' ||
      message.type === 'rendered'
    )
      return;
    const cell = this.findResultCell(editor.notebook, message);
    if (!cell) return;
    if (message.type === 'export') {
      const found = resultIn(cell, message);
      if (found) await exportResult(found.result, message.format);
    } else {
      await this.continueCell(cell, message.type === 'fetchAll' ? 'all' : 'more', { ref: message, editor });
    }
  }

  /**
   * "Load more" adds one row-limit's worth; "fetch all" continues to the end, unless the rest is over the
   * partition threshold — then the rows belong in a file, and the CSV export (partitioned) is offered.
   * The new rows go to the renderer showing the output (appendRows) and into the stored output, which
   * the renderer then recognises and does not redraw; with no renderer listening the output is replaced.
   */
  async continueCell(
    cell: vscode.NotebookCell,
    how: 'more' | 'all',
    from: { ref?: { resultId?: string; requestUrl: string }; editor?: vscode.NotebookEditor } = {},
  ): Promise<WaterResult | undefined> {
    const found = resultIn(cell, from.ref);
    const result = found?.result;
    if (!found || !result?.nextLink) return result;
    const key = result.resultId ?? `${cell.document.uri.toString()} ${result.requestUrl}`;
    if (this.continuing.has(key)) return undefined;
    this.continuing.add(key);
    const env = environmentOf(cell.notebook);
    const limit = rowLimit();
    const threshold = vscode.workspace
      .getConfiguration('apiWorkbench.waterData')
      .get<number>('partitionThreshold', 1_000_000);
    const execution = this.controllers.get(env)!.createNotebookCellExecution(cell);
    // Continuing a result is part of the same run: the cell keeps its run number.
    execution.executionOrder = cell.executionSummary?.executionOrder;
    execution.start(Date.now());
    const abort = new AbortController();
    const sub = execution.token.onCancellationRequested(() => abort.abort());
    try {
      const client = await this.client(env);
      let extra = loadMoreRows(result, limit);
      if (how === 'all') {
        const parsed = analyzeQuery(cell.document.getText());
        const total = parsed.entitySet
          ? await countOf(client, parsed.entitySet, wireRequest(parsed).filter, abort.signal)
          : undefined;
        // Beyond this a notebook output (JSON in the editor's memory) stops being usable; a file is the place.
        const cap = Math.min(threshold, Math.max(limit, FETCH_ALL_CAP));
        if (total && total.value > cap) {
          execution.end(true, Date.now());
          const go = await vscode.window.showWarningMessage(
            vscode.l10n.t(
              'This query matches {0}{1} rows: too many for a notebook output. Export them to a CSV file (streamed{2})?',
              total.estimate ? 'about ' : '',
              total.value.toLocaleString('en'),
              total.value > threshold ? ', partitioned by location' : '',
            ),
            vscode.l10n.t('Export Query to CSV'),
          );
          if (go) await vscode.commands.executeCommand('apiWorkbench.waterData.exportQueryCsv', cell);
          return result;
        }
        extra = Math.max(limit, (total?.value ?? cap) - result.rows.length);
      }
      // Progress goes to the status bar: replacing the output with it would take the shown rows away.
      const fetched = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Water data') },
        (progress) =>
          continueResult(result, extra, {
            client,
            attributions: this.attributions,
            rowLimit: limit,
            signal: abort.signal,
            onProgress: (p) =>
              progress.report({ message: `fetching more… ${p.pages} pages, ${p.rows.toLocaleString('en')} rows` }),
          }),
      );
      const next: WaterResult = result.resultId ? { resultId: result.resultId, ...fetched } : fetched;
      const message: HostToRenderer = {
        type: 'appendRows',
        ...(result.resultId ? { resultId: result.resultId } : {}),
        requestUrl: result.requestUrl,
        rows: next.rows.slice(result.rows.length),
        nextLink: next.nextLink,
        pages: next.pages,
        truncated: !!next.truncated,
        attributions: next.attributions,
        warnings: next.warnings ?? [],
      };
      const appended = await this.postToRenderers(cell.notebook, message, from.editor);
      if (appended) await execution.replaceOutputItems(resultItems(next), found.output);
      else await execution.replaceOutput(resultOutput(next));
      execution.end(true, Date.now());
      return next;
    } catch (e) {
      // Keep the rows already shown; report the failure next to them.
      const warn = e instanceof WaterApiError ? `${e.message} ${e.advice}` : String(e);
      await execution.replaceOutput(resultOutput({ ...result, warnings: [...(result.warnings ?? []), warn] }));
      execution.end(false, Date.now());
      return undefined;
    } finally {
      this.continuing.delete(key);
      sub.dispose();
    }
  }

  /** True when a renderer received the message (VS Code reports delivery; false without a listening renderer). */
  private async postToRenderers(
    nb: vscode.NotebookDocument,
    message: HostToRenderer,
    editor?: vscode.NotebookEditor,
  ): Promise<boolean> {
    const editors = editor ? [editor] : vscode.window.visibleNotebookEditors.filter((e) => e.notebook === nb);
    let delivered = false;
    for (const e of editors) {
      try {
        if (await this.messaging.postMessage(message, e)) delivered = true;
      } catch {
        // A closed editor refuses the message; the stored output is then replaced instead.
      }
    }
    return delivered;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** The cell's result output addressed by `ref` (any result output without one). */
function resultIn(
  cell: vscode.NotebookCell,
  ref?: { resultId?: string; requestUrl: string },
): { output: vscode.NotebookCellOutput; result: WaterResult } | undefined {
  for (const output of cell.outputs) {
    for (const item of output.items) {
      if (item.mime !== WATER_RESULT_MIME) continue;
      let result: WaterResult;
      try {
        result = JSON.parse(new TextDecoder().decode(item.data)) as WaterResult;
      } catch {
        continue;
      }
      if (!ref || sameResult(ref, result)) return { output, result };
    }
  }
  return undefined;
}

function resultItems(result: WaterResult): vscode.NotebookCellOutputItem[] {
  return [
    vscode.NotebookCellOutputItem.json(result, WATER_RESULT_MIME),
    vscode.NotebookCellOutputItem.text(summarizeResult(result)),
  ];
}

export function resultOutput(result: WaterResult): vscode.NotebookCellOutput {
  return new vscode.NotebookCellOutput(resultItems(result));
}
