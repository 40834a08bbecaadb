// A description document over the worker threshold (256 KB): its findings come from the analysis worker,
// which then answers hover, completion, navigation and quick fixes for the version it holds, and follows
// description edits. The same answers as for a small document, from the editor's own commands.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import sample from '../../../samples/discovery/bookshelf.v1.json';
import type { AnalysisWorker } from '../../../src/discovery/core';
import { Answers } from '../../../src/discovery/vscode/answers';
import type { DiscoveryDocuments } from '../../../src/discovery/vscode/documents';
import { codeValue, hoverText, languageOf, pos, quickFixes, waitForDiagnostics } from './discoveryEditor';

const EXTENSION_ID = 'api-workbench.api-workbench';

/** The sample with enough schemas added to pass 256 KB; each refers to Book, so references grow with it. */
function bigSample(): string {
  const doc = structuredClone(sample) as { schemas: Record<string, unknown> };
  for (let i = 0; i < 1500; i++)
    doc.schemas[`Padding${i}`] = {
      id: `Padding${i}`,
      type: 'object',
      description: `Schema number ${i}, here so that the document is big enough to be analysed off the editor's thread.`,
      properties: { book: { $ref: 'Book', description: 'The book it is about.' } },
    };
  const text = JSON.stringify(doc, null, 2);
  assert.ok(text.length > 256 * 1024, `the document is ${text.length} characters`);
  return text;
}

const labelOf = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

suite('discovery: a big document, answered by the analysis worker', () => {
  let doc: vscode.TextDocument;
  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'apiwb-discovery-big-')), 'big.json');
    writeFileSync(file, bigSample());
    doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    assert.equal(await languageOf(doc, 'discovery-json'), 'discovery-json');
    await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeValue(x) === 'ref-unresolved'), 30_000);
  });
  suiteTeardown(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  const definitions = (at: vscode.Position) =>
    vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      doc.uri,
      at,
    );
  /** Our definition: the one at a schema key (the built-in JSON features answer nothing here). */
  const definitionText = (defs: (vscode.Location | vscode.LocationLink)[]) =>
    defs.map((d) => doc.getText('targetRange' in d ? d.targetRange : d.range)).find((t) => t.startsWith('"'));

  /** The schemas whose outline entry does not select their own key in `d`. */
  const keysMisplaced = async (d: vscode.TextDocument) => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      d.uri,
    );
    const schemas = symbols.find((s) => s.name === 'schemas')?.children ?? [];
    assert.ok(schemas.length > 1500, `${schemas.length} schemas in the outline`);
    return schemas.filter((s) => d.getText(s.selectionRange) !== JSON.stringify(s.name)).map((s) => s.name);
  };
  /** Types into the description of Padding700, then a line break after its id; the outline after each. */
  const typeInto = async (d: vscode.TextDocument) => {
    const editor = await vscode.window.showTextDocument(d);
    assert.deepEqual(await keysMisplaced(d), []);
    // A word and an escape typed into a description: in a pretty-printed document every symbol keeps its
    // line and column (the outline is kept); on one line the symbols after it move along the line.
    for (const typed of ['\u00a0typed', '\\n']) {
      const at = d.getText().indexOf('Schema number 700') + 'Schema number 700'.length;
      assert.ok(at > 'Schema number 700'.length, 'the description is there');
      assert.ok(await editor.edit((b) => b.insert(d.positionAt(at), typed)));
      assert.deepEqual(await keysMisplaced(d), [], `after typing ${JSON.stringify(typed)}`);
    }
    const line = d.getText().indexOf('"Padding701",') + '"Padding701",'.length;
    assert.ok(await editor.edit((b) => b.insert(d.positionAt(line), '\n')));
    assert.deepEqual(await keysMisplaced(d), [], 'after a line break');
  };

  test('hover, completion, definition and references of a $ref', async () => {
    const at = pos(doc, '"$ref": "Author"', 10);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    assert.match(hoverText(hovers), /\*\*Author\*\*/);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      at,
    );
    const labels = list.items.map(labelOf);
    for (const name of ['Author', 'Book', 'Padding1499']) assert.ok(labels.includes(name), name);
    assert.equal(definitionText(await definitions(at)), '"Author"');
    const book = pos(doc, '"$ref": "Book"', 10);
    const refs = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      doc.uri,
      book,
    );
    // Every padding schema's $ref as well as the sample's own.
    assert.ok(refs.filter((r) => doc.getText(r.range) === '"Book"').length > 1500, `${refs.length} references`);
  });

  test('the quick fixes of an unresolved $ref', async () => {
    const d = vscode.languages
      .getDiagnostics(doc.uri)
      .find((x) => x.source === 'discovery' && codeValue(x) === 'ref-unresolved');
    assert.ok(d, 'the unresolved $ref is reported');
    const target = doc.getText(d.range).replace(/"/g, '');
    const actions = await quickFixes(doc.uri, d.range, `Create schema "${target}"`);
    assert.ok(
      actions.some((a) => a.title === `Create schema "${target}"`),
      actions.map((a) => a.title).join(', '),
    );
  });

  test('after an edit inside a description, answers are about the edited text', async () => {
    const editor = await vscode.window.showTextDocument(doc);
    const before = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source === 'discovery');
    const descAt = doc.getText().indexOf('Schema number 3,') + 'Schema number 3'.length;
    assert.ok(await editor.edit((b) => b.insert(doc.positionAt(descAt), '\u00a0and more words')));
    // The findings move at once; nothing is analysed again.
    const after = await waitForDiagnostics(doc.uri, (d) => d.length === before.length);
    assert.deepEqual(
      after.map((x) => codeValue(x)),
      before.map((x) => codeValue(x)),
    );
    const at = pos(doc, '"$ref": "Book"', 10, doc.getText().indexOf('Padding1400'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    assert.match(hoverText(hovers), /\*\*Book\*\*/);
    assert.equal(definitionText(await definitions(at)), '"Book"');
  });

  test('the outline follows description edits: each schema still names its own key', async () => {
    await typeInto(doc);
  });

  test('the outline of the same document on one line follows the same edits', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'apiwb-discovery-big-')), 'one-line.json');
    writeFileSync(file, JSON.stringify(JSON.parse(bigSample())));
    const oneLine = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(oneLine);
    assert.equal(await languageOf(oneLine, 'discovery-json'), 'discovery-json');
    await typeInto(oneLine);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test("with CRLF line breaks, the worker's lines and columns are the editor's", async () => {
    const crlfFile = path.join(mkdtempSync(path.join(tmpdir(), 'apiwb-discovery-big-')), 'crlf.json');
    writeFileSync(crlfFile, bigSample().replace(/\n/g, '\r\n'));
    const crlf = await vscode.workspace.openTextDocument(vscode.Uri.file(crlfFile));
    await vscode.window.showTextDocument(crlf);
    assert.equal(crlf.eol, vscode.EndOfLine.CRLF);
    assert.equal(await languageOf(crlf, 'discovery-json'), 'discovery-json');
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      crlf.uri,
    );
    const book = symbols.find((s) => s.name === 'schemas')?.children.find((s) => s.name === 'Padding1499');
    assert.ok(book, 'Padding1499 is in the outline');
    assert.equal(crlf.getText(book.selectionRange), '"Padding1499"');
    assert.match(crlf.getText(book.range), /^"Padding1499": \{\r\n[^]*\}$/);
    await typeInto(crlf);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('keystrokes outside descriptions are analysed as typed, each finding where the text says', async () => {
    const editor = await vscode.window.showTextDocument(doc);
    const at = doc.getText().indexOf('"$ref": "Book"', doc.getText().indexOf('Padding700')) + '"$ref": "Book'.length;
    // Typed one key at a time: each keystroke's text is the previous one with the change applied.
    for (const key of ['l', 'e', 't']) {
      const offset = doc.getText().indexOf('"', at);
      assert.ok(await editor.edit((b) => b.insert(doc.positionAt(offset), key)));
    }
    const found = await waitForDiagnostics(doc.uri, (d) => d.some((x) => /Booklet/.test(x.message)), 30_000);
    const booklet = found.find((x) => /Booklet/.test(x.message));
    assert.ok(booklet);
    assert.equal(doc.getText(booklet.range), '"Booklet"');
    await vscode.commands.executeCommand('undo');
    await vscode.commands.executeCommand('undo');
    await vscode.commands.executeCommand('undo');
    await waitForDiagnostics(doc.uri, (d) => !d.some((x) => /Booklet|Bookle|Bookl/.test(x.message)), 30_000);
  });
});

