// Bundles the host test module and each suite for the extension host (node, cjs; vscode and mocha external).
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';

export async function buildHostTests() {
  const suites = readdirSync('test/host/suite')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/host/suite/${f}`);
  await esbuild.build({
    entryPoints: ['test/host/index.ts', ...suites],
    outdir: 'out/host',
    outbase: 'test/host',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return suites.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = await buildHostTests();
  console.log(`[host] built ${n} suites`);
}
