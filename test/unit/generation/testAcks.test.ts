// Render reports (ExtensionMode.Test only) are kept just as long as a test may await them.
import * as assert from 'node:assert/strict';
import type { RenderedAck } from '../../../src/generation/protocol';
import { AckLog } from '../../../src/generation/vscode/testAcks';

function ack(turnId: string, textLength: number, state: RenderedAck['state'] = 'done'): RenderedAck {
  return {
    type: 'rendered',
    turnId,
    state,
    textLength,
    visibleText: 'x'.repeat(textLength),
    notices: [],
    cited: [],
    codeBlocks: [],
  };
}

describe('generation render reports', () => {
  it('keeps only the latest report of the last few turns', async () => {
    const log = new AckLog();
    for (let turn = 0; turn < 50; turn++)
      for (let n = 1; n <= 20; n++) log.record(ack(`t${turn}`, n, n < 20 ? 'streaming' : 'done'));
    assert.equal(log.last?.turnId, 't49');
    const recent = await log.wait((a) => a.turnId === 't45', 10);
    assert.equal(recent.textLength, 20, 'the latest report of a recent turn');
    await assert.rejects(
      log.wait((a) => a.turnId === 't0', 10),
      /Timed out/,
      'an old turn is no longer held',
    );
  });

  it('hands a report to the waiter that asked and forgets waiters that timed out', async () => {
    const log = new AckLog();
    const waiting = log.wait((a) => a.turnId === 'a' && a.state === 'done', 1000);
    log.record(ack('a', 3, 'streaming'));
    log.record(ack('a', 5));
    assert.equal((await waiting).textLength, 5);
    await assert.rejects(
      log.wait(() => false, 5),
      /Timed out/,
    );
    assert.equal((log as unknown as { waiters: unknown[] }).waiters.length, 0);
    log.clear();
    assert.equal(log.last, undefined);
  });
});
