// The chat as an editor tab, inside a real extension host against the in-process sandbox: it opens
// in the editor area (one tab per conversation), comes back through the serializer after a reload,
// and Retry / Regenerate / edit-and-resend replace the right turns.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RenderedAck } from '../../../src/generation/protocol';
import type { EditorChatInfo } from '../../../src/generation/vscode/testEditorChat';

const editorChat = <T>(op: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>('apiWorkbench.generation._testEditorChat', op, ...args);

function chatTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter(
      (t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('apiWorkbench.generation.chat'),
    );
}

/** The tab strip learns a new title from the renderer a moment later. */
async function tabLabel(expected: string): Promise<string | undefined> {
  for (let i = 0; i < 50; i++) {
    const label = chatTabs()[0]?.label;
    if (label === expected) return label;
    await new Promise((r) => setTimeout(r, 100));
  }
  return chatTabs()[0]?.label;
}

suite('generation chat in the editor area', function () {
  this.timeout(120_000);

  suiteSetup(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('opens as an editor tab, one per conversation, titled after its first prompt at once', async () => {
    await vscode.commands.executeCommand('apiWorkbench.generation.newChatInEditor');
    assert.equal(chatTabs().length, 1, 'a webview tab of the chat type is in the editor area');
    const info = await editorChat<EditorChatInfo>('info');
    assert.equal(info.tabs, 1);
    const ack = await editorChat<RenderedAck>('send', 'Editor tab question [[fast]]');
    assert.equal(ack.state, 'done');
    assert.match(ack.visibleText, /Editor tab question/);
    const titled = await editorChat<EditorChatInfo>('info');
    assert.equal(titled.title, 'Editor tab question [[fast]]');
    assert.equal(await tabLabel('Editor tab question [[fast]]'), 'Editor tab question [[fast]]');

    // Opening the same conversation again reveals its tab instead of making a second one.
    await vscode.commands.executeCommand('apiWorkbench.generation.openInEditor', titled.conversationId);
    assert.equal(chatTabs().length, 1);
    const renamed = await editorChat<EditorChatInfo>('rename', 'Renamed in the tab');
    assert.equal(renamed.title, 'Renamed in the tab');
    assert.equal(await tabLabel('Renamed in the tab'), 'Renamed in the tab');
  });

  test('survives a reload: the serializer reopens the tab on the conversation its page saved', async () => {
    const before = await editorChat<EditorChatInfo>('info');
    const lastBefore = before.turnIds.at(-1);
    const r = await editorChat<{ state: { conversationId?: string }; info: EditorChatInfo; ack?: RenderedAck }>(
      'reload',
    );
    assert.equal(r.state.conversationId, before.conversationId, 'the page keeps its conversation id');
    assert.equal(r.info.conversationId, before.conversationId);
    assert.deepEqual(r.info.turnIds, before.turnIds);
    assert.equal(r.info.title, 'Renamed in the tab');
    assert.equal(r.ack?.turnId, lastBefore);
    assert.equal(r.ack?.state, 'done');
    assert.match(r.ack?.visibleText ?? '', /Editor tab question/);
    assert.equal(chatTabs().length, 1, 'one tab, not the old one beside the new');
  });

  test('Retry replaces a failed reply, Regenerate the last one, and an edit every later turn', async () => {
    const failed = await editorChat<RenderedAck>('send', 'Tell me more [[midstream-error]]');
    assert.equal(failed.state, 'error');
    const retried = await editorChat<RenderedAck>('resend', failed.turnId);
    assert.notEqual(retried.turnId, failed.turnId);
    let info = await editorChat<EditorChatInfo>('info');
    assert.ok(!info.turnIds.includes(failed.turnId), 'the failed turn is gone');
    assert.equal(info.turnIds.at(-1), retried.turnId);

    const ok = await editorChat<RenderedAck>('send', 'Second prompt [[fast]]');
    const regenerated = await editorChat<RenderedAck>('resend', ok.turnId);
    assert.equal(regenerated.state, 'done');
    assert.match(regenerated.visibleText, /Second prompt/);
    info = await editorChat<EditorChatInfo>('info');
    assert.deepEqual(info.turnIds.slice(-1), [regenerated.turnId]);

    const first = info.turnIds[0];
    const edited = await editorChat<RenderedAck>('resend', first, 'An edited first prompt [[fast]]');
    assert.equal(edited.state, 'done');
    assert.match(edited.visibleText, /An edited first prompt/);
    info = await editorChat<EditorChatInfo>('info');
    assert.deepEqual(info.turnIds, [edited.turnId], 'the edit replaced its turn and every later one');
  });
});
