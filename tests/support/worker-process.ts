/**
 * A worker of the service in a process of its own, on the database of `DATABASE_URL`, configured by
 * the environment: a test can kill it (SIGKILL) in the middle of a job, as a crash would.
 * Prints `started` once its runners are up.
 */
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { systemClock } from '../../src/core/clock.js';
import { createDatabase } from '../../src/db/client.js';
import { createLogger } from '../../src/http/logging.js';
import { startWorker } from '../../src/jobs/worker.js';
import { wireContext } from '../../src/payment-wiring.js';
import { surviveConnectionLoss } from '../../src/process-guards.js';

const config = loadConfig(process.env);
const databaseUrl = config.databaseUrl!;
const { db, sql } = createDatabase(databaseUrl, { max: 5 });
const logger = createLogger('silent');
surviveConnectionLoss(logger);
const ctx: AppContext = wireContext({ config, db, sql, databaseUrl, clock: systemClock, logger });
await startWorker(ctx);
process.stdout.write('started\n');
