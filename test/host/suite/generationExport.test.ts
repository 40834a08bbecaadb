// The chat's Export (Markdown / JSON) end to end in a real extension host: the commands a user runs from
// the palette or the chat's menu, against the in-process sandbox model. Only the save dialog is answered by
// the test (it is the OS's or the workbench's, not ours); the file is really written and read back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RenderedAck } from '../../../src/generation/protocol';
import type { EditorChatInfo } from '../../../src/generation/vscode/testEditorChat';

const editorChat = <T>(op: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>('apiWorkbench.generation._testEditorChat', op, ...args);

interface ExportedTurn {
  id: string;
  kind: string;
  prompt: string;
  model: string;
  text: string;
  summary: { state: string; citations: { n: number; uri?: string }[] };
}
interface ExportedJson {
  format: string;
  version: number;
  id: string;
  title: string;
  exportedAt: string;
  turns: ExportedTurn[];
}

type Window = {
  showSaveDialog: typeof vscode.window.showSaveDialog;
  showInformationMessage: (message: string, ...items: string[]) => Thenable<string | undefined>;
};

suite('generation chat export', function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-host-export-'));
  const w = vscode.window as unknown as Window;
  const original = { save: w.showSaveDialog, info: w.showInformationMessage };
  const dialogs: vscode.SaveDialogOptions[] = [];
  const messages: string[] = [];
  /** Where the "user" saves next (undefined: they cancel), and what they click on the "exported" message. */
  let saveTo: vscode.Uri | undefined;
  let clickOnMessage: string | undefined;
  let info: EditorChatInfo;
  const model = 'models/gemini-2.0-flash';

  suiteSetup(async () => {
    w.showSaveDialog = (options) => {
      dialogs.push(options ?? {});
      return Promise.resolve(saveTo);
    };
    w.showInformationMessage = (message: string) => {
      messages.push(message);
      return Promise.resolve(clickOnMessage);
    };
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // A model picked in a chat's header earlier (as another suite does): the setting changed after it is the
    // newer choice, and the chats follow it (in the full run they kept the header's model before the fix).
    await vscode.commands.executeCommand('apiWorkbench.generation._testSettings', { model: 'models/gemini-2.5-flash' });
    await vscode.workspace
      .getConfiguration('apiWorkbench.generation')
      .update('model', model, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('apiWorkbench.generation.newChatInEditor');
    const first = await editorChat<RenderedAck>('send', 'Export me: first question [[fast]]');
    assert.equal(first.state, 'done');
    // [[cite]]: a reply with a code block and citation metadata, both of which the export must keep.
    const second = await editorChat<RenderedAck>('send', 'Write a TypeScript function that adds. [[cite]] [[fast]]');
    assert.equal(second.state, 'done');
    info = await editorChat<EditorChatInfo>('info');
    assert.equal(info.turnIds.length, 2);
  });

  suiteTeardown(async () => {
    w.showSaveDialog = original.save;
    w.showInformationMessage = original.info;
    await vscode.workspace
      .getConfiguration('apiWorkbench.generation')
      .update('model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('JSON: asks where (a .json name from the title), writes every turn with its model, says where', async () => {
    saveTo = vscode.Uri.file(path.join(dir, 'chat.json'));
    clickOnMessage = undefined;
    await vscode.commands.executeCommand('apiWorkbench.generation.exportJson');
    const asked = dialogs.at(-1);
    assert.ok(asked?.defaultUri, 'the dialog proposes a file');
    assert.equal(path.posix.basename(asked.defaultUri.path), 'export-me-first-question-fast.json');
    assert.deepEqual(Object.values(asked.filters ?? {}), [['json']]);
    assert.match(asked.title ?? '', /Export chat "Export me: first question \[\[fast\]\]"/);

    const exported = JSON.parse(fs.readFileSync(saveTo.fsPath, 'utf8')) as ExportedJson;
    assert.equal(exported.format, 'api-workbench-chat');
    assert.equal(exported.version, 1);
    assert.equal(exported.id, info.conversationId);
    assert.equal(exported.title, 'Export me: first question [[fast]]');
    assert.ok(Math.abs(Date.parse(exported.exportedAt) - Date.now()) < 60_000, 'exportedAt is now');
    assert.deepEqual(
      exported.turns.map((t) => t.id),
      info.turnIds,
      'every turn, in order',
    );
    assert.deepEqual(
      exported.turns.map((t) => [t.kind, t.prompt, t.model, t.summary.state]),
      [
        ['prompt', 'Export me: first question [[fast]]', model, 'done'],
        ['prompt', 'Write a TypeScript function that adds. [[cite]] [[fast]]', model, 'done'],
      ],
    );
    for (const t of exported.turns) assert.ok(t.text.length > 20, `turn ${t.id} keeps its reply`);
    assert.ok(exported.turns[1].summary.citations.length > 0, 'the citations are kept');
    assert.equal(messages.at(-1), `Chat exported to ${saveTo.fsPath}.`);
  });

  test('Markdown: a heading per speaker, the model named, code and citations kept; Open shows the file', async () => {
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'chat.json'), 'utf8')) as ExportedJson;
    saveTo = vscode.Uri.file(path.join(dir, 'chat.md'));
    clickOnMessage = 'Open';
    await vscode.commands.executeCommand('apiWorkbench.generation.exportMarkdown');
    assert.deepEqual(Object.values(dialogs.at(-1)?.filters ?? {}), [['md']]);
    assert.equal(path.posix.basename(dialogs.at(-1)?.defaultUri?.path ?? ''), 'export-me-first-question-fast.md');

    const md = fs.readFileSync(saveTo.fsPath, 'utf8');
    assert.ok(md.startsWith('# Export me: first question [[fast]]\n'), md.slice(0, 100));
    assert.equal(md.match(/^## You$/gm)?.length, 2, 'one "You" heading per turn');
    assert.equal(md.match(/^## Model \(models\/gemini-2\.0-flash\)$/gm)?.length, 2, 'the model of every turn');
    assert.ok(!md.trimStart().startsWith('{'), 'Markdown, not JSON');
    let at = 0;
    for (const t of json.turns) {
      // Every turn in order: its prompt, then its reply text as it was received.
      const p = md.indexOf(`\n${t.prompt}\n`, at);
      assert.ok(p > at, `the prompt of turn ${t.id} follows the previous turn`);
      const r = md.indexOf(t.text.trim().split('\n')[0], p);
      assert.ok(r > p, `the reply of turn ${t.id} follows its prompt`);
      at = r;
    }
    assert.match(md, /^```\w*$/m, 'the code block stays fenced');
    for (const c of json.turns[1].summary.citations) assert.ok(md.includes(`[${c.n}] ${c.uri ?? '(no link)'}`));

    assert.equal(messages.at(-1), `Chat exported to ${saveTo.fsPath}.`);
    // "Open" on the message opens the exported file.
    for (let i = 0; i < 50 && vscode.window.activeTextEditor?.document.uri.fsPath !== saveTo.fsPath; i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, saveTo.fsPath);
  });

  test('cancelling the dialog writes nothing and says nothing', async () => {
    await vscode.commands.executeCommand('apiWorkbench.generation.openInEditor', info.conversationId);
    saveTo = undefined;
    const before = { dialogs: dialogs.length, messages: messages.length, files: fs.readdirSync(dir).sort() };
    await vscode.commands.executeCommand('apiWorkbench.generation.exportJson');
    assert.equal(dialogs.length, before.dialogs + 1, 'the dialog was shown');
    assert.equal(messages.length, before.messages);
    assert.deepEqual(fs.readdirSync(dir).sort(), before.files);
  });
});
