// Runs inside a real VS Code extension host: the discovery language service through the public API only.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import sample from '../../../samples/discovery/bookshelf.v1.json';
import type { WorkbenchServices } from '../../../src/platform/services';
import { fetchDirectory, type DirectoryItem } from '../../../src/discovery/core/directory';
import { codeValue, hoverText, languageOf, pos, quickFixes, waitForDiagnostics } from './discoveryEditor';

const EXTENSION_ID = 'api-workbench.api-workbench';
const SAMPLE = JSON.stringify(sample, null, 2);

let services: WorkbenchServices | undefined;
async function activate(): Promise<void> {
  services = (await vscode.extensions.getExtension(EXTENSION_ID)?.activate()) as WorkbenchServices | undefined;
}

const sampleDir = mkdtempSync(path.join(tmpdir(), 'apiwb-discovery-'));
let samples = 0;

async function openSample(content = SAMPLE, expected = 'discovery-json'): Promise<vscode.TextDocument> {
  // A new file each time, not an untitled document: VS Code was seen to reuse a closed test's Untitled-N
  // and open it with that document's old text instead of the content asked for.
  const file = path.join(sampleDir, `sample-${++samples}.json`);
  writeFileSync(file, content);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  assert.equal(doc.getText(), content, 'the document opened is the one written');
  await vscode.window.showTextDocument(doc);
  await languageOf(doc, expected);
  return doc;
}

suite('discovery: diagnostics', () => {
  suiteSetup(activate);

  test("the sample's unresolved $ref is an error on its line; fixing it clears it", async () => {
    const doc = await openSample();
    const found = await waitForDiagnostics(doc.uri, (d) => d.length > 0);
    const errors = found.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    assert.equal(errors.length, 1);
    assert.equal(codeValue(errors[0]), 'ref-unresolved');
    assert.ok(doc.lineAt(errors[0].range.start.line).text.includes('"$ref": "Note"'));

    const at = doc.getText().indexOf('"Note"');
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(at), doc.positionAt(at + 6)), '"Author"'));
    await waitForDiagnostics(doc.uri, (d) => !d.some((x) => x.severity === vscode.DiagnosticSeverity.Error));
  });

  test('other JSON gets nothing from us', async () => {
    const doc = await openSample(
      JSON.stringify({ kind: 'something#else', schemas: { A: { $ref: 'Missing' } } }),
      'json',
    );
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(doc.languageId, 'json');
    assert.deepEqual(
      vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'discovery'),
      [],
    );
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      pos(doc, '"Missing"'),
    );
    assert.ok(!hoverText(hovers).includes('no such schema'));
  });

  test('JSON becomes a description when an edit makes it one, wherever the marker already was', async () => {
    // The kind typed in: the edited line brings the marker.
    const typed = await openSample('{\n  "name": "x"\n}', 'json');
    const editor = await vscode.window.showTextDocument(typed);
    const body = SAMPLE.slice(SAMPLE.indexOf('{') + 1, SAMPLE.lastIndexOf('}'));
    assert.ok(await editor.edit((b) => b.replace(new vscode.Range(0, 0, typed.lineCount, 0), `{${body}}`)));
    assert.equal(await languageOf(typed, 'discovery-json'), 'discovery-json');
    // The marker there from the start, in a document that is not one yet (kind is not at the top level): an edit
    // on another line that moves it up is enough.
    const nested = await openSample(`{\n"draft":\n${SAMPLE}\n}`, 'json');
    const nestedEditor = await vscode.window.showTextDocument(nested);
    assert.ok(
      await nestedEditor.edit((b) => {
        b.delete(new vscode.Range(0, 0, 2, 0));
        b.delete(
          new vscode.Range(nested.lineCount - 2, nested.lineAt(nested.lineCount - 2).text.length, nested.lineCount, 0),
        );
      }),
    );
    assert.equal(await languageOf(nested, 'discovery-json'), 'discovery-json');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a quick fix creates the missing schema', async () => {
    const doc = await openSample();
    const [diag] = (await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeValue(x) === 'ref-unresolved'))).filter(
      (d) => codeValue(d) === 'ref-unresolved',
    );
    const actions = await quickFixes(doc.uri, diag.range, 'Create schema "Note"');
    const create = actions.find((a) => a.title === 'Create schema "Note"');
    assert.ok(create?.edit, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(create.edit));
    assert.ok(doc.getText().includes('"Note": {'));
    await waitForDiagnostics(doc.uri, (d) => !d.some((x) => codeValue(x) === 'ref-unresolved'));
  });
});

