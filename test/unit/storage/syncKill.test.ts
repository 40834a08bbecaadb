import { startStorage, type Harness } from './emulatorHarness';
import { runKills } from './syncKill';

describe('storage sync: the CLI killed inside a run, again and again, then run to the end', function () {
  this.timeout(180_000);
  let h: Harness;
  before(async () => (h = await startStorage()));
  after(async () => h.close());
  it('seed 7: two kills per phase; same trees as an uninterrupted run, no duplicate, nothing left to do', async () => {
    await runKills(h, 7, 2, (line) => console.log(`      ${line}`));
  });
});
