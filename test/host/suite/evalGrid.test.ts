// Run Evaluation and the results grid in a real extension host, against the in-process sandbox: a dataset run
// saved in the workspace's run folder and shown in the grid, a regression marked against an earlier run (a
// changed prompt), a diff of two cells, an export, Open in Chat, and a run whose cells failed (a sandbox storm
// of 429s) resumed: only the failed cells are sent again.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../../src/platform/services';
import type { GridRenderedAck } from '../../../src/generation/evalGridProtocol';
import { logged, logText } from './extensionLog';

interface EvaluationResult {
  results: string;
  cells: number;
  ran: number;
  cancelled: boolean;
  summary: { assertionsPassed: number; assertions: number; errors: number };
}

async function services(): Promise<WorkbenchServices> {
  const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
  assert.ok(ext, 'the extension is loaded');
  return (await ext.activate()) as WorkbenchServices;
}

async function faults(body: unknown): Promise<void> {
  const ep = await (await services()).endpoints.resolve('generation');
  const res = await fetch(`${ep.baseUrl}/v1beta/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': ep.credential ?? '' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

const wait = (expected: Record<string, unknown>) =>
  vscode.commands.executeCommand<GridRenderedAck>('apiWorkbench.generation._testGridWait', expected, 30_000);

const MODELS = ['gemini-2.0-flash', 'gemini-2.5-flash'];

/** Runs of one cell at a time, each reply a second late (the sandbox's latency), or back to normal. */
async function oneCellASecond(on: boolean): Promise<void> {
  await faults(on ? { latencyMs: 1000 } : { reset: true });
  await vscode.workspace
    .getConfiguration('apiWorkbench.generation')
    .update('evalConcurrency', on ? 1 : undefined, vscode.ConfigurationTarget.Global);
}

describe('evaluation results grid (Run Evaluation)', function () {
  this.timeout(120_000);
  const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const dir = join(root, 'evalgrid');
  const promptFile = join(dir, 'trip.prompt');
  const dataset = join(dir, 'trips.jsonl');
  const runsFolder = join(root, '.api-workbench', 'evals', 'trip');
  const promptText = (template: string) => `---\nmodel: gemini-2.0-flash\n---\n${template} [[fast]]\n`;
  /** Changes the prompt as a user would: an edit of its editor, saved (the run reads the editor's text). */
  async function editPrompt(template: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(promptFile);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      doc.uri,
      new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
      promptText(template),
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
  }
  let firstRun: EvaluationResult;

  before(() => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      dataset,
      ['Oslo', 'Lyon', 'Porto']
        .map((city, i) =>
          JSON.stringify({ input: { city, short: i === 1 }, expect: [{ type: 'contains', value: city }] }),
        )
        .join('\n') + '\n',
    );
    writeFileSync(promptFile, promptText('Plan a day in {{city}}.'));
  });
  after(async () => {
    await faults({ reset: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('runs a dataset × models from the CodeLens: the run is saved as it goes and the grid shows every cell', async () => {
    const doc = await vscode.workspace.openTextDocument(promptFile);
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const lens = lenses.find((l) => l.command?.command === 'apiWorkbench.generation.runEvaluation');
    assert.ok(lens?.command, 'a Run Evaluation lens');
    firstRun = (await vscode.commands.executeCommand<EvaluationResult>(
      lens.command.command,
      ...((lens.command.arguments ?? []) as unknown[]),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: false },
    ))!;
    assert.ok(firstRun, 'the run ended');
    assert.equal(firstRun.cells, 6);
    assert.equal(firstRun.cancelled, false);
    assert.equal(firstRun.summary.assertionsPassed, 6);

    // Kept in the workspace's run folder: results (one line per cell), the meta beside them, git-ignored.
    assert.equal(join(firstRun.results, '..'), runsFolder);
    assert.equal(readFileSync(firstRun.results, 'utf8').trim().split('\n').length, 6);
    const meta = JSON.parse(readFileSync(firstRun.results.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as {
      prompt: string;
      dataset: string;
      variants: string[];
      items: { label: string }[];
    };
    assert.equal(meta.prompt, 'evalgrid/trip.prompt');
    assert.equal(meta.dataset, 'evalgrid/trips.jsonl');
    assert.deepEqual(meta.variants, MODELS);
    assert.equal(meta.items[0].label, 'city=Oslo, short=false');
    assert.ok(existsSync(join(root, '.api-workbench', 'evals', '.gitignore')));

    // The grid: three rows of two cells, every one passed, the summary per model.
    const ack = await wait({ cells: 6 });
    assert.equal(ack.rows, 3);
    assert.equal(ack.domRows, 3);
    assert.equal(ack.summary.length, 2);
    for (const s of ack.summary) assert.match(s, /^3\/3 passed \(100%\)mean \d+ ms · p95 \d+ ms/);
    assert.equal(ack.firstRow.length, 2);
    assert.match(ack.firstRow[0], /^PASS/);
    assert.match(ack.firstRow[0], /Plan a day in Oslo\./);
    assert.match(ack.firstRow[0], /✓ contains/);
  });

  it('a changed prompt makes cells worse: comparing with the earlier run marks exactly those', async () => {
    await editPrompt('{{#if short}}Plan a day.{{else}}Plan a day in {{city}}.{{/if}}');
    const second = await vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: false },
    );
    assert.ok(second);
    assert.notEqual(second.results, firstRun.results, 'a new run, kept beside the first');
    assert.equal(second.summary.assertionsPassed, 4);
    await wait({ cells: 6 });
    await vscode.commands.executeCommand('apiWorkbench.generation.compareEvalRun', vscode.Uri.file(firstRun.results));
    const ack = await wait({ worse: 2 });
    assert.deepEqual(ack.worse.sort(), ['1|gemini-2.0-flash', '1|gemini-2.5-flash']);
    assert.deepEqual(ack.better, []);
  });

  it('two cells open side by side in a diff; the grid exports CSV and JSON; a cell opens in the chat', async () => {
    await vscode.commands.executeCommand(
      'apiWorkbench.generation._testGridDiff',
      { item: 0, variant: MODELS[0] },
      { item: 1, variant: MODELS[0] },
    );
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff tab, not ${tab?.label}`);
    const left = await vscode.workspace.openTextDocument(tab.input.original);
    const right = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.match(left.getText(), /Plan a day in Oslo\./);
    assert.match(right.getText(), /Plan a day\./);
    assert.doesNotMatch(right.getText(), /Lyon/);

    // Back to the grid (the diff took the focus) for the exports.
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const csvPath = join(dir, 'export.csv');
    await vscode.commands.executeCommand('apiWorkbench.generation._testGridExport', 'csv', csvPath);
    const csv = readFileSync(csvPath, 'utf8').trim().split('\r\n');
    assert.equal(csv.length, 7);
    assert.match(csv[0], /^item,input,variant,status,mark,output,/);
    assert.ok(csv.some((l) => l.startsWith('1,') && l.includes(',fail,worse,')));
    const jsonPath = join(dir, 'export.json');
    await vscode.commands.executeCommand('apiWorkbench.generation._testGridExport', 'json', jsonPath);
    const doc = JSON.parse(readFileSync(jsonPath, 'utf8')) as { cells: { mark?: string }[]; summary: unknown };
    assert.equal(doc.cells.length, 6);
    assert.equal(doc.cells.filter((c) => c.mark === 'worse').length, 2);

    const turns = await vscode.commands.executeCommand<{ prompt: string; text: string; sent: unknown[] }[]>(
      'apiWorkbench.generation._testGridOpenInChat',
      { item: 2, variant: MODELS[1] },
    );
    assert.equal(turns.length, 1);
    assert.match(turns[0].prompt, /Plan a day in Porto\./);
    assert.match(turns[0].text, /Porto/);
    assert.equal(turns[0].sent.length, 1);
  });

  it('a CLI run with a named variant (--out) opens as a grid; its cell opens in the chat with the model of the variant', async () => {
    const ext = vscode.extensions.getExtension('api-workbench.api-workbench')!;
    const ep = await (await services()).endpoints.resolve('generation');
    const out = join(dir, 'cli-run.jsonl');
    // Not spawnSync: the sandbox the CLI talks to runs in this extension host, whose event loop must go on.
    const cli = await new Promise<{ status: number | null; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [
          join(ext.extensionPath, 'dist', 'cli.js'),
          'eval',
          '--base-url',
          ep.baseUrl,
          '--model',
          MODELS[0],
          '--variant',
          `careful=model=${MODELS[1]},temperature=0.2`,
          '--dataset',
          dataset,
          '--out',
          out,
          promptFile,
        ],
        { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', GEMINI_API_KEY: ep.credential ?? '' }, encoding: 'utf8' },
        (_e, _stdout, stderr) => done({ status: child.exitCode, stderr }),
      );
    });
    // 0 or 1 (an assertion of the edited prompt fails); 2 and 3 are a refused run and failed requests.
    assert.ok(cli.status === 0 || cli.status === 1, `eval exited ${cli.status}: ${cli.stderr}`);
    await vscode.commands.executeCommand('apiWorkbench.generation.openEvalRun', vscode.Uri.file(out));
    const ack = await wait({ cells: 6 });
    assert.equal(ack.rows, 3);
    assert.match(ack.firstRow[0], /Plan a day in Oslo\./);
    const turns = await vscode.commands.executeCommand<{ prompt: string; model: string }[]>(
      'apiWorkbench.generation._testGridOpenInChat',
      { item: 2, variant: 'careful' },
    );
    assert.equal(turns.length, 1);
    assert.match(turns[0].prompt, /Plan a day in Porto\./);
    assert.equal(turns[0].model, `models/${MODELS[1]}`);
  });

  it('Stop ends a run part-way; Run Evaluation again resumes it and sends only the cells not done', async () => {
    await editPrompt('Plan a day in {{city}}, slowly.');
    await oneCellASecond(true);
    const running = vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: false },
    );
    // Concurrency 1 (the setting) and a second a reply: stopped after the first cells came in.
    await wait({ minCells: 1, running: true });
    await vscode.commands.executeCommand('apiWorkbench.generation._testGridStop');
    const stopped = await running;
    assert.ok(stopped);
    assert.equal(stopped.cancelled, true);
    assert.ok(stopped.cells >= 1 && stopped.cells < 6, `${stopped.cells} cells done before the stop`);
    assert.equal(readFileSync(stopped.results, 'utf8').trim().split('\n').length, stopped.cells);
    await oneCellASecond(false);
    const resumed = await vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: true },
    );
    assert.ok(resumed);
    assert.equal(resumed.results, stopped.results);
    assert.equal(resumed.ran, 6 - stopped.cells);
    assert.equal(resumed.cells, 6);
    assert.equal(resumed.cancelled, false);
    assert.equal(readFileSync(resumed.results, 'utf8').trim().split('\n').length, 6);
    await wait({ cells: 6 });
  });

  it('a grid whose page stays blank is moved to a new panel by the watchdog; its live run goes on into it', async () => {
    await editPrompt('Plan a day in {{city}}, with care.');
    await oneCellASecond(true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const s = await services();
    // Three loads unheard (as when VS Code leaves the frame blank), 0.8 s of visible time before the first reload:
    // the third reload, 3.8 s in, replaces the panel while the run (six cells, one a second) is still going.
    await vscode.commands.executeCommand('apiWorkbench.generation._testGridSilentPage', 3, 800);
    const from = logText(s).length;
    const result = await vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: false },
    );
    await oneCellASecond(false);
    assert.ok(result);
    assert.equal(result.cancelled, false, 'the replacement did not stop the run');
    assert.equal(result.ran, 6);
    const pattern =
      /webview: the evaluation results grid page did not report ready within [\d.]+ s of being shown; (setting it again|replacing its panel with a new one) \((\d) of 3\)/g;
    const lines = await logged(s, from, pattern, 3);
    assert.deepEqual(
      lines.map((l) => /(setting it again|replacing its panel with a new one) \((\d)/.exec(l)?.slice(1).join(' ')),
      ['setting it again 1', 'setting it again 2', 'replacing its panel with a new one 3'],
    );
    // Only a page whose ready was heard renders: the new panel's, with every cell of the run.
    const ack = await wait({ cells: 6, running: false });
    assert.equal(ack.rows, 3);
    await logged(s, from, /webview: the evaluation results grid page loaded after 3 reloads/g);
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('apiWorkbench.generation.evalGrid'),
      );
    assert.equal(tabs.length, 1, 'the blank panel is closed: one grid tab');
  });

  it('closing the grid stops its run; a broken dataset is refused before anything runs', async () => {
    await oneCellASecond(true);
    const running = vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: false },
    );
    await wait({ minCells: 1, running: true });
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputWebview && tab.label.startsWith('Results: trip.prompt'));
    await vscode.window.tabGroups.close(tab);
    const closed = await running;
    assert.ok(closed, 'the run ended without an error');
    assert.equal(closed.cancelled, true);
    await oneCellASecond(false);

    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"input": {"city": "Oslo"}}\nnot json\n');
    const runsBefore = readdirSync(runsFolder).length;
    const refused = await vscode.commands.executeCommand<EvaluationResult | undefined>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(broken), models: MODELS, resume: false },
    );
    assert.equal(refused, undefined);
    assert.equal(readdirSync(runsFolder).length, runsBefore, 'no run was started');
  });

  it('cells that failed after retries (a 429 storm) are the only ones a resumed run sends again', async () => {
    await editPrompt('Plan a day in {{city}}.');
    await faults({ storm: { rate: 1, statuses: [429], retryDelaySeconds: 0 } });
    const stormy = await vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: false },
    );
    assert.ok(stormy);
    assert.equal(stormy.summary.errors, 6);
    let ack = await wait({ cells: 6 });
    assert.match(ack.firstRow[0], /^ERROR/);
    assert.match(ack.firstRow[0], /429 RESOURCE_EXHAUSTED/);

    await faults({ reset: true });
    const resumed = await vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: MODELS, resume: true },
    );
    assert.ok(resumed);
    assert.equal(resumed.results, stormy.results, 'the same run file, appended to');
    assert.equal(resumed.ran, 6);
    assert.equal(resumed.summary.errors, 0);
    assert.equal(readFileSync(resumed.results, 'utf8').trim().split('\n').length, 12);
    ack = await wait({ cells: 6 });
    assert.match(ack.firstRow[0], /^PASS/);

    // Nothing is left to resume: a run asked to resume starts a new one, and sends every cell.
    const runsBefore = readdirSync(runsFolder).filter((f) => f.endsWith('.jsonl')).length;
    const fresh = await vscode.commands.executeCommand<EvaluationResult>(
      'apiWorkbench.generation.runEvaluation',
      vscode.Uri.file(promptFile),
      { dataset: vscode.Uri.file(dataset), models: [MODELS[0]], resume: true },
    );
    assert.equal(fresh?.ran, 3);
    assert.equal(readdirSync(runsFolder).filter((f) => f.endsWith('.jsonl')).length, runsBefore + 1);
  });
});