suite('discovery: language features', () => {
  suiteSetup(activate);

  test('hover on a $ref shows the target schema; on a method its verb and URL', async () => {
    const doc = await openSample();
    const ref = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      pos(doc, '"$ref": "Author"', 10),
    );
    assert.match(hoverText(ref), /\*\*Author\*\*/);
    assert.match(hoverText(ref), /A person who writes books/);
    const method = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      pos(doc, '"delete": {', 2),
    );
    assert.match(hoverText(method), /DELETE https:\/\/bookshelf\.example\.com\/v1\/\{\+name\}/);
  });

  test('completion offers schema names in a $ref and httpMethod values', async () => {
    const doc = await openSample();
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      pos(doc, '"$ref": "Author"', 10),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const name of ['Author', 'Book', 'Shelf', 'ListBooksResponse']) assert.ok(labels.includes(name), name);
    // A schema's description comes when its item is focused (resolved), not with the list.
    const author = list.items.find((i) => i.label === 'Author');
    assert.equal(author?.documentation, undefined, 'documentation is not sent with the list');
    const resolved = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      pos(doc, '"$ref": "Author"', 10),
      undefined,
      list.items.length,
    );
    const documented = resolved.items.find((i) => i.label === 'Author')?.documentation;
    assert.match(typeof documented === 'string' ? documented : (documented?.value ?? ''), /A person who writes books/);
    const verbs = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      pos(doc, '"httpMethod": "GET"', 16),
    );
    assert.ok(verbs.items.some((i) => i.label === 'PATCH'));
  });

  test('definition of a $ref is the schema key; references list every $ref', async () => {
    const doc = await openSample();
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      doc.uri,
      pos(doc, '"$ref": "ListBooksResponse"', 10),
    );
    const ours = defs
      .map((d) => ('targetRange' in d ? d.targetRange : d.range))
      .find((r) => doc.getText(r) === '"ListBooksResponse"');
    assert.ok(ours, 'definition at the schema key');
    assert.ok(doc.lineAt(ours.start.line).text.includes('"ListBooksResponse": {'));
    const refs = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      doc.uri,
      pos(doc, '"Shelf": {', 2),
    );
    assert.equal(refs.filter((r) => doc.getText(r.range) === '"Shelf"').length, 4);
  });

  test('rename of a schema changes key, id and every $ref', async () => {
    const doc = await openSample();
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      doc.uri,
      pos(doc, '"Shelf": {', 2),
      'Bookcase',
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    const value = JSON.parse(doc.getText()) as {
      schemas: Record<string, { id?: string } | undefined>;
      resources: { shelves: { methods: { create: { request: { $ref: string } } } } };
    };
    assert.equal(value.schemas.Bookcase?.id, 'Bookcase');
    assert.equal(value.schemas.Shelf, undefined);
    assert.equal(value.resources.shelves.methods.create.request.$ref, 'Bookcase');
  });

  test('document symbols: resources → methods, schemas', async () => {
    const doc = await openSample();
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    );
    const resources = symbols.find((s) => s.name === 'resources' && s.children.some((c) => c.name === 'shelves'));
    assert.ok(resources, `symbols: ${symbols.map((s) => s.name).join(', ')}`);
    const shelves = resources.children.find((c) => c.name === 'shelves')!;
    const list = shelves.children.find((c) => c.name === 'list')!;
    assert.equal(list.kind, vscode.SymbolKind.Method);
    assert.equal(list.detail, 'GET v1/shelves');
    const schemas = symbols.find((s) => s.name === 'schemas' && s.children.some((c) => c.name === 'Book'));
    assert.ok(schemas);
  });

  test('the reference preview opens beside the document', async () => {
    await openSample();
    const shown = await vscode.commands.executeCommand<boolean>('apiWorkbench.discovery.showPreview');
    assert.equal(shown, true);
    // The tab model catches up with the new panel asynchronously.
    let tabs: readonly vscode.Tab[] = [];
    const isPreview = (t: vscode.Tab) => t.input instanceof vscode.TabInputWebview && /Preview/.test(t.label);
    for (let i = 0; i < 50 && !tabs.some(isPreview); i++) {
      await new Promise((r) => setTimeout(r, 100));
      tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    }
    assert.ok(tabs.some(isPreview), `tabs: ${tabs.map((t) => t.label).join(', ')}`);
    assert.ok(tabs.some((t) => isPreview(t) && t.label.includes('Bookshelf API')));
  });
});