suite('discovery: bulk answers wait for the questions in flight', () => {
  // The outline and folding of a big document are serialised on this thread when they are handed back; a hover
  // asked with them (as the editor does when a document opens) is handed back first.
  type Pending = { promise: Promise<unknown>; resolve: (v: unknown) => void };
  const pending = (): Pending => {
    let resolve!: (v: unknown) => void;
    const promise = new Promise<unknown>((r) => (resolve = r));
    return { promise, resolve };
  };
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };

  test('questionsAnswered settles after the questions asked before it, not the ones after or the structure', async () => {
    const replies: Pending[] = [];
    const worker = {
      holds: () => true,
      query: () => {
        const p = pending();
        replies.push(p);
        return p.promise.then((answer) => ({ held: true, answer }));
      },
    } as unknown as AnalysisWorker;
    const documents = { ready: () => undefined, index: () => undefined } as unknown as DiscoveryDocuments;
    const doc = { uri: vscode.Uri.parse('untitled:big.json'), version: 1, isClosed: false } as vscode.TextDocument;
    const answers = new Answers(documents, worker);

    const hover = answers.ask(doc, { what: 'hover', offset: 10 });
    void answers.ask(doc, { what: 'structure' });
    let settled = false;
    const waited = answers.questionsAnswered().then(() => (settled = true));
    const definition = answers.ask(doc, { what: 'definition', offset: 10 });
    await turns(5);
    assert.equal(settled, false, 'it waits for the hover in flight');
    replies[0].resolve({ markdown: 'x' });
    assert.deepEqual(await hover, { markdown: 'x' });
    await waited;
    assert.equal(settled, true);
    // The definition held back a later wait; the structure, still unanswered, holds back none.
    assert.equal(replies.length, 3);
    let second = false;
    const waitedAgain = answers.questionsAnswered().then(() => (second = true));
    await turns(5);
    assert.equal(second, false, 'it waits for the definition in flight');
    replies[2].resolve(null);
    await waitedAgain;
    assert.equal(await definition, null);
  });
});
