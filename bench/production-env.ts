import { randomBytes } from 'node:crypto';

/**
 * What a service started by a benchmark needs to run as production: its own secrets (fresh for each
 * run) and a payment provider other than the sandbox, never called by the benchmarks.
 */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  CURSOR_SECRET: randomBytes(32).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('hex'),
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_benchmark',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_benchmark',
  STRIPE_WEBHOOK_SECRET: 'whsec_benchmark',
  // Production refuses test-mode keys unless told this is a staging setup.
  STRIPE_ALLOW_TEST_KEYS: 'true',
};

/** The benchmark's own settings (ports, embedded server): development unless asked otherwise. */
export const benchEnv = (): NodeJS.ProcessEnv => ({ ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' });