suite('discovery: directory', () => {
  suiteSetup(activate);

  test('opens a sandbox directory item in an editor with the language service active', async () => {
    assert.ok(services, 'extension API');
    const endpoint = await services.endpoints.resolve('directory');
    const items = await fetchDirectory(endpoint.baseUrl);
    assert.ok(items.length >= 1, 'the sandbox directory lists our documents');
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('apiWorkbench.directory.open', {
      kind: 'item',
      item: items[0],
    });
    assert.ok(doc);
    assert.equal((JSON.parse(doc.getText()) as { kind?: unknown }).kind, 'discovery#restDescription');
    // Read-only and virtual: no Untitled document that asks to be saved on close.
    assert.equal(doc.uri.scheme, 'apiworkbench-directory');
    assert.equal(doc.isUntitled, false);
    assert.equal(doc.isDirty, false);
    assert.equal(await languageOf(doc, 'discovery-json'), 'discovery-json');
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    );
    assert.ok(symbols.some((s) => s.name === 'schemas'));
    await new Promise((r) => setTimeout(r, 500));
    const errors = vscode.languages
      .getDiagnostics(doc.uri)
      .filter((d) => d.source === 'discovery' && d.severity === vscode.DiagnosticSeverity.Error);
    assert.deepEqual(
      errors.map((d) => `${String(codeValue(d))}: ${d.message}`),
      [],
    );
  });
});

