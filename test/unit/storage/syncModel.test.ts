import { startStorage, type Harness } from './emulatorHarness';
import { runModel } from './syncModel';

// Fixed seeds: the same operations every run. More seeds run in the fuzz tier (test/fuzz/sync.fuzz.ts).
const SEEDS = [1, 2, 3];

describe('storage sync: model-based randomized runs against an oracle', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => (h = await startStorage()));
  after(async () => h.close());
  for (const seed of SEEDS)
    it(`seed ${seed}: 8 rounds of random edits on both sides, each followed by a sync`, async () => {
      await runModel(h, seed, 8, (line) => console.log(`      ${line}`));
    });
});
