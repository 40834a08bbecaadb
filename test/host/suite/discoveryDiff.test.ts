// Compare With… in a real VS Code: against the API directory's published revision and against git HEAD
// (through the built-in Git extension), with the report's entries revealing both places.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../../src/platform/services';
import { fetchDirectory } from '../../../src/discovery/core/directory';
import type { DiffChange } from '../../../src/discovery/core/diff';

const EXTENSION_ID = 'api-workbench.api-workbench';

interface Report {
  oldUri: vscode.Uri;
  newUri: vscode.Uri;
  changes: DiffChange[];
}
type Json = Record<string, unknown>;

let services: WorkbenchServices | undefined;

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the host tests run in a workspace folder');
  return folder.uri.fsPath;
}

/** The first method of a resource in a parsed document, with its place. */
function firstMethod(doc: Json): { resource: string; name: string; method: Json } {
  const resources = doc.resources as Record<string, { methods?: Record<string, Json> }>;
  for (const [resource, r] of Object.entries(resources))
    for (const [name, method] of Object.entries(r.methods ?? {})) return { resource, name, method };
  throw new Error('no method in the document');
}

async function compare(uri: vscode.Uri, source: unknown): Promise<Report> {
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  const report = await vscode.commands.executeCommand<Report | undefined>(
    'apiWorkbench.discovery.compareWith',
    uri,
    source,
  );
  assert.ok(report, 'Compare With… produced a report');
  return report;
}

/** Reveals a change and checks each side's editor shows its document at the change's line. */
async function assertRevealed(report: Report, change: DiffChange): Promise<void> {
  const editors = await vscode.commands.executeCommand<vscode.TextEditor[]>('apiWorkbench.diffReport.reveal', change);
  const expected = [
    change.old && { uri: report.oldUri, line: change.old.line },
    change.new && { uri: report.newUri, line: change.new.line },
  ].filter((x): x is { uri: vscode.Uri; line: number } => !!x);
  assert.equal(editors.length, expected.length);
  for (const want of expected) {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === want.uri.toString());
    assert.ok(editor, `an editor shows ${want.uri.toString()}`);
    assert.equal(editor.selection.active.line, want.line - 1);
  }
}

suite('discovery: Compare With…', function () {
  this.timeout(240000);
  suiteSetup(async () => {
    services = (await vscode.extensions.getExtension(EXTENSION_ID)?.activate()) as WorkbenchServices | undefined;
  });

  test("against the API directory's published revision: a removed method is breaking and reveals both places", async () => {
    assert.ok(services, 'extension API');
    const items = await fetchDirectory((await services.endpoints.resolve('directory')).baseUrl);
    const item = items[0];
    assert.ok(item, 'the sandbox directory lists a document');
    const published = await vscode.commands.executeCommand<vscode.TextDocument>('apiWorkbench.directory.open', {
      kind: 'item',
      item,
    });
    const doc = JSON.parse(published.getText()) as Json;
    const { resource, name, method } = firstMethod(doc);
    const methods = (doc.resources as Record<string, { methods: Json }>)[resource].methods;
    delete methods[name];
    doc.revision = '29991231';
    const file = join(workspaceDir(), `diff-directory-${item.name}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 2));

    const report = await compare(vscode.Uri.file(file), 'directory');
    assert.equal(report.oldUri.scheme, 'apiworkbench-directory');
    assert.deepEqual(
      report.changes.map((c) => [c.code, c.severity]),
      [
        ['method-removed', 'breaking'],
        ['revision-changed', 'info'],
      ],
    );
    const removed = report.changes[0];
    assert.equal(removed.message, `Method ${String(method.id)} was removed.`);
    assert.equal(removed.new, null);
    assert.equal(removed.old?.pointer, `/resources/${resource}/methods/${name}`);
    await assertRevealed(report, removed);
    await assertRevealed(report, report.changes[1]);

    await vscode.commands.executeCommand('apiWorkbench.diffReport.openDiffEditor', report.changes[1]);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.equal(tab.input.original.toString(), report.oldUri.toString());
    assert.equal(tab.input.modified.toString(), report.newUri.toString());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('against the same file at git HEAD: an optional parameter made required is breaking', async () => {
    const repo = join(workspaceDir(), 'diff-repo');
    mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    git('init', '-q', '-b', 'main');
    const sample = join(workspaceDir(), 'discovery', 'bookshelf.v1.json');
    const doc = JSON.parse(await readText(sample)) as Json;
    const file = join(repo, 'bookshelf.v1.json');
    writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
    git('add', '.');
    git('commit', '-q', '-m', 'published');

    // Make the first optional query parameter of some method required, and save.
    let changed: string | undefined;
    const walk = (resources: unknown) => {
      for (const r of Object.values((resources ?? {}) as Record<string, Json>)) {
        for (const m of Object.values((r.methods ?? {}) as Record<string, Json>)) {
          for (const [p, v] of Object.entries((m.parameters ?? {}) as Record<string, Json>))
            if (!changed && v.location === 'query' && v.required !== true) {
              v.required = true;
              changed = `${String(m.id)}:${p}`;
            }
        }
        walk(r.resources);
      }
    };
    walk(doc.resources);
    assert.ok(changed, 'the sample has an optional query parameter');
    writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');

    const report = await compare(vscode.Uri.file(file), 'git');
    assert.equal(report.oldUri.scheme, 'git');
    assert.deepEqual(
      report.changes.map((c) => [c.code, c.severity]),
      [['parameter-made-required', 'breaking']],
    );
    const [methodId, param] = changed.split(':');
    assert.equal(report.changes[0].message, `Parameter "${param}" of ${methodId} is now required.`);
    await assertRevealed(report, report.changes[0]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

async function readText(path: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
}
