// The test module VS Code loads in its extension host (`extensionTestsPath`): the same `run()` contract
// for code-server and @vscode/test-electron. Output goes to stdout and, when the runner asks for it,
// to the report file it tails (the browser-hosted extension host has no terminal of its own).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

function teeOutput(): () => void {
  const report = process.env.API_WORKBENCH_TEST_REPORT;
  if (!report) return () => undefined;
  const original = process.stdout.write.bind(process.stdout);
  const originalLog = console.log;
  const write = (chunk: unknown) => {
    try {
      fs.appendFileSync(report, typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array));
    } catch {
      /* the runner may have gone; tests still run */
    }
  };
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    write(chunk);
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  console.log = (...args: unknown[]) => {
    write(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') + '\n');
    originalLog(...args);
  };
  return () => {
    process.stdout.write = original;
    console.log = originalLog;
  };
}

export async function run(): Promise<void> {
  const restore = teeOutput();
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
  for (const f of fs.readdirSync(suiteDir).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(path.join(suiteDir, f));
  try {
    await new Promise<void>((resolve, reject) => {
      const runner = mocha.run((failures) => (failures ? reject(new Error(`${failures} host test(s) failed`)) : resolve()));
      runner.on('end', () => {
        const s = runner.stats;
        if (s) console.log(`host: ${s.passes} passed, ${s.failures} failed${s.pending ? `, ${s.pending} skipped` : ''}`);
      });
    });
  } finally {
    restore();
  }
}
