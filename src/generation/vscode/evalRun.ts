// Run Evaluation for .prompt files (a CodeLens and a command): pick a dataset (JSONL or CSV) and models from
// models.list, run dataset × models with the setting's concurrency under a cancellable progress, save each cell
// as it completes in the prompt's run folder (.api-workbench/evals/<prompt>/<stamp>.jsonl, see runStore.ts) and
// show it in the results grid at once. A stopped run of the same dataset and models is offered for resuming.
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import { listModels } from '../core/client';
import { cellKey } from '../core/eval/cellKey';
import { itemLabel, type RunMeta } from '../core/eval/grid';
import { promptJudge } from '../core/eval/judge';
import { ResultsWriter } from '../core/eval/outFile';
import { EvalInputError, prepareEval, type PreparedEval } from '../core/eval/prepare';
import { summarise, type EvalSummary } from '../core/eval/report';
import { runEval, type CellResult } from '../core/eval/runner';
import {
  ensureRunsFolder,
  listRuns,
  promptRunsFolder,
  readRun,
  RUNS_FOLDER,
  runFiles,
  runStamp,
  writeRunMeta,
  type StoredRun,
} from '../core/eval/runStore';
import { conversationFromCell } from '../core/eval/toChat';
import { bareModel, PromptFile } from '../core/prompt/promptFile';
import { keyInQuery } from './chatEnvironment';
import type { EvalGrids } from './evalGrids';
import { readPartial } from './promptPartials';

export const RUN_EVAL_COMMAND = 'apiWorkbench.generation.runEvaluation';

/** What the command can be given instead of asking (another extension, a keybinding, a test). */
export interface RunEvaluationOptions {
  dataset?: vscode.Uri;
  /** Bare model names. */
  models?: string[];
  /** Resume the newest stopped run of the same dataset and models (true), start a new one (false), or ask. */
  resume?: boolean;
}

/** What a run ended with (the command's result). */
export interface EvaluationResult {
  results: string;
  cells: number;
  ran: number;
  cancelled: boolean;
  summary: EvalSummary;
}

const isPartial = (path: string) => /^_[^/\\]*\.prompt$/.test(basename(path));

/** The workspace folder of a file, else the file's own folder: where its runs are kept. */
function rootOf(uri: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? dirname(uri.fsPath);
}

/** The folder a run's results file was kept under (the one holding .api-workbench/evals). */
export function runRoot(resultsPath: string): string {
  const at = resultsPath.lastIndexOf(`${sep}${RUNS_FOLDER}${sep}`);
  return at >= 0 ? resultsPath.slice(0, at) : dirname(resultsPath);
}

/** A path as the run's meta keeps it: relative to the root when inside it. */
function relative(root: string, uri: vscode.Uri): string {
  const rel = vscode.workspace.asRelativePath(uri, false);
  return isAbsolute(rel) && uri.fsPath.startsWith(root) ? uri.fsPath.slice(root.length + 1) : rel;
}

