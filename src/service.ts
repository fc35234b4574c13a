import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Logger } from 'pino';

import { createApp, createMetricsApp } from './app.js';
import type { Config, Role } from './config.js';
import type { AppContext } from './context.js';
import { type Clock, systemClock } from './core/clock.js';
import { connectDatabaseServer } from './database-server.js';
import { createDatabase } from './db/client.js';
import { isConnectionLoss } from './db/errors.js';
import { migrateDatabase } from './db/migrate.js';
import { createDatabaseProbe } from './db/probe.js';
import type { DemoKeys } from './dev/demo-tenants.js';
import { createHttpServer } from './http/client-errors.js';
import { DatabaseGate } from './http/database-gate.js';
import { sweepSaleSchedules } from './jobs/apply-sale-schedule.js';
import { startWorker, stopWorker, type Worker } from './jobs/worker.js';
import { applyDueSchedules } from './partner/catalogue/schedules.js';
import { summariseUnsummarisedReceipts } from './partner/receipts/summaries.js';
import { wireContext } from './payment-wiring.js';
import { sealStoredSecrets, secretBoxOf } from './webhooks/sealed-secrets.js';

export interface ServiceOptions {
  config: Config;
  role: Role;
  logger: Logger;
  clock?: Clock;
}

export interface Service {
  ctx: AppContext;
  /** Listening address of the API role. */
  url?: string;
  /** Listening address of `METRICS_PORT`, when set. */
  metricsUrl?: string;
  /** Data folder of the embedded PostgreSQL, when one is used. */
  embeddedDataDir?: string;
  /** Keys of the demo tenants, when this start created them. */
  demo?: DemoKeys;
  /** Stops accepting, finishes in-flight requests and running jobs, closes the pool, stops the embedded server. */
  stop(): Promise<void>;
}

/** How a client on this machine reaches the listen address: every interface through localhost. */
const urlHost = (host: string) =>
  host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** Stops accepting and waits for requests in flight; keep-alive sockets are closed as soon as they go idle. */
function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    const reaper = setInterval(() => server.closeIdleConnections(), 50);
    server.close((error) => {
      clearInterval(reaper);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/** Runs `step` again every second while it fails for want of a database: a process started during an outage waits for it. */
async function whenReachable<T>(step: () => Promise<T>, logger: Logger): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!isConnectionLoss(error)) throw error;
      if (attempt === 0) logger.warn({ err: error }, 'the database is not reachable; waiting for it');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** Database, migrations, HTTP server and worker, as the role asks. */
export async function startService(options: ServiceOptions): Promise<Service> {
  const { config, logger } = options;
  const database = await connectDatabaseServer(config, (line) => logger.debug({ postgres: line }));
  await whenReachable(() => migrateDatabase(database.url), logger);
  const { db, sql } = createDatabase(database.url, { max: config.dbPoolMax });
  const ctx = wireContext({ config, db, sql, databaseUrl: database.url, clock: options.clock ?? systemClock, logger });
  // Secrets stored before sealing existed, or under a key being rotated out, sealed with SECRETS_KEY.
  const sealed = await whenReachable(() => sealStoredSecrets(db, secretBoxOf(config)), logger);
  if (sealed > 0) logger.info({ configurations: sealed }, 'sealed webhook secrets with SECRETS_KEY');

  const demo =
    database.embedded && config.env === 'development'
      ? await (await import('./dev/demo-tenants.js')).seedDemoTenants(db)
      : undefined;

  let server: Server | undefined;
  let url: string | undefined;
  let gate: DatabaseGate | undefined;
  if (options.role !== 'worker') {
    gate = new DatabaseGate(createDatabaseProbe(database.url), logger);
    server = createHttpServer(await createApp(ctx, { gate }), logger);
    await listen(server, config.port, config.host);
    url = `http://${urlHost(config.host)}:${(server.address() as AddressInfo).port}`;
  }
  // The scrapers' own listener, in every role: the worker role has no other.
  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  if (config.metricsPort !== undefined) {
    metricsServer = createHttpServer(createMetricsApp(ctx), logger);
    await listen(metricsServer, config.metricsPort, config.host);
    metricsUrl = `http://${urlHost(config.host)}:${(metricsServer.address() as AddressInfo).port}`;
  }
  if (options.role !== 'api') {
    // Schedules that came due while no worker ran (campaign starts and ends, class expiries).
    const swept = await db.transaction((tx) => applyDueSchedules(tx, ctx.clock.now()));
    logger.info(swept, 'start-up sweep of catalogue schedules');
    // Sale deadlines, invoice due times and abandoned carts missed while down.
    logger.info(await sweepSaleSchedules(ctx), 'start-up sweep of sale schedules');
    // Receipts opened before their summaries existed would be missing from the list and the detail.
    const summarised = await summariseUnsummarisedReceipts(db);
    if (summarised > 0) logger.info({ receipts: summarised }, 'summarised receipts opened before summaries existed');
  }
  const runner: Worker | undefined = options.role !== 'api' ? await startWorker(ctx) : undefined;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Both at once: the worker takes no new job while the requests in flight finish.
      await Promise.all([
        server && close(server),
        metricsServer && close(metricsServer),
        runner && stopWorker(ctx, runner),
      ]);
      await gate?.close();
      await sql.end({ timeout: 5 });
      await database.embedded?.stop();
    })());
  return { ctx, url, metricsUrl, demo, embeddedDataDir: database.embedded?.dataDir, stop };
}
