import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The Chromium suite has its own run (`npm run test:browser`, vitest.browser.config.ts): `npm test` needs no browser.
    exclude: [...configDefaults.exclude, 'tests/browser/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // The files of a worker share its modules: the service's import (express, the validator, drizzle,
    // graphile-worker, stripe…) is paid once per worker, not once per file. What a file sets up
    // (tracing, a context, a receiver) it takes down in its own hooks.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});
