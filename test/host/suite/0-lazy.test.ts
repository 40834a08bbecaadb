// Runs first (suites load in name order): what a plain JSON file costs must be measured before any other
// suite has used a feature. The extension's bundles are CommonJS, so what was loaded is in require.cache.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browserStep } from '../browserStep';

const EXTENSION_NAME = 'api-workbench';

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.all.find((e) => (e.packageJSON as { name?: string }).name === EXTENSION_NAME);
  assert.ok(ext, 'the extension is installed');
  return ext;
}

/** Our bundles (dist/) in this extension host's module cache, as paths relative to the extension. */
function loadedBundles(): string[] {
  const root = extension().extensionPath;
  return Object.keys(require.cache)
    .filter((k) => k.startsWith(path.join(root, 'dist') + path.sep))
    .map((k) => path.relative(root, k).split(path.sep).join('/'))
    .sort();
}

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('lazy loading: what each use loads', () => {
  it('the window starting activates the entry alone, which shows the status bar item', async function () {
    this.timeout(120_000);
    const ext = extension();
    const events = (ext.packageJSON as { activationEvents?: string[] }).activationEvents ?? [];
    assert.ok(events.includes('onStartupFinished'), 'activated with every window, not only by a JSON file');
    // Nothing here opens a document or runs a command: onStartupFinished alone activates us.
    await until('the extension is active (onStartupFinished)', () => ext.isActive, 90_000);
    assert.deepEqual(loadedBundles(), ['dist/extension.js'], 'no feature and no sandbox loaded at startup');
    await browserStep('status-bar-endpoints');
    assert.deepEqual(loadedBundles(), ['dist/extension.js'], 'showing the status bar item loaded nothing more');
  });

  it('a plain JSON file activates the extension and loads only the entry bundle', async () => {
    const ext = extension();
    // The window's start activated the entry (previous test): a plain JSON file must add nothing to it.
    assert.deepEqual(loadedBundles(), ['dist/extension.js']);
    const doc = await vscode.workspace.openTextDocument({
      language: 'json',
      content: JSON.stringify({ kind: 'storage#file', name: 'plain.json', items: [1, 2, 3] }, null, 2),
    });
    await vscode.window.showTextDocument(doc);
    await until('the extension is active (onLanguage:json)', () => ext.isActive);
    // Give the content detector its chance: the open and a first edit are both checked.
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), '  "more": true,\n'));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(loadedBundles(), ['dist/extension.js']);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a discovery document loads the discovery bundle and nothing else', async function () {
    this.timeout(120_000);
    // A file, not a second untitled document: VS Code reuses the name Untitled-1 of the previous test's
    // closed document and was seen to open it with that document's content instead of the one asked for.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'apiwb-lazy-')), 'lazy.v1.json');
    writeFileSync(file, JSON.stringify({ kind: 'discovery#restDescription', name: 'lazy', version: 'v1' }, null, 2));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.equal(doc.languageId, 'json');
    assert.ok(doc.getText().includes('discovery#restDescription'), 'the document opened is the one written');
    await vscode.window.showTextDocument(doc);
    await until(
      'the discovery bundle is loaded',
      () => loadedBundles().includes('dist/features/discovery.js'),
      60_000,
    ).catch((err: Error) => {
      // Tells a detector that never fired from a bundle loaded under another name.
      const ours = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'discovery');
      throw new Error(`${err.message}; loaded: ${loadedBundles().join(' ')}; discovery diagnostics: ${ours.length}`);
    });
    assert.deepEqual(loadedBundles(), ['dist/extension.js', 'dist/features/discovery.js']);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('the first run of a feature command loads its bundle and runs the real command', async () => {
    // A generation command with no side effect outside the extension: it resolves once the panel exists.
    const rendered = await vscode.commands.executeCommand('apiWorkbench.generation._testLastRendered');
    assert.equal(rendered, undefined, 'a fresh panel has rendered nothing');
    assert.ok(loadedBundles().includes('dist/features/generation.js'));
    assert.ok(!loadedBundles().includes('dist/features/storage.js'), 'storage is still not loaded');
    assert.ok(!loadedBundles().includes('dist/sandbox.js'), 'nothing has needed the sandbox yet');
  });
});

describe('lazy loading: loading a feature starts nothing', () => {
  it('loading all four features loads their bundles only: no sandbox, no HTTP library (nothing was requested)', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('apiWorkbench._testLoadFeatures');
    // What a feature starts without waiting (a promise, a timer) and what VS Code asks of it afterwards (the
    // Accounts menu asks the storage provider for sessions) has a moment to happen.
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(loadedBundles(), [
      'dist/extension.js',
      'dist/features/discovery.js',
      'dist/features/generation.js',
      'dist/features/storage.js',
      'dist/features/waterData.js',
    ]);
  });

  it("a loaded feature's commands run its handlers through the stubs, which stay the only registration", async function () {
    this.timeout(60_000);
    // A stub the feature took over answers with the feature's own state (no prompt has been shown yet) …
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.storage._testConflictPrompts'), 0);
    // … and arguments reach the handler: an unknown label is the handler's own error, not "command not found".
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('apiWorkbench.storage._testUri', ['No such root'])),
      /No node "No such root"/,
    );
    const ids = (await vscode.commands.getCommands(true)).filter((id) => id === 'apiWorkbench.storage.refresh');
    assert.deepEqual(ids, ['apiWorkbench.storage.refresh']);
  });
});
