// Discovery in the editor, measured in the real host (code-server 1.100.3, VS Code's Node extension host):
// opening aiplatform.v1beta1 (4 MB, the largest shared document; issue 11 names compute.beta, which is
// not in the shared data) until our diagnostics are shown; an edit inside a description until the
// updated diagnostics are shown; hover and completion through VS Code's commands. Each is reported as
// a ratio to its goal from issue 11, with every sample in the detail. The probe runs as the host's
// test module (as activation.bench.ts does). BENCH_SMOKE=1: one host, one edit.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { SMOKE } from './smoke';
import type { BenchResult, BenchSuite } from './types';

// BENCH_DISCOVERY_DOCUMENT=<path> measures another document, e.g. compute.beta.json (5.4 MB) as the
// google-api-python-client package ships it in its discovery cache (the Python peer tests' venv holds one).
const CHOSEN = process.env.BENCH_DISCOVERY_DOCUMENT;
const DOCUMENT = CHOSEN ? basename(CHOSEN) : 'aiplatform.v1beta1.json';
const HOSTS = SMOKE ? 1 : 2;
const GOALS: Record<string, { ms: number; what: string }> = {
  open: { ms: 400, what: `open ${DOCUMENT} → diagnostics shown` },
  // The same wait from the moment the probe sees the text in the extension host: before it, the workbench reads
  // the file and sends 4–5 MB from the browser to the host (about a second in code-server), none of it our code.
  // Our detector's listener runs before the probe's and loads the feature synchronously (40–100 ms): that part
  // of our work is in the figure above and not in this one.
  arrived: { ms: 400, what: `${DOCUMENT}: the text reaching the extension host → diagnostics shown` },
  edit: { ms: 150, what: 'an edit inside a description → updated diagnostics' },
  editArrived: {
    ms: 150,
    what: 'an edit inside a description: the edit reaching the extension host → updated diagnostics',
  },
  hover: { ms: 20, what: 'hover on a $ref through the editor (first once the document is ours, then warm)' },
  completion: { ms: 20, what: 'completion on a $ref through the editor (first once the document is ours, then warm)' },
  // The two above are round trips through the workbench, which answers late while the browser re-tokenises the
  // document after its language switch; these are our providers alone, asked → answered in the extension host.
  hoverOurs: { ms: 20, what: 'hover on a $ref: our provider in the extension host' },
  completionOurs: { ms: 20, what: 'completion on a $ref: our provider in the extension host' },
  typing: { ms: 100, what: 'longest extension-host block while typing outside a description' },
};

interface Sample {
  figure: string;
  ms: number;
  state?: string;
  /** Open only: from the text reaching the extension host to the findings shown. */
  afterArrivalMs?: number;
  /** Open only: until the document's language was ours (the workbench's switch, after the findings). */
  languageMs?: number;
  /** Typing only: the longest stretch the event loop was busy (the gap less any wait for a core). */
  busyMs?: number;
}

const suite: BenchSuite = async () => {
  // Plain .mjs without declarations: imported by a computed specifier and typed here.
  const supportDir: string = '../support';
  const support = (await import(`${supportDir}/codeServer.mjs`)) as { ensureCodeServer: () => void };
  const { runHostTests } = (await import(`${supportDir}/hostRunner.mjs`)) as {
    runHostTests: (options: Record<string, unknown>) => Promise<number>;
  };
  support.ensureCodeServer();
  const root = resolve(__dirname, '..', '..');
  const data = process.env.API_WORKBENCH_DATA ?? resolve(root, '../shared/data');
  // The host loads dist/: build it so the figures are of the code in this tree.
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'apiwb-bench-dischost-'));
  try {
    await esbuild.build({
      entryPoints: [join(root, 'test/bench/discovery-host-probe.ts')],
      outfile: join(work, 'probe.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      logLevel: 'warning',
    });
    const folder = join(work, 'ws');
    mkdirSync(folder);
    const document = join(folder, DOCUMENT);
    // The probe waits for our findings to be shown, and a clean document has none to show (compute.beta lints
    // clean): one `$ref` is pointed at a schema that does not exist, so every document has at least one.
    const text = readFileSync(CHOSEN ?? join(data, 'discovery', DOCUMENT), 'utf8');
    const planted = text.replace(/"\$ref":\s*"/, '$&BenchPlanted');
    if (planted === text) throw new Error(`${DOCUMENT} has no $ref to plant a finding in`);
    const samples: Sample[] = [];
    const said: string[] = [];
    for (let i = 0; i < HOSTS; i++) {
      // Each host starts from the same bytes, whatever the one before did to the file. (Autosave is off in every
      // host, as in VS Code: code-server's afterDelay saved 5 MB mid-typing, and a save cut short when the host
      // exited left the next host a truncated document.)
      writeFileSync(document, planted);
      const code = await runHostTests({
        extensionPath: root,
        testsModule: join(work, 'probe.js'),
        folder,
        quiet: true,
        // A 2-core machine shared by many runs can take minutes to bring up the workbench.
        timeoutMs: 900_000,
        env: {
          BENCH_DOCUMENT: document,
          BENCH_EDITS: SMOKE ? '1' : '3',
          ...(process.env.BENCH_PROFILE ? { BENCH_PROFILE: `${process.env.BENCH_PROFILE}.${i}.cpuprofile` } : {}),
        },
        onLine: (line: string) => {
          if (!line.startsWith('DISCOVERY-HOST ')) said.push(line);
          else {
            const sample = JSON.parse(line.slice(15)) as Sample;
            samples.push(sample);
            if (sample.figure === 'open') samples.push({ figure: 'arrived', ms: sample.afterArrivalMs ?? NaN });
          }
        },
      });
      if (code !== 0) throw new Error(`the discovery host probe failed (exit ${code}):\n${said.join('\n')}`);
    }
    const load = loadavg()[0];
    const samplesOf = (figure: string) =>
      samples
        .filter((s) => s.figure === figure)
        .map((s) => Math.round(s.ms))
        .join(' ');
    return Object.entries(GOALS).map(([figure, goal]): BenchResult => {
      const mine = samples.filter((s) => s.figure === figure);
      if (mine.length === 0) throw new Error(`the probe reported no ${figure} sample`);
      // The worst sample is what a user may meet; every sample is in the detail.
      const worst = Math.max(...mine.map((s) => s.ms));
      return {
        name: `discovery host: ${goal.what} ÷ ${goal.ms} ms`,
        ratio: Math.round((worst / goal.ms) * 100) / 100,
        goal: '<= 1',
        met: worst <= goal.ms,
        detail: {
          worstMs: worst,
          samplesMs: mine.map((s) => `${Math.round(s.ms)}${s.state ? `(${s.state})` : ''}`).join(' '),
          ...(figure === 'open'
            ? {
                afterTextArrivedMs: mine.map((s) => s.afterArrivalMs).join(' '),
                languageSwitchedMs: mine.map((s) => s.languageMs).join(' '),
              }
            : {}),
          ...(figure === 'typing' ? { busyMs: mine.map((s) => s.busyMs).join(' ') } : {}),
          ...(figure === 'hover' || figure === 'completion'
            ? { askedToAnswerBackMs: samplesOf(`${figure}Answer`) }
            : {}),
          loadAverage1m: load,
        },
      };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};
export default suite;