export class EvalRunner implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: WorkbenchServices,
    private readonly grids: () => EvalGrids,
  ) {
    this.subscriptions = [vscode.languages.registerCodeLensProvider({ language: 'dotprompt' }, this)];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (isPartial(doc.uri.fsPath)) return [];
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('$(beaker) Run Evaluation'),
        command: RUN_EVAL_COMMAND,
        arguments: [doc.uri],
      }),
    ];
  }

  private async loadPrompt(doc: vscode.TextDocument): Promise<PromptFile> {
    const { prompt, problems } = await PromptFile.load(doc.getText(), { partials: (n) => readPartial(doc, n) });
    const first = problems.find((p) => p.severity === 'error');
    if (!prompt || first)
      throw new EvalInputError(
        vscode.l10n.t('The prompt file has a problem on line {0}: {1}', first?.line ?? 1, first?.message ?? ''),
      );
    return prompt;
  }

  /** The items of a prompt over a dataset file (judges loaded beside the prompt). */
  private async prepare(doc: vscode.TextDocument, prompt: PromptFile, dataset: vscode.Uri): Promise<PreparedEval> {
    let text: string;
    try {
      text = await readFile(dataset.fsPath, 'utf8');
    } catch (e) {
      throw new EvalInputError(vscode.l10n.t('Cannot read the dataset {0}: {1}', dataset.fsPath, (e as Error).message));
    }
    return prepareEval({
      prompt,
      promptLabel: vscode.workspace.asRelativePath(doc.uri),
      dataset: { text, name: vscode.workspace.asRelativePath(dataset) },
      loadJudge: async (p) =>
        this.loadPrompt(await vscode.workspace.openTextDocument(join(dirname(doc.uri.fsPath), p))),
    });
  }

  private async pickModels(
    baseUrl: string,
    apiKey: string,
    preferred: string | undefined,
  ): Promise<string[] | undefined> {
    const r = await listModels({ baseUrl, apiKey, keyInQuery: keyInQuery(), generateOnly: true });
    // Models the runner can address as models/<name> (a tuned model's tunedModels/… name is not one), the
    // prompt's own first.
    const names = r.models.map((m) => bareModel(m.name)).filter((n) => /^[\w.-]+$/.test(n) && n !== preferred);
    if (preferred) names.unshift(preferred);
    const picked = await vscode.window.showQuickPick(
      names.map((n) => ({ label: n, picked: n === preferred })),
      {
        title: vscode.l10n.t('Models to evaluate (each is a column of the grid)'),
        canPickMany: true,
        placeHolder: r.error ? vscode.l10n.t('The model list failed: {0}', r.error.message) : undefined,
      },
    );
    if (!picked) return undefined;
    // Columns in the list's order (the prompt's own model first), whatever order they were ticked in.
    const chosen = new Set(picked.map((p) => p.label));
    return names.filter((n) => chosen.has(n));
  }

  /** The newest run of the same dataset and models that stopped before its last cell, if the user resumes it. */
  private async resumable(
    folder: string,
    dataset: string,
    variants: string[],
    items: number,
    resume: boolean | undefined,
  ): Promise<StoredRun | undefined> {
    if (resume === false) return undefined;
    const [latest] = await listRuns(folder);
    if (!latest) return undefined;
    let run: StoredRun;
    try {
      run = await readRun(latest.results);
    } catch {
      return undefined;
    }
    const same =
      run.meta.dataset === dataset &&
      run.meta.items.length === items &&
      run.meta.variants.join('\n') === variants.join('\n');
    const done = [...run.cells.values()].filter((c) => !c.error).length;
    if (!same || done >= items * variants.length) return undefined;
    if (resume) return run;
    const answer = await vscode.window.showQuickPick(
      [
        {
          label: vscode.l10n.t('Resume the stopped run'),
          description: `${done} / ${items * variants.length}`,
          resume: true,
        },
        { label: vscode.l10n.t('Start a new run'), resume: false },
      ],
      { title: vscode.l10n.t('An earlier run of this dataset and these models stopped before its end') },
    );
    if (!answer) throw new vscode.CancellationError();
    return answer.resume ? run : undefined;
  }

  async run(uri?: vscode.Uri, opts: RunEvaluationOptions = {}): Promise<EvaluationResult | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target || !target.fsPath.endsWith('.prompt') || isPartial(target.fsPath)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a .prompt file to run an evaluation of it.'));
      return undefined;
    }
    try {
      return await this.runChecked(target, opts);
    } catch (e) {
      if (e instanceof vscode.CancellationError) return undefined;
      // A problem with the inputs says what it is; anything else (the run folder cannot be written) says so too.
      void vscode.window.showErrorMessage(
        e instanceof EvalInputError
          ? e.message
          : vscode.l10n.t('Run Evaluation failed: {0}', e instanceof Error ? e.message : String(e)),
      );
      return undefined;
    }
  }

  private async runChecked(target: vscode.Uri, opts: RunEvaluationOptions): Promise<EvaluationResult | undefined> {
    const doc = await vscode.workspace.openTextDocument(target);
    const prompt = await this.loadPrompt(doc);
    const dataset =
      opts.dataset ??
      (
        await vscode.window.showOpenDialog({
          title: vscode.l10n.t('Dataset to evaluate {0} on', basename(target.fsPath)),
          defaultUri: vscode.Uri.file(dirname(target.fsPath)),
          filters: { [vscode.l10n.t('Datasets (JSON Lines, CSV)')]: ['jsonl', 'ndjson', 'csv'] },
          canSelectMany: false,
        })
      )?.[0];
    if (!dataset) return undefined;
    const prepared = await this.prepare(doc, prompt, dataset);
    const ep = await this.services.endpoints.resolve('generation');
    if (!ep.credential)
      throw new EvalInputError(
        vscode.l10n.t('Set a generation API key (API Workbench: Set Generation API Key) before running an evaluation.'),
      );
    const models = (opts.models ?? (await this.pickModels(ep.baseUrl, ep.credential, prompt.model)))?.map(bareModel);
    if (!models?.length) return undefined;
    const bad = models.find((m) => !/^[\w.-]+$/.test(m));
    if (bad) throw new EvalInputError(vscode.l10n.t('"{0}" is not a model name (e.g. gemini-2.0-flash).', bad));
    const variants = [...new Set(models)].map((m) => ({ name: m, model: m }));
    const config = vscode.workspace.getConfiguration('apiWorkbench.generation');
    const concurrency = Math.min(16, Math.max(1, config.get<number>('evalConcurrency', 4)));

    const root = rootOf(target);
    const folder = promptRunsFolder(root, target.fsPath);
    const datasetPath = relative(root, dataset);
    const names = variants.map((v) => v.name);
    const earlier = await this.resumable(folder, datasetPath, names, prepared.items.length, opts.resume);
    const files = earlier?.files ?? runFiles(folder, runStamp(new Date()));
    const meta: RunMeta = earlier?.meta ?? {
      version: 1,
      prompt: relative(root, target),
      dataset: datasetPath,
      variants: names,
      items: prepared.dataset.map((d) => ({ index: d.index, label: itemLabel(d.input) })),
      startedAt: new Date().toISOString(),
      concurrency,
    };
    await ensureRunsFolder(root, folder);
    if (!earlier) await writeRunMeta(files.meta, meta);
    const writer = await ResultsWriter.open(files.results, earlier?.validBytes ?? 0);
    const kept = new Map([...(earlier?.cells ?? new Map<string, CellResult>())].filter(([, c]) => !c.error));
    const total = meta.items.length * names.length;
    let done = kept.size;
    const grid = this.grids().open({ meta, files, cells: kept }, { done, total, running: true });
    grid.panel.reveal(grid.panel.viewColumn, true);
    const controller = new AbortController();
    grid.onStop = () => controller.abort();
    const connection = {
      baseUrl: ep.baseUrl,
      apiKey: ep.credential,
      keyInQuery: keyInQuery(),
      retry: { maxAttempts: Math.max(3, config.get<number>('maxAttempts', 3)) },
    };
    let outcome;
    try {
      outcome = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Evaluating {0}', basename(target.fsPath)),
          cancellable: true,
        },
        async (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          progress.report({ message: `${done} / ${total}` });
          return runEval({
            prompt,
            items: prepared.items,
            variants,
            connection,
            concurrency,
            signal: controller.signal,
            done: earlier?.cells,
            judge: prepared.judges.size ? promptJudge(prepared.judges, connection, variants[0].model) : undefined,
            onCell: async (cell) => {
              await writer.append(cell);
              if (!kept.has(cellKey(cell.item, cell.variant))) done++;
              grid.add(cell);
              grid.setProgress({ done, total, running: true });
              progress.report({ message: `${done} / ${total}`, increment: 100 / total });
            },
          });
        },
      );
    } finally {
      await writer.close();
      grid.onStop = undefined;
    }
    const summary = summarise(outcome.cells, names, total);
    grid.setProgress({
      done: outcome.cells.length,
      total,
      running: false,
      note: outcome.cancelled ? vscode.l10n.t('stopped: Run Evaluation again to resume') : undefined,
    });
    const message = vscode.l10n.t(
      '{0}: {1}/{2} assertions passed in {3} cells; {4} failed requests.',
      basename(target.fsPath),
      summary.assertionsPassed,
      summary.assertions,
      summary.cells,
      summary.errors,
    );
    if (outcome.cancelled) void vscode.window.showWarningMessage(vscode.l10n.t('Evaluation stopped. {0}', message));
    else void vscode.window.showInformationMessage(message);
    return {
      results: files.results,
      cells: outcome.cells.length,
      ran: outcome.ran,
      cancelled: outcome.cancelled,
      summary,
    };
  }

  /** "Open in Chat" of a grid cell: the request its item renders to and its reply, continued in a chat tab. */
  async conversationOf(meta: RunMeta, cell: CellResult, root: string) {
    const promptUri = vscode.Uri.file(isAbsolute(meta.prompt) ? meta.prompt : join(root, meta.prompt));
    const doc = await vscode.workspace.openTextDocument(promptUri);
    const prompt = await this.loadPrompt(doc);
    let input: Record<string, unknown> = {};
    if (meta.dataset) {
      const dataset = vscode.Uri.file(isAbsolute(meta.dataset) ? meta.dataset : join(root, meta.dataset));
      const item = (await this.prepare(doc, prompt, dataset)).items.find((i) => i.index === cell.item);
      if (!item) throw new EvalInputError(vscode.l10n.t('The dataset no longer has item {0}.', cell.item));
      input = item.input;
    }
    const rendered = await prompt.render(input, { model: cell.model ?? cell.variant });
    return conversationFromCell(
      cell,
      rendered.request,
      rendered.model,
      vscode.l10n.t('{0} #{1} ({2})', basename(meta.prompt).replace(/\.prompt$/, ''), cell.item, cell.variant),
    );
  }

  dispose(): void {
    vscode.Disposable.from(...this.subscriptions).dispose();
  }
}
