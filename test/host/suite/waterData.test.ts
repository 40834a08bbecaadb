import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const MIME = 'application/vnd.api-workbench.water-result+json';
const NOTEBOOK_TYPE = 'apiWorkbench.waterNotebook';

interface Result {
  resultId?: string;
  entitySet: string;
  rows: Record<string, unknown>[];
  columns: string[];
  count?: { value: number; estimate: boolean };
  nextLink?: string;
  attributions: { doi: string; citation?: string; licence?: string }[];
}

async function openNotebook(sources: string[]): Promise<vscode.NotebookEditor> {
  const data = new vscode.NotebookData(
    sources.map((s) => new vscode.NotebookCellData(vscode.NotebookCellKind.Code, s, 'water-query')),
  );
  const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
  // The sandbox kernel is selected by the extension itself when the editor shows (see 'first run').
  return vscode.window.showNotebookDocument(doc);
}

async function run(editor: vscode.NotebookEditor, index: number): Promise<vscode.NotebookCellOutput[]> {
  const cell = editor.notebook.cellAt(index);
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: index, end: index + 1 }],
    document: editor.notebook.uri,
  });
  const deadline = Date.now() + 30_000;
  // Execution resolves when the cell finishes, but poll in case the command returns early.
  while (Date.now() < deadline && (cell.executionSummary?.success === undefined || cell.outputs.length === 0))
    await new Promise((r) => setTimeout(r, 100));
  return [...cell.outputs];
}

function resultOf(outputs: readonly vscode.NotebookCellOutput[]): Result {
  const item = outputs.flatMap((o) => o.items).find((i) => i.mime === MIME);
  assert.ok(
    item,
    `a ${MIME} output item; got ${outputs.flatMap((o) => o.items.map((i) => `${i.mime}: ${new TextDecoder().decode(i.data).slice(0, 300)}`)).join(' | ')}`,
  );
  return JSON.parse(new TextDecoder().decode(item.data)) as Result;
}

