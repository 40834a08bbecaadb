// More seeds of the sync's model-based test and of the killed-CLI test than the unit tier runs, within
// the fuzz budget (FUZZ_ITERATIONS seeds, FUZZ_SECONDS per target). Seeds start after the unit tier's;
// every seed run is printed, so a failure names the one that reproduces it.
import * as assert from 'node:assert/strict';
import { startStorage, type Harness } from '../unit/storage/emulatorHarness';
import { runKills } from '../unit/storage/syncKill';
import { runModel } from '../unit/storage/syncModel';
import { budget } from './fuzz';

describe('fuzz: storage sync', function () {
  this.timeout(0);
  let h: Harness;
  before(async () => (h = await startStorage()));
  after(async () => h.close());

  it('model-based runs over more seeds agree with the oracle', async () => {
    const { iterations, seconds } = budget({ iterations: 6, seconds: 20 });
    const deadline = performance.now() + seconds * 1000;
    let seed = 100;
    for (let i = 0; i < iterations && (i === 0 || performance.now() < deadline); i++)
      await runModel(h, seed++, 12, (line) => console.log(`      ${line}`));
    assert.ok(seed > 100);
  });

  it('the CLI killed at random moments over more seeds ends as an uninterrupted run', async () => {
    const { iterations, seconds } = budget({ iterations: 1, seconds: 60 });
    const deadline = performance.now() + seconds * 1000;
    let seed = 1000;
    for (let i = 0; i < iterations && (i === 0 || performance.now() < deadline); i++)
      await runKills(h, seed++, 4, (line) => console.log(`      ${line}`));
    assert.ok(seed > 1000);
  });
});
