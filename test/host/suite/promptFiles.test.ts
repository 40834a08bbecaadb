// .prompt files (Dotprompt) in a real extension host: the language is ours, and the generation feature's
// diagnostics name the right lines (YAML, config range, Handlebars) and follow edits.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';

async function diagnosticsOf(
  uri: vscode.Uri,
  until: (d: vscode.Diagnostic[]) => boolean,
): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'dotprompt');
    if (until(d) || Date.now() > deadline) return d;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const summary = (ds: vscode.Diagnostic[]) =>
  ds.map(
    (d) =>
      `${d.range.start.line + 1}:${d.severity === vscode.DiagnosticSeverity.Error ? 'E' : 'W'}:${typeof d.code === 'string' ? d.code : ''}`,
  );

describe('prompt files (Dotprompt) in the editor', function () {
  this.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'prompt-host-'));

  it('a .prompt file is in the dotprompt language and its problems are at their lines; an edit clears them', async () => {
    const file = join(dir, 'trip.prompt');
    writeFileSync(join(dir, '_tone.prompt'), 'Plain words.');
    writeFileSync(
      file,
      [
        '---',
        'model: gemini-2.0-flash',
        'config:',
        '  temperature: 5',
        'colour: blue',
        '---',
        '{{> tone}}',
        'Plan a trip to {{city}}.',
        '{{#if days}}',
        'For {{days}} days.',
      ].join('\n'),
    );
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, 'dotprompt');

    // The config value out of range, the unknown key and the unclosed block, each at its line.
    let ds = await diagnosticsOf(doc.uri, (d) => d.length > 0);
    assert.deepEqual(summary(ds), ['4:E:config-range', '10:E:handlebars', '5:W:unknown-key']);
    assert.match(ds[0].message, /temperature must be a number from 0 to 2/);

    // Fix the config: the diagnostics follow the edit.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(3, 0, 3, doc.lineAt(3).text.length), '  temperature: 0.5');
    assert.ok(await vscode.workspace.applyEdit(edit));
    ds = await diagnosticsOf(doc.uri, (d) => !summary(d).some((x) => x.endsWith('config-range')));
    assert.deepEqual(summary(ds), ['10:E:handlebars', '5:W:unknown-key']);

    // Close the block and drop the unknown key: no problem left.
    const fix = new vscode.WorkspaceEdit();
    fix.insert(doc.uri, new vscode.Position(9, doc.lineAt(9).text.length), '\n{{/if}}');
    fix.delete(doc.uri, new vscode.Range(4, 0, 5, 0));
    assert.ok(await vscode.workspace.applyEdit(fix));
    ds = await diagnosticsOf(doc.uri, (d) => d.length === 0);
    assert.deepEqual(summary(ds), []);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it("a model not in the sandbox's models.list is a warning at its value; a listed one clears it", async () => {
    const file = join(dir, 'typo.prompt');
    writeFileSync(file, '---\nmodel: googleai/gemini-2.0-flsh\n---\nHello.\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    let ds = await diagnosticsOf(doc.uri, (d) => d.length > 0);
    assert.deepEqual(summary(ds), ['2:W:model-unknown']);
    assert.equal(ds[0].range.start.character, 'model: '.length);
    assert.match(
      ds[0].message,
      /gemini-2\.0-flsh is not among this endpoint's models \(models\.list\); for example gemini-2\.0-flash/,
    );
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(1, 0, 1, doc.lineAt(1).text.length), 'model: googleai/gemini-2.0-flash');
    assert.ok(await vscode.workspace.applyEdit(edit));
    ds = await diagnosticsOf(doc.uri, (d) => d.length === 0);
    assert.deepEqual(summary(ds), []);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a missing partial is reported on the template line', async () => {
    const file = join(dir, 'lonely.prompt');
    writeFileSync(file, '---\nmodel: gemini-2.0-flash\n---\n\n{{> nowhere}}\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const ds = await diagnosticsOf(doc.uri, (d) => d.length > 0);
    assert.deepEqual(summary(ds), ['5:E:partial']);
    assert.match(ds[0].message, /_nowhere\.prompt/);
  });

  it('completion offers settings under config: and input variables after {{; hover explains a key', async () => {
    const file = join(dir, 'assist.prompt');
    writeFileSync(
      file,
      '---\nmodel: gemini-2.0-flash\nconfig:\n  te\ninput:\n  schema:\n    city: string\n---\nHi {{ci',
    );
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const labels = async (line: number, character: number) => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        new vscode.Position(line, character),
      );
      return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    };
    assert.ok((await labels(3, 4)).includes('temperature'));
    assert.ok((await labels(8, 7)).includes('city'));
    // Model names come from the endpoint's models.list (the sandbox here).
    assert.ok((await labels(1, 'model: gemini'.length)).includes('gemini-2.5-flash'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      new vscode.Position(1, 2),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /model to run it on/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('the preview shows the request the file renders to, and follows edits', async () => {
    const file = join(dir, 'preview.prompt');
    writeFileSync(
      file,
      [
        '---',
        'model: googleai/gemini-2.0-flash',
        'config:',
        '  temperature: 0.3',
        'input:',
        '  default:',
        '    city: Oslo',
        'output:',
        '  schema:',
        '    title: string',
        '---',
        '{{role "system"}}Be brief.',
        '{{role "user"}}Plan a day in {{city}}.',
      ].join('\n'),
    );
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const editor = await vscode.commands.executeCommand<vscode.TextEditor | undefined>(
      'apiWorkbench.generation.previewPrompt',
      doc.uri,
    );
    assert.ok(editor, 'the preview opened');
    const preview = editor.document;
    assert.equal(preview.languageId, 'json');
    const shown = JSON.parse(preview.getText()) as { model: string; request: Record<string, unknown> };
    assert.deepEqual(shown, {
      model: 'models/gemini-2.0-flash',
      request: {
        contents: [{ role: 'user', parts: [{ text: 'Plan a day in Oslo.' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.\n' }] },
        generationConfig: {
          temperature: 0.3,
          responseMimeType: 'application/json',
          responseSchema: {
            type: 'OBJECT',
            properties: { title: { type: 'STRING' } },
            propertyOrdering: ['title'],
            required: ['title'],
          },
        },
      },
    });

    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      doc.uri,
      new vscode.Range(12, 0, 12, doc.lineAt(12).text.length),
      '{{role "user"}}Plan a week in {{city}}.',
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    const deadline = Date.now() + 20_000;
    while (!preview.getText().includes('Plan a week in Oslo.') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    assert.ok(preview.getText().includes('Plan a week in Oslo.'), preview.getText());

    // A broken edit shows the problem at its line instead of a request.
    const broken = new vscode.WorkspaceEdit();
    broken.insert(doc.uri, new vscode.Position(12, 0), '{{#if x}}');
    assert.ok(await vscode.workspace.applyEdit(broken));
    while (!preview.getText().includes('problems') && Date.now() < deadline + 20_000)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(preview.getText(), /line 13: Handlebars/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Run (CodeLens) streams the reply of the rendered request from the sandbox', async () => {
    const file = join(dir, 'run.prompt');
    writeFileSync(
      file,
      '---\nmodel: gemini-2.0-flash\ninput:\n  default:\n    city: Oslo\n---\nPlan a day in {{city}}. [[fast]]\n',
    );
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const run = lenses.find((l) => l.command?.command === 'apiWorkbench.generation.runPrompt');
    assert.ok(run?.command, 'a Run lens');
    const result = await vscode.commands.executeCommand<{
      model: string;
      text: string;
      finishReason: string | null;
      error: string | null;
    }>(run.command.command, ...((run.command.arguments ?? []) as unknown[]));
    assert.equal(result.error, null);
    assert.equal(result.model, 'gemini-2.0-flash');
    assert.equal(result.finishReason, 'STOP');
    // The sandbox quotes the prompt it was sent: the rendered template, with the default input.
    assert.match(result.text, /Plan a day in Oslo\./);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
