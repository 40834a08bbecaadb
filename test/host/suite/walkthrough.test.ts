// The Getting Started walkthrough is contributed, every command it links or completes on exists, its media
// files ship, and it opens in the Welcome page.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string };
  completionEvents: string[];
}

describe('walkthrough: Get Started with API Workbench', () => {
  let ext: vscode.Extension<unknown>;
  let steps: Step[];

  before(async () => {
    const found = vscode.extensions.getExtension('api-workbench.api-workbench');
    assert.ok(found, 'the extension is loaded');
    ext = found;
    await ext.activate();
    const pkg = ext.packageJSON as { contributes: { walkthroughs?: { id: string; steps: Step[] }[] } };
    const walkthrough = pkg.contributes.walkthroughs?.find((w) => w.id === 'gettingStarted');
    assert.ok(walkthrough, 'contributes.walkthroughs holds gettingStarted');
    steps = walkthrough.steps;
  });

  it('takes the user through the sandbox, the four features and the request log', () => {
    assert.deepEqual(
      steps.map((s) => s.id),
      ['sandbox', 'directory', 'storage', 'chat', 'prompts', 'water', 'requestLog'],
    );
  });

  it('links and completes on commands and views that exist, with media that ships', async () => {
    const commands = new Set(await vscode.commands.getCommands(true));
    const views = new Set(
      (
        ext.packageJSON as { contributes: { views: Record<string, { id: string }[]> } }
      ).contributes.views.apiWorkbench.map((v) => v.id),
    );
    for (const step of steps) {
      const linked = [...step.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
      assert.ok(linked.length > 0, `${step.id}: a button`);
      for (const id of linked) assert.ok(commands.has(id), `${step.id}: command ${id} exists`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: a completion event`);
      for (const event of step.completionEvents) {
        const [kind, arg] = event.split(/:(.*)/s);
        if (kind === 'onCommand') assert.ok(commands.has(arg), `${step.id}: completes on ${arg}, which exists`);
        else if (kind === 'onView') assert.ok(views.has(arg), `${step.id}: completes on view ${arg}, which exists`);
        else assert.equal(kind, 'onContext', `${step.id}: ${event}`);
      }
      const media = step.media.markdown ?? step.media.image;
      assert.ok(media, `${step.id}: media`);
      assert.ok(fs.statSync(path.join(ext.extensionPath, media)).size > 200, `${step.id}: ${media} ships`);
    }
  });

  it('opens in the Welcome page', async () => {
    await vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      'api-workbench.api-workbench#gettingStarted',
      false,
    );
    for (let i = 0; i < 50; i++) {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      if (tab && /Welcome|Get Started|Walkthrough/i.test(tab.label)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const label = vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '';
    assert.match(label, /Welcome|Get Started|Walkthrough/i);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
