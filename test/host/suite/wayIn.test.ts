// Finding the way in (issue 24): uploads are found by "upload" in the Command Palette and in the Explorer's
// context menu, every place the README names for Compare With… and Export as OpenAPI… holds it, the
// walkthrough is one command away and opened by itself once, and the side bar's rarely used views start
// collapsed while the chat gets the most room.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchServices } from '../../../src/platform/services';

interface Menu {
  command: string;
  when?: string;
  group?: string;
}
interface Contributes {
  commands: { command: string; title: string }[];
  menus: Record<string, Menu[]>;
  views: Record<string, { id: string; name: string; visibility?: string; initialSize?: number }[]>;
}

describe('the way in: commands where a user looks for them', () => {
  let ext: vscode.Extension<unknown>;
  let contributes: Contributes;
  let nls: Record<string, string>;
  const title = (id: string) => {
    const raw = contributes.commands.find((c) => c.command === id)?.title ?? '';
    return raw.replace(/^%(.*)%$/, (_, key: string) => nls[key] ?? raw);
  };
  const inMenu = (menu: string, id: string) => (contributes.menus[menu] ?? []).filter((m) => m.command === id);
  const inPalette = (id: string) =>
    contributes.commands.some((c) => c.command === id) && !inMenu('commandPalette', id).some((m) => m.when === 'false');

  before(async () => {
    const found = vscode.extensions.getExtension('api-workbench.api-workbench');
    assert.ok(found);
    ext = found;
    await ext.activate();
    contributes = (ext.packageJSON as { contributes: Contributes }).contributes;
    nls = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.nls.json'), 'utf8')) as Record<
      string,
      string
    >;
  });

  it('"upload" in the Command Palette finds Upload Files… and Upload Folder…', () => {
    const found = contributes.commands
      .filter((c) => /upload/i.test(title(c.command)) && inPalette(c.command))
      .map((c) => title(c.command));
    assert.ok(found.includes('Upload Files…'), `palette offers: ${found.join(', ')}`);
    assert.ok(found.includes('Upload Folder…'), `palette offers: ${found.join(', ')}`);
  });

  it('the Explorer offers Upload to Storage… on files and folders, and Compare With… on JSON files', () => {
    const upload = inMenu('explorer/context', 'apiWorkbench.storage.uploadToStorage');
    assert.equal(upload.length, 1);
    assert.equal(title('apiWorkbench.storage.uploadToStorage'), 'Upload to Storage…');
    // code-server rewrites `file` to its own scheme for a workspace on the server: either names local files.
    assert.match(upload[0].when ?? '', /resourceScheme == (file|'vscode-remote')/);
    const compare = inMenu('explorer/context', 'apiWorkbench.discovery.compareWith');
    assert.equal(compare.length, 1);
    assert.match(compare[0].when ?? '', /jsonc\?/);
  });

  it('every place the README names for Compare With… and Export as OpenAPI… holds the command', () => {
    const readme = fs.readFileSync(path.join(ext.extensionPath, 'README.md'), 'utf8');
    assert.match(
      readme,
      /Compare With…\*\* \(in the Command Palette, the Explorer context menu, the editor's context menu or the editor tab's context menu/,
    );
    assert.ok(inMenu('editor/context', 'apiWorkbench.discovery.compareWith').length, "the editor's context menu");
    assert.ok(
      inMenu('editor/title/context', 'apiWorkbench.discovery.compareWith').length,
      "the editor tab's context menu",
    );
    assert.ok(inPalette('apiWorkbench.discovery.compareWith'), 'command palette');
    assert.ok(inMenu('explorer/context', 'apiWorkbench.discovery.compareWith').length, "the explorer's context menu");
    assert.match(readme, /Export as OpenAPI…\*\* \(command palette or the editor's context menu/);
    assert.ok(inPalette('apiWorkbench.discovery.exportOpenApi'), 'command palette');
    assert.ok(inMenu('editor/context', 'apiWorkbench.discovery.exportOpenApi').length, "the editor's context menu");
  });

  it('Upload to Storage… uploads the Explorer selection into the folder given', async function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apiwb-upload-'));
    const stamp = Date.now();
    const a = path.join(dir, `explorer-a-${stamp}.txt`);
    const b = path.join(dir, `explorer-b-${stamp}.txt`);
    fs.writeFileSync(a, 'first\n');
    fs.writeFileSync(b, 'second\n');
    const made = await vscode.commands.executeCommand<{ id: string; title: string }[]>(
      'apiWorkbench.storage.uploadToStorage',
      vscode.Uri.file(a),
      [vscode.Uri.file(a), vscode.Uri.file(b)],
      'root',
    );
    assert.deepEqual(made.map((f) => f.title).sort(), [path.basename(a), path.basename(b)]);
    const listed = await vscode.commands.executeCommand<{ items?: { id: string; title: string }[] }>(
      'apiWorkbench.storage._testClient',
      'files.list',
      { q: `title contains 'explorer-' and 'root' in parents and trashed = false`, fields: 'items(id,title)' },
    );
    assert.deepEqual(
      (listed.items ?? [])
        .map((f) => f.title)
        .filter((t) => t.endsWith(`-${stamp}.txt`))
        .sort(),
      [path.basename(a), path.basename(b)],
    );
    for (const f of made)
      await vscode.commands.executeCommand('apiWorkbench.storage._testClient', 'files.delete', { fileId: f.id });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the way in: the walkthrough and the side bar', () => {
  let services: WorkbenchServices;

  before(async () => {
    const ext = vscode.extensions.getExtension('api-workbench.api-workbench');
    assert.ok(ext);
    services = (await ext.activate()) as WorkbenchServices;
  });

  it('opened the walkthrough on the first activation, and remembers it did (globalState)', () => {
    assert.equal(services.context.globalState.get('apiWorkbench.walkthroughShown'), true);
  });

  it('is one command away: API Workbench: Open Walkthrough', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('apiWorkbench.openWalkthrough');
    let label = '';
    for (let i = 0; i < 100 && !/Welcome|Get Started|Walkthrough/i.test(label); i++) {
      await new Promise((r) => setTimeout(r, 100));
      label = vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '';
    }
    assert.match(label, /Welcome|Get Started|Walkthrough/i);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('starts the rarely used views collapsed and gives the chat the most room', () => {
    const views = (
      vscode.extensions.getExtension('api-workbench.api-workbench')?.packageJSON as { contributes: Contributes }
    ).contributes.views.apiWorkbench;
    const byId = new Map(views.map((v) => [v.id, v]));
    for (const id of ['apiWorkbench.directory', 'apiWorkbench.diffReport', 'apiWorkbench.requestLog'])
      assert.equal(byId.get(id)?.visibility, 'collapsed', `${id} starts collapsed`);
    const open = views.filter((v) => v.visibility !== 'collapsed');
    assert.deepEqual(open.map((v) => v.id).sort(), ['apiWorkbench.generation', 'apiWorkbench.storage']);
    const chat = byId.get('apiWorkbench.generation')?.initialSize ?? 0;
    assert.ok(
      open.every((v) => v.id === 'apiWorkbench.generation' || (v.initialSize ?? 0) < chat),
      'the chat is the largest view',
    );
  });
});
