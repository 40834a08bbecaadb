// The test module VS Code loads in its extension host (`extensionTestsPath`): the same `run()` contract
// for code-server and @vscode/test-electron. Output goes to stdout and, when the runner asks for it,
// to the report file it tails (the browser-hosted extension host has no terminal of its own).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';

/**
 * Mocha's reporters print through `Base.consoleLog`; the extension host's own console and stdout are
 * not ours to patch (they may be read-only there), so the runner's report file is fed from that hook.
 */
function reportTo(file: string | undefined): { log: (...args: unknown[]) => void; restore: () => void } {
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void };
  const original = base.consoleLog;
  const log = (...args: unknown[]) => {
    if (file) {
      try {
        fs.appendFileSync(file, util.format(...args) + '\n');
      } catch {
        /* the runner may have gone; tests still run */
      }
    }
    original(...args);
  };
  base.consoleLog = log;
  return { log, restore: () => (base.consoleLog = original) };
}

export async function run(): Promise<void> {
  const { log, restore } = reportTo(process.env.API_WORKBENCH_TEST_REPORT);
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  // Suites may be written in either mocha style; give the tdd names too.
  mocha.suite.on('pre-require', (ctx: Record<string, unknown>) => {
    ctx.suite = ctx.describe;
    ctx.test = ctx.it;
    ctx.suiteSetup = ctx.before;
    ctx.suiteTeardown = ctx.after;
    ctx.setup = ctx.beforeEach;
    ctx.teardown = ctx.afterEach;
  });
  const suiteDir = path.join(__dirname, 'suite');
  const grep = process.env.API_WORKBENCH_TEST_GREP;
  if (grep) mocha.grep(grep);
  for (const f of fs
    .readdirSync(suiteDir)
    .filter((f) => f.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(suiteDir, f));
  try {
    await new Promise<void>((resolve, reject) => {
      const runner = mocha.run((failures) =>
        failures ? reject(new Error(`${failures} host test(s) failed`)) : resolve(),
      );
      runner.on('end', () => {
        const s = runner.stats;
        if (s) log(`host: ${s.passes} passed, ${s.failures} failed${s.pending ? `, ${s.pending} skipped` : ''}`);
      });
    });
  } finally {
    restore();
  }
}
