/** What production requires besides its payment provider: its secrets and a database of its own. */
export const PRODUCTION_SECRETS = {
  DATABASE_URL: 'postgres://edufin@db.internal/edufin',
  CURSOR_SECRET: '5f0c8e2a9b7d4e6f1a3c5e7092b4d6f8a1c3e5f7092b4d6e8f0a2c4e6b8d0f2a4',
  SECRETS_KEY: '0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0',
};

/**
 * A whole production configuration (Stripe with live keys: production refuses test keys unless
 * `STRIPE_ALLOW_TEST_KEYS=true`), NODE_ENV left unset as production reads it: each test takes away
 * or changes one thing.
 */
export const PRODUCTION_ENV: Record<string, string | undefined> = {
  ...PRODUCTION_SECRETS,
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};
