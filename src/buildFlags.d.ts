/**
 * Defined by esbuild.mjs: true in development and test builds, false in the `--production` build,
 * where every `if (__TEST_SEAMS__ && …)` branch is dead code that esbuild drops: the .vsix holds no
 * test seam at all (test/host/run-package.mjs checks the bundle).
 */
declare const __TEST_SEAMS__: boolean;
