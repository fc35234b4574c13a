// Linting: ESLint's and typescript-eslint's recommended rules, with the few exceptions below.
import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'clients/*/dist/',
      'generated/',
      'clients/*/src/schema.ts',
      'migrations/',
      'node_modules/',
      '.data/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // graphile-worker types task payloads by declaration merging into its global namespace (src/queue/tasks.ts).
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      // `_`-prefixed parameters and variables are unused on purpose (an Express handler's `next`, a skipped element).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Imports in one order everywhere (node built-ins and packages, then the project's own), so a
    // file's dependencies read at a glance and merges never disagree on where a line goes.
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: { 'simple-import-sort/imports': 'error', 'simple-import-sort/exports': 'error' },
  },
  {
    // src/queue/ is the one door to graphile-worker (and jobs/, the worker itself): no other code writes its SQL.
    files: ['src/**/*.ts'],
    ignores: ['src/queue/**', 'src/jobs/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value=/graphile_worker\\./]', 'TemplateElement[value.raw=/graphile_worker\\./]'].map(
          (selector) => ({
            selector,
            message: 'graphile-worker SQL belongs in src/queue/ (its typed helpers and job keys).',
          }),
        ),
      ],
    },
  },
  {
    // Type-aware: a promise nobody awaits hides its failure (and its unhandled rejection ends the process).
    files: ['src/**/*.ts', 'tests/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
);
