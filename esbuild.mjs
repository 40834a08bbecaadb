// Builds the bundles: extension host entry, one per feature and the sandbox's (node/cjs), CLI (node/cjs), the generation panel UI
// (browser/iife) and the notebook renderer (browser/esm, must export `activate`).
// Usage: node esbuild.mjs [--production] [--test-seams] [--outdir=<dir>] [--watch]
// --test-seams keeps the test seams in a production build and --outdir writes the bundles elsewhere than dist/:
// the activation bench measures what ships (minified) and still needs `apiWorkbench._testLoadFeatures`.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';

const production = process.argv.includes('--production');
const seams = !production || process.argv.includes('--test-seams');
const watch = process.argv.includes('--watch');
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length);

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

// esbuild gives every file that imports `vscode` its own `__toESM(require("vscode"))`, which copies every
// property of the API object again (16 times in the storage bundle: a measurable part of loading it). All
// imports of `vscode` go through one module per bundle instead, which copies them once.
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';" }));
  },
};

// A JSON file esbuild inlines as an object literal is parsed and compiled as code when its bundle loads (the
// 100 KB storage description, the water-quality vocabulary); as a string given to JSON.parse it costs a scan
// of the string to compile and a faster parse to evaluate (V8's advice for large object literals).
const jsonAsString = {
  name: 'json-as-string',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async (args) => {
      const text = JSON.stringify(JSON.parse(await readFile(args.path, 'utf8')));
      return { contents: `export default JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
  },
};

// node-fetch, with the stream and blob polyfills it brings, was a third of every feature bundle and was compiled
// whenever a feature loaded, though only a request needs it. The extension host's bundles share one copy,
// dist/vendor/nodeFetch.js, which src/shared/http/fetch.ts imports with the first request (the CLI keeps its own).
const NODE_FETCH_BUNDLE = 'dist/vendor/nodeFetch.js';
const sharedNodeFetch = (outfile) => ({
  name: 'shared-node-fetch',
  setup(build) {
    const path = `./${posix.relative(posix.dirname(outfile), NODE_FETCH_BUNDLE)}`.replace(/^\.\/\.\./, '..');
    build.onResolve({ filter: /^node-fetch$/ }, () => ({ path, external: true }));
  },
});

// Extension host, CLI and worker all run in Node 20. jsonc-parser's `main` is a UMD build whose dynamic
// requires esbuild cannot follow, so its ESM build is taken instead.
// __TEST_SEAMS__ (src/buildFlags.d.ts) is false in production, so test-only code is dropped from the bundle.
const node = {
  ...common,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  mainFields: ['module', 'main'],
  define: { __TEST_SEAMS__: seams ? 'true' : 'false' },
};
// `import()` of the shared node-fetch becomes a `require` inside a promise: loaded like every other bundle.
const extensionHost = (outfile) => ({
  ...node,
  outfile,
  external: ['vscode'],
  supported: { 'dynamic-import': false },
  plugins: [vscodeOnce, jsonAsString, sharedNodeFetch(outfile)],
});

// The CLI's entry (dist/cli.js) holds only the command table; each command is a bundle of its own,
// dist/cli/<name>.js, required by the entry when that command runs (src/cli/main.ts imports them with `import()`,
// which esbuild turns into a `require` of the path given here). A command shares no module state with the entry
// but what it is given (the io object), so a module both bundle (src/cli/io.ts) is harmless twice.
const CLI_COMMANDS = ['sandbox', 'lint', 'diff', 'generate', 'query', 'eval', 'sync', 'openapi'];
/** How the CLI's first line runs it (the sync bench reads that line and launches it the same way). */
const CLI_LAUNCH = 'MALLOC_ARENA_MAX=2 node --optimize-for-size --single-threaded-gc';
const cliCommandsApart = {
  name: 'cli-commands-apart',
  setup(build) {
    const names = new RegExp(`^\\./(${CLI_COMMANDS.join('|')})$`);
    build.onResolve({ filter: names }, (args) =>
      args.importer.endsWith(posix.join('src', 'cli', 'main.ts')) || args.importer.endsWith('src\\cli\\main.ts')
        ? { path: `./cli/${names.exec(args.path)[1]}.js`, external: true }
        : undefined,
    );
  },
};

const targets = [
  // The entry stays small: it registers stubs and shells (src/platform/lazy) and loads each feature's bundle,
  // and the sandbox's, on first use (ARCHITECTURE.md, "Bundle layout and what loads when").
  { ...extensionHost('dist/extension.js'), entryPoints: ['src/extension.ts'] },
  ...['discovery', 'storage', 'generation', 'waterData'].map((feature) => ({
    ...extensionHost(`dist/features/${feature}.js`),
    entryPoints: [`src/${feature}/vscode/register.ts`],
  })),
  { ...node, entryPoints: ['node-fetch'], outfile: NODE_FETCH_BUNDLE },
  { ...node, entryPoints: ['src/sandbox/chunk.ts'], outfile: 'dist/sandbox.js' },
  {
    ...node,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    // The CLI is a short-lived tool, so its process favours memory over peak speed: V8 grows its heap in small
    // steps and collects on the main thread, glibc keeps two malloc arenas instead of one per thread. At 100,000
    // files `sync` peaks near 140 MB instead of 245 (ARCHITECTURE.md, "Memory at 100,000 files"); a lint of 13 MB
    // of documents is as fast. `env -S` splits the line (coreutils, BSD and npm's Windows shims all read it).
    banner: { js: `#!/usr/bin/env -S ${CLI_LAUNCH}` },
    // A `require` in a promise, not Node's `import()`: that would start the ES module loader (some 20 MB).
    supported: { 'dynamic-import': false },
    plugins: [cliCommandsApart],
  },
  ...CLI_COMMANDS.map((name) => ({ ...node, entryPoints: [`src/cli/${name}.ts`], outfile: `dist/cli/${name}.js` })),
  // Validation of large discovery documents runs here, off the extension host's main thread.
  { ...node, entryPoints: ['src/discovery/worker/main.ts'], outfile: 'dist/discoveryWorker.js' },
  {
    ...common,
    entryPoints: ['src/generation/webview/main.ts'],
    outfile: 'dist/webview/generation.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'text' },
  },
  {
    ...common,
    entryPoints: ['src/generation/evalGrid/main.ts'],
    outfile: 'dist/webview/evalGrid.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['src/discovery/webview/main.ts'],
    outfile: 'dist/webview/discoveryPreview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['src/waterData/renderer/index.ts'],
    outfile: 'dist/renderer/waterData.js',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    loader: { '.css': 'text' },
  },
]
  .filter((t) => !t.entryPoints[0].startsWith('src/') || existsSync(t.entryPoints[0]))
  .map((t) => (outdir ? { ...t, outfile: t.outfile.replace(/^dist\//, `${outdir}/`) } : t));

// In watch mode each round of rebuilds prints a start and an end marker, with any errors between them as
// `✘ [ERROR] message` followed by `    file:line:column:`. .vscode/tasks.json's background problem matcher
// keys on these lines: F5 waits for "build finished" and the Problems view shows the errors. The bundles
// build in separate contexts (different platforms and formats), so the markers bracket all of them: the
// start is printed when the first begins and the end when the last in flight is done.
let inFlight = 0;
const watchMarkers = {
  name: 'watch-markers',
  setup(build) {
    build.onStart(() => {
      if (inFlight++ === 0) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      const report =
        (tag) =>
        ({ text, location }) => {
          console.error(`${tag} ${text}`);
          if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
        };
      result.errors.forEach(report('✘ [ERROR]'));
      result.warnings.forEach(report('▲ [WARNING]'));
      if (--inFlight === 0) console.log('[watch] build finished');
    });
  },
};

if (watch) {
  const contexts = await Promise.all(
    targets.map((t) => esbuild.context({ ...t, logLevel: 'silent', plugins: [...(t.plugins ?? []), watchMarkers] })),
  );
  // The first build of every bundle, under one pair of markers, before watching starts.
  inFlight++;
  console.log('[watch] build started');
  await Promise.all(contexts.map((ctx) => ctx.rebuild().catch(() => undefined)));
  if (--inFlight === 0) console.log('[watch] build finished');
  await Promise.all(contexts.map((ctx) => ctx.watch()));
  console.log(`[esbuild] watching ${targets.length} bundles`);
} else {
  const t0 = Date.now();
  await Promise.all(targets.map((t) => esbuild.build(t)));
  console.log(
    `[esbuild] built ${targets.length} bundles in ${Date.now() - t0} ms${production ? ' (production)' : ''}${production && seams ? ' with test seams' : ''}${outdir ? ` in ${outdir}` : ''}`,
  );
}
