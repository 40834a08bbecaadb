// The features and the emulators are separate bundles (esbuild.mjs) that the entry loads on first use.
// The path is computed at run time so that esbuild leaves the require alone instead of inlining the chunk.
import { join } from 'node:path';

export const FEATURES = ['discovery', 'storage', 'generation', 'waterData'] as const;
export type Feature = (typeof FEATURES)[number];

/** Bundle of each feature, relative to the extension root; its `register` is the feature's FeatureRegistration. */
export const featureChunk = (feature: Feature): string => join('dist', 'features', `${feature}.js`);
export const SANDBOX_CHUNK = join('dist', 'sandbox.js');

export function loadChunk<T>(extensionPath: string, chunk: string): T {
  // A CommonJS bundle is loaded synchronously, so a proxy can load its feature inside any provider call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(extensionPath, chunk)) as T;
}
