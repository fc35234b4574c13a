import type { Logger } from 'pino';

import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import type { Database, Sql } from './db/client.js';
import type { MailTransport } from './identity/mail.js';
import type { Metrics } from './metrics/metrics.js';
import type { SaleLedger } from './partner/sales/state/sale-ledger.js';
import type { PaymentProvider } from './payments/provider.js';
import type { KeyCache } from './tenants/key-cache.js';

/** What every handler, service and job needs; built once per process (or per test file). */
export interface AppContext {
  readonly config: Config;
  readonly db: Database;
  /** The raw postgres.js client behind `db`, for COPY and tagged SQL. */
  readonly sql: Sql;
  /** Connection string of the same database, for graphile-worker. */
  readonly databaseUrl: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * The tenants of the API keys this process has looked up lately, forgotten when a key changes
   * (`tenants/key-cache.ts`); the app that authenticates with it listens for the changes.
   */
  readonly apiKeys: KeyCache;
  /** The Prometheus metrics of this process (`GET /metrics`). */
  readonly metrics: Metrics;
  /** The payment provider, with the listeners of every kind of charge (see `payment-wiring.ts`). */
  readonly payments: PaymentProvider;
  /** The receipts ledger, told of confirmed and reversed sales (see `payment-wiring.ts`). */
  readonly saleLedger: SaleLedger;
  /** How the `send-mail` jobs reach people (see `mail-wiring.ts`); none in production without `SMTP_URL`. */
  readonly mail: MailTransport | undefined;
}