describe('waterData: query notebook on the sandbox', () => {
  before(async () => {
    const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
    assert.ok(ext, 'the extension is loaded');
    await ext.activate();
  });

  it('runs /Locations?$top=5 and shows 5 rows with a citation', async () => {
    const editor = await openNotebook(['/Locations?$top=5']);
    const outputs = await run(editor, 0);
    const result = resultOf(outputs);
    assert.equal(result.entitySet, 'Locations');
    assert.equal(result.rows.length, 5);
    assert.ok(result.columns.includes('Latitude'));
    assert.ok(result.nextLink, 'more locations exist beyond the first 5');
    assert.ok(result.attributions.length >= 1);
    for (const a of result.attributions) {
      assert.match(a.citation ?? '', /DataStream\. https:\/\/doi\.org\/10\.\d+\//, `citation of ${a.doi}`);
      assert.ok(a.licence, `licence of ${a.doi}`);
    }
    const dois = new Set(result.rows.map((r) => r.DOI));
    assert.deepEqual(new Set(result.attributions.map((a) => a.doi)), dois, 'one attribution per dataset shown');
    const text = outputs.flatMap((o) => o.items).find((i) => i.mime === 'text/plain');
    assert.ok(text, 'a text/plain fallback');
  });

  it('runs the other entity sets, $count and the multi-line form', async () => {
    const editor = await openNotebook([
      '/Metadata?$select=DOI,DatasetName,Licence,Citation&$top=3',
      "/Observations\n$filter = CharacteristicName eq 'pH'\n$top = 20",
      '/Records?$top=2',
      '/Observations?$filter=CharacteristicName%20eq%20%27pH%27&$count=true',
    ]);
    const meta = resultOf(await run(editor, 0));
    assert.equal(meta.rows.length, 3);
    assert.ok(meta.attributions.every((a) => a.citation));
    const obs = resultOf(await run(editor, 1));
    assert.equal(obs.rows.length, 20);
    assert.ok(obs.rows.every((r) => r.CharacteristicName === 'pH'));
    assert.ok(obs.attributions.length >= 1);
    const rec = resultOf(await run(editor, 2));
    assert.equal(rec.rows.length, 2);
    assert.ok('MonitoringLocationName' in rec.rows[0]);
    const count = resultOf(await run(editor, 3));
    assert.ok(count.count && count.count.value > 0 && count.count.value < obs.rows.length * 10_000);
  });

  it('reports a validation error with its position instead of sending the query', async () => {
    const editor = await openNotebook(["/Locations?$filter=Colour eq 'blue'"]);
    const outputs = await run(editor, 0);
    const err = outputs.flatMap((o) => o.items).find((i) => i.mime === 'application/vnd.code.notebook.error');
    assert.ok(err, 'an error output');
    const body = JSON.parse(new TextDecoder().decode(err.data)) as { message: string };
    assert.match(body.message, /line 1, column 20: Locations cannot be filtered by "Colour"/);
    const diags = vscode.languages.getDiagnostics(editor.notebook.cellAt(0).document.uri);
    assert.ok(
      diags.some((d) => d.range.start.character === 19 && /Colour/.test(d.message)),
      'a squiggle under the field',
    );
  });

  it('completes fields and vocabulary values inside a query cell', async () => {
    const editor = await openNotebook(['/Observations?$filter=ActivityMediaName eq ']);
    const doc = editor.notebook.cellAt(0).document;
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      doc.positionAt(doc.getText().length),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('Surface Water'), labels.slice(0, 20).join(', '));
    const item = list.items.find((i) => i.label === 'Surface Water')!;
    assert.equal(item.insertText, "'Surface Water'");
  });

  it('pages up to the row limit, then "Load more" continues after the last row', async () => {
    const config = vscode.workspace.getConfiguration('apiWorkbench.waterData');
    await config.update('rowLimit', 1500, vscode.ConfigurationTarget.Global);
    try {
      const editor = await openNotebook([
        "/Observations?$select=Id,CharacteristicName,ResultValue&$filter=CharacteristicName eq 'pH'",
      ]);
      const first = resultOf(await run(editor, 0));
      assert.equal(first.rows.length, 1500);
      assert.ok(first.nextLink, 'more rows exist');
      assert.deepEqual(first.columns, ['Id', 'CharacteristicName', 'ResultValue']);
      const more = await vscode.commands.executeCommand<Result>(
        'apiWorkbench.waterData.loadMore',
        editor.notebook.cellAt(0),
      );
      assert.equal(more.rows.length, 3000);
      const ids = more.rows.map((r) => r.Id as number);
      assert.equal(new Set(ids).size, 3000, 'no row twice');
      const stored = resultOf(editor.notebook.cellAt(0).outputs);
      assert.equal(stored.rows.length, 3000, 'the stored output holds the appended rows');
      assert.deepEqual(
        stored.rows.map((r) => r.Id),
        ids,
        "in order, after the first page's rows",
      );
      assert.deepEqual(stored.rows.slice(0, 1500), first.rows, 'the rows shown before are kept as they were');
      assert.ok(first.resultId, 'each output has a resultId');
      assert.equal(stored.resultId, first.resultId, 'the output keeps its resultId, so the renderer keeps its view');
      assert.equal(editor.notebook.cellAt(0).outputs.length, 1);
    } finally {
      await config.update('rowLimit', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('keeps two cells with the same query apart: "Load more" continues only the one asked', async () => {
    const editor = await openNotebook(['/Locations?$top=2', '/Locations?$top=2']);
    const a = resultOf(await run(editor, 0));
    const b = resultOf(await run(editor, 1));
    assert.ok(
      a.resultId && b.resultId && a.resultId !== b.resultId,
      `distinct resultIds: ${a.resultId} / ${b.resultId}`,
    );
    const order = editor.notebook.cellAt(1).executionSummary?.executionOrder;
    assert.ok(order !== undefined && order > 0, 'the run numbered the cell');
    const more = await vscode.commands.executeCommand<Result>(
      'apiWorkbench.waterData.loadMore',
      editor.notebook.cellAt(1),
    );
    assert.equal(more.rows.length, 4, 'one more page of the same size ($top=2)');
    assert.equal(resultOf(editor.notebook.cellAt(1).outputs).rows.length, more.rows.length);
    assert.equal(editor.notebook.cellAt(1).executionSummary?.executionOrder, order, 'Load more keeps the run number');
    assert.equal(resultOf(editor.notebook.cellAt(0).outputs).rows.length, 2, 'the other cell is untouched');
  });

  it('opens the sample notebook from the workspace with Markdown and query cells', async () => {
    const [uri] = await vscode.workspace.findFiles('**/*.wqnb', undefined, 1);
    assert.ok(uri, 'the sample .wqnb is in the workspace');
    const doc = await vscode.workspace.openNotebookDocument(uri);
    assert.equal(doc.notebookType, NOTEBOOK_TYPE);
    assert.equal(doc.cellAt(0).kind, vscode.NotebookCellKind.Markup);
    const queries = doc.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
    assert.ok(queries.every((c) => c.document.languageId === 'water-query'));
    assert.ok(queries.some((c) => c.document.getText() === '/Locations?$top=5'));
    for (const c of queries) {
      const errors = vscode.languages
        .getDiagnostics(c.document.uri)
        .filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
      assert.deepEqual(
        errors.map((e) => e.message),
        [],
        'sample queries are valid',
      );
    }
  });

  it('exports a query to CSV by streaming /Records, with a citation file', async () => {
    const editor = await openNotebook([
      "/Observations\n$filter = RegionId eq 'hub.atlantic' and CharacteristicName eq 'pH'\n$select = Id, CharacteristicName, ResultValue",
    ]);
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const target = vscode.Uri.joinPath(folder, 'export-test.csv');
    const summary = await vscode.commands.executeCommand<{ rows: number }>(
      'apiWorkbench.waterData.exportQueryCsv',
      editor.notebook.cellAt(0),
      target,
    );
    assert.ok(summary && summary.rows > 0);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    const lines = text.trimEnd().split('\r\n');
    assert.equal(lines[0], 'Id,CharacteristicName,ResultValue');
    assert.equal(lines.length, summary.rows + 1);
    const cite = new TextDecoder().decode(
      await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'export-test.CITATION.txt')),
    );
    assert.match(cite, /https:\/\/doi\.org\/10\./);
  });

  it('cancels a running query', async () => {
    // Three cells in a row: the limiter spaces requests 0.5 s apart, so later ones wait when cancelled.
    const editor = await openNotebook(['/Locations?$top=1', '/Locations?$top=2', '/Locations?$top=3']);
    const done = vscode.commands.executeCommand('notebook.execute', editor.notebook.uri);
    // Cancel right after the first cell completes: the second is then waiting its turn in the rate limiter.
    const first = editor.notebook.cellAt(0);
    const until = Date.now() + 10_000;
    while (Date.now() < until && first.executionSummary?.success === undefined)
      await new Promise((r) => setTimeout(r, 10));
    await vscode.commands.executeCommand('notebook.cancelExecution', editor.notebook.uri);
    await done;
    const deadline = Date.now() + 10_000;
    while (
      Date.now() < deadline &&
      editor.notebook.getCells().some((c) => c.executionSummary?.success === undefined && c.outputs.length === 0)
    )
      await new Promise((r) => setTimeout(r, 100));
    assert.equal(first.executionSummary?.success, true);
    const last = editor.notebook.cellAt(2);
    const states = editor.notebook
      .getCells()
      .map((c) => `${c.executionSummary?.success}/${c.outputs.flatMap((o) => o.items.map((i) => i.mime)).join('+')}`);
    assert.notEqual(last.executionSummary?.success, true, `the last cell did not complete (${states.join(', ')})`);
  });
});

describe('waterData: query-cell fixes and ranking', () => {
  it("offers the quick fix 'Quote text values' describes, and applying it clears the error", async () => {
    const editor = await openNotebook(['/Observations?$filter=CharacteristicName eq pH']);
    const doc = editor.notebook.cellAt(0).document;
    let diag: vscode.Diagnostic | undefined;
    for (let i = 0; i < 50 && !diag; i++) {
      diag = vscode.languages.getDiagnostics(doc.uri).find((d) => /^Quote text values/.test(d.message));
      if (!diag) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(diag, 'the diagnostic');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diag.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const quote = actions.find((a) => a.title === "Quote as text: 'pH'");
    assert.ok(quote?.edit, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(quote.edit));
    assert.equal(doc.getText(), "/Observations?$filter=CharacteristicName eq 'pH'");
    for (let i = 0; i < 50 && vscode.languages.getDiagnostics(doc.uri).some((d) => /^Quote/.test(d.message)); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.ok(!vscode.languages.getDiagnostics(doc.uri).some((d) => /^Quote/.test(d.message)));
  });

  it('completion sorts pH, water temperature and dissolved oxygen before obscure characteristic names', async () => {
    const editor = await openNotebook(["/Observations?$filter=CharacteristicName eq '"]);
    const doc = editor.notebook.cellAt(0).document;
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      doc.positionAt(doc.getText().length),
    );
    const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);
    const sorted = [...list.items].sort((a, b) => (a.sortText ?? label(a)).localeCompare(b.sortText ?? label(b)));
    const order = sorted.map(label);
    assert.deepEqual(order.slice(0, 2), ['pH', 'Temperature, water']);
    const obscure = order.indexOf('.alpha.-Amino-2,3-dihydro-5-methyl-3-oxo-4-isoxazolepropanoic acid');
    assert.ok(obscure > 0 && order.indexOf('Dissolved oxygen (DO)') < obscure);
  });
});

describe('waterData: query-cell completion and hover know the option of every line', () => {
  const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);
  async function completeAtEnd(source: string): Promise<{ doc: vscode.TextDocument; items: vscode.CompletionItem[] }> {
    const editor = await openNotebook([source]);
    const doc = editor.notebook.cellAt(0).document;
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      doc.positionAt(doc.getText().length),
    );
    return { doc, items: list.items };
  }

  it('offers the options on a new line after `$top = 500`, and $select inserts `$select = ` over `$se`', async () => {
    const { doc, items } = await completeAtEnd('/Observations\n$top = 500\n$se');
    const labels = items.map(label);
    assert.ok(labels.includes('$select'), labels.join(', '));
    assert.ok(!labels.includes('10') && !labels.includes('100'), labels.join(', '));
    const select = items.find((i) => label(i) === '$select')!;
    assert.equal(select.insertText, '$select = ');
    const range = select.range instanceof vscode.Range ? select.range : select.range!.replacing;
    assert.equal(doc.getText(range), '$se');
    assert.equal(select.command?.command, 'editor.action.triggerSuggest', 'the fields are listed next');
  });

  it('continues a wrapped $filter on an indented line, and starts an option on a `$` line after it', async () => {
    const filter = "/Observations\n$filter = CharacteristicName eq 'pH'\n    and RegionId eq 'hub.atlantic'\n";
    const continued = await completeAtEnd(`${filter}    `);
    assert.deepEqual(continued.items.map(label), ['and', 'or']);
    const next = await completeAtEnd(`${filter}$to`);
    assert.ok(next.items.map(label).includes('$top'), next.items.map(label).join(', '));
    assert.ok(!next.items.map(label).includes('or'));
  });

  it('hovers a field on a continuation line as a filter field of the entity set', async () => {
    const editor = await openNotebook([
      "/Observations\n$filter = CharacteristicName eq 'pH'\n    and RegionId eq 'hub.atlantic'",
    ]);
    const doc = editor.notebook.cellAt(0).document;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      new vscode.Position(2, 10),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /\*\*RegionId\*\*: filter field of Observations/);
    assert.equal(doc.getText(hovers.find((h) => h.range)?.range), 'RegionId');
  });
});

// Last: a notebook opened and run this way delays the next notebook editor in code-server by ~30 s.
describe('waterData: first run', () => {
  it('selects the sandbox kernel by itself, so Run All works without a kernel picker', async function () {
    this.timeout(45_000);
    const data = new vscode.NotebookData([
      new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '/Metadata?$top=1', 'water-query'),
    ]);
    const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
    await vscode.window.showNotebookDocument(doc);
    // Were a picker to open, execute would wait for it and this test would time out.
    await vscode.commands.executeCommand('notebook.execute', doc.uri);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && doc.cellAt(0).outputs.length === 0) await new Promise((r) => setTimeout(r, 100));
    assert.equal(resultOf(doc.cellAt(0).outputs).entitySet, 'Metadata');
    // An untitled notebook would ask to be saved on close; revert it instead.
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
