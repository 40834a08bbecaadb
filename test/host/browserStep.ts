import * as fs from 'node:fs';

/**
 * Hands a step to the browser side (test/host/browserSteps.mjs, run by test/host/run-code-server.mjs)
 * through the runner's report file and waits for its verdict; resolves to what a reading step read.
 */
export async function browserStep(step: string): Promise<string | undefined> {
  const report = process.env.API_WORKBENCH_TEST_REPORT;
  if (!report) throw new Error('no report file: browser steps need test/host/run-code-server.mjs');
  fs.appendFileSync(report, `HOST-STEP ${step}\n`);
  const ack = `${report}.ack-${step}`;
  const deadline = Date.now() + 120_000;
  while (!fs.existsSync(ack)) {
    if (Date.now() > deadline) throw new Error(`the browser never answered step ${step}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const verdict = fs.readFileSync(ack, 'utf8');
  fs.rmSync(ack);
  if (verdict.startsWith('ok:')) return verdict.slice(3);
  if (verdict.trim() !== 'ok') throw new Error(`browser step ${step}: ${verdict.trim()}`);
  return undefined;
}
