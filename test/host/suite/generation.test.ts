// Generation panel inside a real extension host, against the in-process sandbox. The webview's
// DOM is out of reach, so the panel reports what it rendered and these tests read that back.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RenderedAck } from '../../../src/generation/protocol';

const run = <T>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`apiWorkbench.generation.${command}`, ...args);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

suite('generation panel', function () {
  this.timeout(60_000);

  suiteSetup(async () => {
    await run('open');
    await run('_testNewChat');
  });

  test('a prompt streams into the panel and the whole reply is shown', async () => {
    const turnId = await run<string>('_testSend', 'Hello from the host test', { wait: false });
    assert.equal(typeof turnId, 'string');
    const partial = await run<RenderedAck>('_testWaitRendered', turnId, 1);
    const final = await run<RenderedAck>('_testWaitFinal', turnId);
    assert.equal(final.state, 'done');
    assert.match(final.visibleText, /Sandbox reply/);
    assert.match(final.visibleText, /Hello from the host test/);
    assert.ok(
      partial.textLength < final.textLength,
      `rendered while streaming: ${partial.textLength} < ${final.textLength}`,
    );
    assert.ok(
      final.notices.every((n) => !/error|incomplete/i.test(n)),
      final.notices.join('; '),
    );
  });

  test('Stop cancels the stream and keeps the partial reply', async () => {
    const turnId = await run<string>('_testSend', 'Stream a lot [[long:400]] [[slow:25]]', { wait: false });
    const partial = await run<RenderedAck>('_testWaitRendered', turnId, 40);
    assert.equal(partial.state, 'streaming');
    await run('_testStop');
    const final = await run<RenderedAck>('_testWaitFinal', turnId);
    assert.equal(final.state, 'stopped');
    assert.match(final.visibleText, /Line 1 of 400/);
    assert.ok(!final.visibleText.includes('Line 400 of 400'));
    assert.ok(final.notices.some((n) => /Stopped/.test(n)));
    await sleep(400);
    const later = await run<RenderedAck>('_testLastRendered');
    assert.equal(later.textLength, final.textLength, 'nothing arrives after Stop');
  });

  test('a reply stopped for safety right after a code fence opens shows no empty code block', async () => {
    // The sandbox cuts this reply for safety just after "```js".
    const ack = await run<RenderedAck>('_testSend', 'Write a haiku [[safety]]');
    assert.ok(
      ack.notices.some((n) => /safety/i.test(n)),
      ack.notices.join('; '),
    );
    assert.match(ack.visibleText, /Words in reverse order: haiku a Write/);
    assert.deepEqual(ack.codeBlocks, [], 'no code block, so no Copy / Insert / New file');
    // A complete code block still has its actions.
    const whole = await run<RenderedAck>('_testSend', 'Write a haiku');
    assert.equal(whole.state, 'done');
    assert.ok(whole.codeBlocks.length > 0 && whole.codeBlocks.every((b) => b.actions && b.code.trim()));
  });

  test('a blocked prompt shows its block reason', async () => {
    const ack = await run<RenderedAck>('_testSend', 'Something awful [[block]]');
    assert.equal(ack.state, 'blocked');
    assert.equal(ack.textLength, 0);
    assert.ok(
      ack.notices.some((n) => n.includes('Prompt blocked: SAFETY')),
      ack.notices.join('; '),
    );
  });

  test('recitation shows the mid-stream citations and what the finish reason means', async () => {
    const ack = await run<RenderedAck>('_testSend', 'Quote the famous text [[recitation]]');
    assert.equal(ack.state, 'done');
    assert.ok(ack.textLength > 0);
    assert.ok(
      ack.notices.some((n) => n.startsWith('Stopped for recitation')),
      ack.notices.join('; '),
    );
    assert.ok(ack.notices.includes('2 citations'), ack.notices.join('; '));
    assert.equal(ack.cited.length, 2);
    for (const passage of ack.cited) {
      assert.ok(
        passage.trim().length > 3,
        `each citation highlights its passage in the reply: ${JSON.stringify(ack.cited)}`,
      );
      assert.ok(
        ack.visibleText.replace(/\s+/g, ' ').includes(passage.replace(/\s+/g, ' ').trim().slice(0, 20)),
        `highlighted text is reply text: ${passage}`,
      );
    }
  });

  test('an error in the middle of the stream is reported and the partial reply kept', async () => {
    const ack = await run<RenderedAck>('_testSend', 'Tell me more [[midstream-error]]');
    assert.equal(ack.state, 'error');
    assert.ok(ack.textLength > 0, 'the text received before the error stays');
    assert.ok(
      ack.notices.some((n) => n.startsWith('Error 503 UNAVAILABLE — The model is overloaded')),
      ack.notices.join('; '),
    );
  });

  test('model HTML is shown as text, never executed', async () => {
    const ack = await run<RenderedAck>('_testSend', 'Show me HTML [[xss]]');
    assert.equal(ack.state, 'done');
    assert.match(ack.visibleText, /<script>window.__xss = 1<\/script>/, 'raw HTML appears as literal text');
  });

  test('a function call waits for approval, runs, and the model answers its result', async () => {
    const ask = await run<RenderedAck>('_testSend', 'Please use list_workspace_files to see the project');
    assert.equal(ask.state, 'awaitingApproval');
    assert.ok(ask.notices.some((n) => n.startsWith('function call list_workspace_files')));
    const answer = await run<RenderedAck>('_testDecide', true);
    assert.equal(answer.state, 'done');
    assert.match(answer.visibleText, /list_workspace_files/);
    assert.match(answer.visibleText, /"files"/);
  });

  test('read-only tools run without asking when the setting allows it', async () => {
    const config = vscode.workspace.getConfiguration('apiWorkbench.generation');
    await config.update('autoRunReadOnlyTools', true, vscode.ConfigurationTarget.Global);
    try {
      const ask = await run<RenderedAck>('_testSend', 'Check list_workspace_files again');
      const answer = await run<RenderedAck>('_testWaitNextFinal', ask.turnId);
      assert.equal(answer.state, 'done');
      assert.match(answer.visibleText, /list_workspace_files/);
      const first = await run<RenderedAck>('_testWaitFinal', ask.turnId);
      assert.ok(
        first.notices.some((n) => n === 'function call list_workspace_files auto'),
        first.notices.join('; '),
      );
    } finally {
      await config.update('autoRunReadOnlyTools', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a bad request is refused before sending, with the rule named', async () => {
    await run('_testSettings', { temperature: 3, stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] });
    try {
      const r = await run<{ problems: string[] }>('_testSend', 'never sent');
      assert.ok(Array.isArray(r.problems), JSON.stringify(r));
      assert.ok(
        r.problems.some((p) => /temperature is 3/.test(p)),
        r.problems.join('; '),
      );
      assert.ok(
        r.problems.some((p) => /at most 5/.test(p)),
        r.problems.join('; '),
      );
    } finally {
      await run('_testSettings', null);
    }
    const ok = await run<RenderedAck>('_testSend', 'Settings are back to normal');
    assert.equal(ok.state, 'done');
  });

  test('the conversation survives a reload of the panel', async () => {
    const before = await run<RenderedAck>('_testSend', 'Remember this: pineapple');
    const after = await run<RenderedAck>('_testReload');
    assert.equal(after.turnId, before.turnId);
    assert.equal(after.visibleText, before.visibleText);
    assert.equal(after.state, 'done');
  });
});
