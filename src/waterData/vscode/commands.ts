import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../platform/services';
import { WATER_FILTER_FIELDS, WATER_SELECT_FIELDS, type WaterEntitySet } from '../../shared/wire/waterData';
import { AttributionCache } from '../core/attribution';
import { WaterApiError } from '../core/errors';
import { filterFields, parseFilter } from '../core/filter';
import { countOf } from '../core/partition';
import { wireRequest } from '../core/run';
import { streamCsv, writableSink } from '../core/stream';
import { licenceName } from '../core/summary';
import { analyzeQuery, hasErrors } from '../core/validate';
import { toRequest, type WaterRequest } from '../core/url';
import { CONTROLLER_PREFIX, ENVIRONMENTS, NOTEBOOK_TYPE, QUERY_LANGUAGE, type WaterEnvironment } from './constants';
import { environmentOf, type WaterKernel } from './controller';
import { registerCommand } from '../../platform/lazy/commandTable';

const ENV_PICK: Record<WaterEnvironment, { label: string; detail: string }> = {
  sandbox: {
    label: '$(beaker) Sandbox',
    detail: 'The built-in emulator (or apiWorkbench.waterData.baseUrl when set). No account needed.',
  },
  production: {
    label: '$(globe) Production',
    detail: 'https://api.datastream.org/v1/odata/v4 — needs your DataStream API key.',
  },
  qa: { label: '$(debug-alt) QA', detail: 'https://api.qa.datastream.org/v1/odata/v4 — the test environment.' },
};

function activeQueryCell(arg: unknown): vscode.NotebookCell | undefined {
  if (arg && typeof arg === 'object' && 'document' in arg && 'notebook' in arg) return arg as vscode.NotebookCell;
  const editor = vscode.window.activeNotebookEditor;
  if (!editor || editor.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
  const cell = editor.notebook.cellAt(editor.selections[0]?.start ?? 0);
  return cell?.document.languageId === QUERY_LANGUAGE ? cell : undefined;
}

/** The export reads /Records (the endpoint meant for CSV) unless the filter needs a field Records lacks. */
/** The chosen (or active) query cell and its parsed query; says what is wrong and gives nothing when either is. */
function checkedQuery(
  arg: unknown,
): { cell: vscode.NotebookCell; parsed: ReturnType<typeof analyzeQuery> } | undefined {
  const cell = activeQueryCell(arg);
  if (!cell) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Select a query cell of a water-quality notebook first.'));
    return undefined;
  }
  const parsed = analyzeQuery(cell.document.getText());
  const error = hasErrors(parsed) ? parsed.diagnostics.find((d) => d.severity === 'error') : undefined;
  if (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The query has errors: {0}', error.message));
    return undefined;
  }
  return { cell, parsed };
}

export function exportRequest(req: WaterRequest): { req: WaterRequest; note?: string } {
  const fields = req.filter ? filterFields(parseFilter(req.filter)) : new Set<string>();
  const recordsOk = [...fields].every((f) => WATER_FILTER_FIELDS.Records.includes(f));
  const target: WaterEntitySet =
    req.entitySet === 'Metadata' || req.entitySet === 'Locations'
      ? req.entitySet
      : recordsOk
        ? 'Records'
        : 'Observations';
  const select = req.select?.filter((f) => WATER_SELECT_FIELDS[target].includes(f));
  const note =
    req.entitySet === 'Records' && target === 'Observations'
      ? 'Records cannot be filtered by every field of this query; exporting Observations instead.'
      : undefined;
  return { req: { entitySet: target, filter: req.filter, select: select?.length ? select : undefined }, note };
}

