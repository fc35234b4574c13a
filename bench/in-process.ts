import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { pino } from 'pino';

import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/core/clock.js';
import { createDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { createLogger } from '../src/http/logging.js';
import { wireContext } from '../src/payment-wiring.js';
import { watchKeyChanges } from '../src/tenants/key-changes.js';
import { PRODUCTION_ENV } from './production-env.js';

/**
 * The service's context in this process, in production settings (`PRODUCTION_ENV` and `env`), over
 * an embedded PostgreSQL of its own in a temporary folder (the configured URL only satisfies the
 * production check), logs written nowhere; `stop` ends both and removes the folder.
 */
export async function inProcessService(folderPrefix: string, env: NodeJS.ProcessEnv = {}) {
  const config = loadConfig({ ...process.env, ...PRODUCTION_ENV, DATABASE_URL: 'postgres://localhost/bench', ...env });
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix));
  fs.chmodSync(folder, 0o755);
  const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: config.embeddedPgPort });
  const url = await ensureDatabase(embedded.adminUrl, 'bench');
  await migrateDatabase(url);
  const { db, sql } = createDatabase(url, { max: 4 });
  const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: false }));
  const ctx = wireContext({ config, db, sql, databaseUrl: url, clock: systemClock, logger });
  await watchKeyChanges(sql, ctx.apiKeys);
  return {
    config,
    url,
    db,
    sql,
    logger,
    ctx,
    async stop() {
      await sql.end();
      await embedded.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
