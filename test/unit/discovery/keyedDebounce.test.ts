import * as assert from 'node:assert/strict';
import { KeyedDebounce } from '../../../src/discovery/core';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('keyed debounce', () => {
  it('runs once per key after the pause, with the newest request', async () => {
    const d = new KeyedDebounce(20);
    const runs: string[] = [];
    d.schedule('a', () => runs.push('a1'));
    d.schedule('b', () => runs.push('b1'));
    d.schedule('a', () => runs.push('a2'));
    assert.ok(d.has('a'));
    await pause(60);
    assert.deepEqual(runs.sort(), ['a2', 'b1']);
    assert.ok(!d.has('a'));
  });

  it('cancel and dispose drop what waits', async () => {
    const d = new KeyedDebounce(10);
    const runs: string[] = [];
    d.schedule('a', () => runs.push('a'));
    d.schedule('b', () => runs.push('b'));
    d.cancel('a');
    d.dispose();
    d.schedule('c', () => runs.push('c'));
    d.cancel('c');
    await pause(40);
    assert.deepEqual(runs, []);
  });
});
