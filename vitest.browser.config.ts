import { defineConfig } from 'vitest/config';

/** The buyer's pages in a real Chromium (`npm run test:browser`); kept apart so `npm test` needs no browser. */
export default defineConfig({
  test: {
    include: ['tests/browser/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts', 'tests/browser/chromium-check.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test' },
  },
});
