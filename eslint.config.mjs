// ESLint (flat config): typescript-eslint's type-checked recommended rules over all TypeScript, with
// floating and misused promises as errors — a promise is awaited, returned, or handed to `void`/`.catch`
// on purpose. The .mjs scripts (build, test runners) are plain Node ESM and get the untyped rules.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', 'samples/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_`-prefixed names mark a parameter or binding kept for its position (callbacks, destructuring).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Browser bundles (generation panel, results grid, notebook renderer) run in the webview, not in Node; the UI
    // runners hand functions to Playwright's page.evaluate, which run in the page.
    files: ['src/generation/webview/**', 'src/generation/evalGrid/**', 'src/waterData/renderer/**', 'test/ui/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