suite('discovery: directory view filter and save', () => {
  // A directory of our own, so preferred and non-preferred versions sit side by side (the sandbox's are all preferred).
  let server: http.Server;
  let listUrl = '';
  const served: {
    name: string;
    version: string;
    preferred: boolean;
    title: string;
    description: string;
    labels?: string[];
  }[] = [
    { name: 'alpha', version: 'v1', preferred: true, title: 'Alpha API', description: 'Keeps alpha records.' },
    {
      name: 'alpha',
      version: 'v2beta',
      preferred: false,
      title: 'Alpha API',
      description: 'Preview of alpha records.',
    },
    {
      name: 'gamma',
      version: 'v1',
      preferred: true,
      title: 'Gamma API',
      description: 'Measures gamma.',
      labels: ['limited_availability'],
    },
  ];
  const config = () => vscode.workspace.getConfiguration('apiWorkbench');
  const target = () =>
    vscode.workspace.workspaceFolders?.length
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  const ids = (items: { id: string }[] | undefined) => (items ?? []).map((i) => i.id).sort();

  suiteSetup(async () => {
    await activate();
    server = http.createServer((req, res) => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url === '/discovery/v1/apis') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            kind: 'discovery#directoryList',
            discoveryVersion: 'v1',
            items: served.map((s) => ({
              kind: 'discovery#directoryItem',
              id: `${s.name}:${s.version}`,
              discoveryRestUrl: `${base}/rest/${s.name}/${s.version}`,
              ...s,
            })),
          }),
        );
      } else if (req.url?.startsWith('/rest/')) {
        // Minified on the wire, as the public directory sends it; the view saves it pretty-printed.
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(sample));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    listUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/discovery/v1/apis`;
    await config().update('directory.url', listUrl, target());
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('apiWorkbench.directory.filter', '');
    await vscode.commands.executeCommand('apiWorkbench.directory.allVersions');
    await config().update('directory.url', undefined, target());
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('text filter matches name, title, version, description and labels; empty shows all', async () => {
    assert.deepEqual(ids(await vscode.commands.executeCommand('apiWorkbench.directory.refresh')), [
      'alpha:v1',
      'alpha:v2beta',
      'gamma:v1',
    ]);
    const filter = (text: string) =>
      vscode.commands.executeCommand<{ id: string }[]>('apiWorkbench.directory.filter', text);
    assert.deepEqual(ids(await filter('gamma')), ['gamma:v1']);
    assert.deepEqual(ids(await filter('ALPHA preview')), ['alpha:v2beta']);
    assert.deepEqual(ids(await filter('v1')), ['alpha:v1', 'gamma:v1']);
    assert.deepEqual(ids(await filter('limited_availability')), ['gamma:v1']);
    assert.deepEqual(ids(await filter('no such api')), []);
    assert.deepEqual(ids(await filter('  ')), ['alpha:v1', 'alpha:v2beta', 'gamma:v1']);
  });

  test('a filter that matches nothing offers Clear filter, which shows everything again', async () => {
    await vscode.commands.executeCommand('apiWorkbench.directory.preferredOnly');
    assert.deepEqual(ids(await vscode.commands.executeCommand('apiWorkbench.directory.filter', 'no such api')), []);
    const rows = await vscode.commands.executeCommand<{ label: string; command?: string }[]>(
      'apiWorkbench.directory._testChildren',
    );
    assert.equal(rows.length, 1);
    assert.match(rows[0].label, /Clear filter/);
    assert.equal(rows[0].command, 'apiWorkbench.directory.clearFilter');
    assert.deepEqual(ids(await vscode.commands.executeCommand(rows[0].command)), [
      'alpha:v1',
      'alpha:v2beta',
      'gamma:v1',
    ]);
  });

  test('preferred-only hides other versions, combines with the text filter, and switches back', async () => {
    await vscode.commands.executeCommand('apiWorkbench.directory.filter', '');
    assert.deepEqual(ids(await vscode.commands.executeCommand('apiWorkbench.directory.preferredOnly')), [
      'alpha:v1',
      'gamma:v1',
    ]);
    assert.deepEqual(ids(await vscode.commands.executeCommand('apiWorkbench.directory.filter', 'alpha')), ['alpha:v1']);
    assert.deepEqual(ids(await vscode.commands.executeCommand('apiWorkbench.directory.allVersions')), [
      'alpha:v1',
      'alpha:v2beta',
    ]);
    assert.deepEqual(ids(await vscode.commands.executeCommand('apiWorkbench.directory.filter', '')), [
      'alpha:v1',
      'alpha:v2beta',
      'gamma:v1',
    ]);
  });

  test('save writes the pretty-printed description to the given workspace file and opens it', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the host tests run with a workspace folder');
    const items = await vscode.commands.executeCommand<DirectoryItem[]>('apiWorkbench.directory.refresh');
    const item = items.find((i) => i.id === 'alpha:v2beta');
    assert.ok(item);
    const file = vscode.Uri.joinPath(folder, 'saved-descriptions', 'alpha.v2beta.json');
    const saved = await vscode.commands.executeCommand<vscode.Uri>(
      'apiWorkbench.directory.save',
      { kind: 'item', item },
      file,
    );
    assert.equal(saved?.toString(), file.toString());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    assert.equal(text, JSON.stringify(sample, null, 2) + '\n');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file.toString());
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'saved-descriptions'), { recursive: true });
  });

  test('save without an item does nothing', async () => {
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.directory.save'), undefined);
  });
});

suite('discovery: one source per feature, links and fixes that show themselves', () => {
  suiteSetup(activate);
  const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

  test('a description document gets the discovery-json language by content; other JSON keeps json', async () => {
    const doc = await openSample();
    assert.equal(doc.languageId, 'discovery-json');
    const other = await openSample('{ "kind": "x", "a": 1 }', 'json');
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(other.languageId, 'json');
  });

  test('no duplicate symbols, completion items or hovers in a discovery document', async () => {
    const doc = await openSample();
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    );
    const top = symbols.map((s) => s.name);
    assert.deepEqual(top, [...new Set(top)], `top-level symbols: ${top.join(', ')}`);
    const schemas = symbols.filter((s) => s.name === 'schemas');
    assert.equal(schemas.length, 1);
    const names = schemas[0].children.map((c) => c.name);
    assert.deepEqual(names, [...new Set(names)]);
    assert.ok(names.includes('Book'));

    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      pos(doc, '"$ref": "Author"', 10),
    );
    // Quoted and unquoted spellings of one schema count as the same item.
    const bare = list.items.map((i) => label(i).replace(/^"|"$/g, ''));
    assert.deepEqual(bare, [...new Set(bare)], `completion: ${list.items.map(label).join(', ')}`);
    assert.ok(bare.includes('Shelf'));

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      pos(doc, '"$ref": "Author"', 10),
    );
    assert.equal(hovers.length, 1, hoverText(hovers));

    // The editor's own word-based suggestions would add every word of the document beside our items
    // (and scan 4 MB on every keystroke in a big document): off for discovery documents by default.
    const editorSettings = vscode.workspace.getConfiguration('editor', { languageId: 'discovery-json' });
    assert.equal(editorSettings.get('wordBasedSuggestions'), 'off');
  });

  test('a user who switches the document back to JSON keeps JSON, and our problems go', async () => {
    const doc = await openSample();
    await waitForDiagnostics(doc.uri, (d) => d.length > 0);
    const json = await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(json.languageId, 'json');
    await waitForDiagnostics(doc.uri, (d) => d.length === 0);
  });

  test("a rule code in Problems links to the rule's section of the bundled docs/rules.md", async () => {
    const doc = await openSample();
    const [diag] = await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeValue(x) === 'ref-unresolved'));
    const code = diag.code;
    assert.ok(typeof code === 'object', 'code has a target');
    assert.equal(code.value, 'ref-unresolved');
    assert.ok(code.target.path.endsWith('/docs/rules.md'), code.target.toString());
    const line = Number(/^L(\d+)$/.exec(code.target.fragment)?.[1]);
    const docs = await vscode.workspace.openTextDocument(code.target.with({ fragment: '' }));
    assert.equal(docs.lineAt(line - 1).text, '## ref-unresolved');
  });

  test('after a quick fix the editor selects what it inserted (the description to fill in)', async () => {
    const doc = await openSample();
    const [diag] = (await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeValue(x) === 'ref-unresolved'))).filter(
      (d) => codeValue(d) === 'ref-unresolved',
    );
    const actions = await quickFixes(doc.uri, diag.range, 'Create schema "Note"');
    const create = actions.find((a) => a.title === 'Create schema "Note"');
    assert.ok(create?.edit && create.command, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(create.edit));
    await vscode.commands.executeCommand(create.command.command, ...((create.command.arguments ?? []) as unknown[]));
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), doc.uri.toString());
    const at = editor.selection.active;
    const line = doc.lineAt(at.line).text;
    assert.match(line, /"description": ""/);
    assert.equal(line.slice(at.character - 1, at.character + 1), '""');
    assert.ok(doc.lineAt(at.line - 1).text.includes('"type": "object"') || line.includes('description'));
  });

  test('formatting keeps comments and trailing commas (what the JSON language gave)', async () => {
    const doc = await openSample(
      '{"kind": "discovery#restDescription", // our API\n"discoveryVersion": "v1", "schemas": {"A": {"id": "A",},},}',
    );
    assert.equal(doc.languageId, 'discovery-json');
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>(
      'vscode.executeFormatDocumentProvider',
      doc.uri,
      { tabSize: 2, insertSpaces: true },
    );
    assert.ok(edits.length > 0);
    const we = new vscode.WorkspaceEdit();
    we.set(doc.uri, edits);
    assert.ok(await vscode.workspace.applyEdit(we));
    assert.ok(doc.getText().includes('// our API'));
    assert.ok(doc.getText().includes('\n  "schemas": {\n    "A": {\n      "id": "A",\n    },'), doc.getText());
  });
});

suite('discovery: preview links lead to the source', () => {
  suiteSetup(activate);

  test("a type link reveals its schema's source beside the preview, keeping the focus there", async () => {
    const doc = await openSample();
    assert.equal(await vscode.commands.executeCommand<boolean>('apiWorkbench.discovery.showPreview'), true);
    const editor = await vscode.commands.executeCommand<vscode.TextEditor | undefined>(
      'apiWorkbench._testDiscoveryPreviewGoto',
      ['schemas', 'Book'],
      true,
    );
    assert.ok(editor, 'the source editor');
    assert.equal(editor.document.uri.toString(), doc.uri.toString());
    const line = doc.lineAt(editor.selection.active.line).text;
    assert.match(line, /^\s*"Book": \{/);
  });
});