export function registerWaterCommands(services: WorkbenchServices, kernel: WaterKernel): vscode.Disposable[] {
  return [
    registerCommand('apiWorkbench.waterData.newNotebook', async () => {
      const data = new vscode.NotebookData([
        new vscode.NotebookCellData(
          vscode.NotebookCellKind.Markup,
          '# Water-quality data\nQuery cells accept `/Locations?$top=5` or one option per line.',
          'markdown',
        ),
        new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '/Locations?$top=5', QUERY_LANGUAGE),
      ]);
      const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
      return vscode.window.showNotebookDocument(doc);
    }),

    registerCommand('apiWorkbench.waterData.selectEnvironment', async (envArg?: WaterEnvironment) => {
      const editor = vscode.window.activeNotebookEditor;
      if (!editor || editor.notebook.notebookType !== NOTEBOOK_TYPE) return;
      const current = environmentOf(editor.notebook);
      const env = ENVIRONMENTS.includes(envArg as WaterEnvironment)
        ? (envArg as WaterEnvironment)
        : (
            await vscode.window.showQuickPick(
              ENVIRONMENTS.map((e) => ({ ...ENV_PICK[e], description: e === current ? 'current' : undefined, env: e })),
              { placeHolder: vscode.l10n.t('Environment for this notebook') },
            )
          )?.env;
      if (!env) return;
      await vscode.commands.executeCommand('notebook.selectKernel', {
        id: CONTROLLER_PREFIX + env,
        extension: services.context.extension.id,
      });
      if (env !== 'sandbox' && !(await services.secrets.get('waterData'))) {
        const set = await vscode.window.showWarningMessage(
          vscode.l10n.t('The {0} environment needs a DataStream API key.', env),
          vscode.l10n.t('Set API key'),
        );
        if (set) await vscode.commands.executeCommand('apiWorkbench.setCredential', 'waterData');
      }
    }),

    registerCommand('apiWorkbench.waterData.loadMore', async (arg?: unknown) => {
      const cell = activeQueryCell(arg);
      return cell ? kernel.continueCell(cell, 'more') : undefined;
    }),

    registerCommand('apiWorkbench.waterData.fetchAll', async (arg?: unknown) => {
      const cell = activeQueryCell(arg);
      return cell ? kernel.continueCell(cell, 'all') : undefined;
    }),

    registerCommand('apiWorkbench.waterData.countQuery', async (arg?: unknown) => {
      const query = checkedQuery(arg);
      if (!query) return undefined;
      const { cell, parsed } = query;
      const req = wireRequest(parsed);
      try {
        const client = await kernel.client(environmentOf(cell.notebook));
        const c = await countOf(client, req.entitySet, req.filter);
        void vscode.window.showInformationMessage(
          c.estimate
            ? vscode.l10n.t('{0}: about {1} rows match (estimate).', req.entitySet, c.value.toLocaleString('en'))
            : vscode.l10n.t('{0}: {1} rows match.', req.entitySet, c.value.toLocaleString('en')),
        );
        return c;
      } catch (e) {
        void vscode.window.showErrorMessage(e instanceof WaterApiError ? `${e.message} ${e.advice}` : String(e));
        return undefined;
      }
    }),

    registerCommand('apiWorkbench.waterData.exportQueryCsv', async (arg?: unknown, target?: vscode.Uri) => {
      const query = checkedQuery(arg);
      if (!query) return undefined;
      const { cell, parsed } = query;
      const { req, note } = exportRequest(wireRequest(parsed));
      target ??= await vscode.window.showSaveDialog({
        saveLabel: vscode.l10n.t('Export CSV'),
        filters: { CSV: ['csv'] },
        defaultUri: vscode.workspace.workspaceFolders?.[0]
          ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, `${req.entitySet.toLowerCase()}.csv`)
          : undefined,
      });
      if (!target) return undefined;
      if (note) void vscode.window.showInformationMessage(note);
      const threshold = vscode.workspace
        .getConfiguration('apiWorkbench.waterData')
        .get<number>('partitionThreshold', 1_000_000);
      const client = await kernel.client(environmentOf(cell.notebook));
      const file = fs.createWriteStream(target.fsPath, { encoding: 'utf8' });
      try {
        const summary = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Exporting {0} to {1}', req.entitySet, vscode.workspace.asRelativePath(target)),
            cancellable: true,
          },
          async (progress, token) => {
            const abort = new AbortController();
            token.onCancellationRequested(() => abort.abort());
            // DOI is fetched for the citation file; the CSV keeps the columns the user selected.
            const columns = toRequest(parsed).select?.filter((f) => WATER_SELECT_FIELDS[req.entitySet].includes(f));
            return streamCsv(client, req, writableSink(file), {
              columns: columns?.length ? columns : undefined,
              maxRows: parsed.top,
              partition: parsed.top === undefined,
              partitionThreshold: threshold,
              signal: abort.signal,
              onStep: (m) => progress.report({ message: m }),
              onProgress: (p) =>
                progress.report({
                  message: `${p.partitions > 1 ? `partition ${p.partition}/${p.partitions} · ` : ''}${p.pages} pages · ${p.rows.toLocaleString('en')} rows`,
                }),
            });
          },
        );
        await new Promise<void>((r) => file.end(() => r()));
        const list = await new AttributionCache()
          .resolve(client, summary.dois)
          .catch(() =>
            summary.dois.map((doi) => ({ doi, citation: undefined, licence: undefined, disclaimer: undefined })),
          );
        const cite = list
          .map(
            (a) =>
              `${a.citation ?? a.doi}\nhttps://doi.org/${a.doi}\nLicence: ${licenceName(a.licence) ?? 'see the DOI'}${a.disclaimer ? `\n${a.disclaimer}` : ''}`,
          )
          .join('\n\n');
        const citeUri = target.with({ path: target.path.replace(/\.csv$/i, '') + '.CITATION.txt' });
        await vscode.workspace.fs.writeFile(
          citeUri,
          new TextEncoder().encode(`Terms of use: cite these datasets with a link to their DOI.\n\n${cite}\n`),
        );
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'Exported {0} rows ({1} pages{2}). Citations are in {3}.',
            summary.rows.toLocaleString('en'),
            summary.pages,
            summary.partitions > 1 ? `, ${summary.partitions} partitions` : '',
            vscode.workspace.asRelativePath(citeUri),
          ),
        );
        return summary;
      } catch (e) {
        file.destroy();
        void vscode.window.showErrorMessage(
          e instanceof WaterApiError
            ? vscode.l10n.t('Export stopped: {0} {1}', e.message, e.advice)
            : vscode.l10n.t('Export failed: {0}', String(e)),
        );
        return undefined;
      }
    }),
  ];
}
