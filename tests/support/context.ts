import { randomBytes } from 'node:crypto';

import type { Express } from 'express';
import type { DestinationStream } from 'pino';
import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';

import { createApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { ManualClock } from '../../src/core/clock.js';
import { createDatabase } from '../../src/db/client.js';
import { createLogger } from '../../src/http/logging.js';
import { runDueJobs } from '../../src/jobs/worker.js';
import { wireContext } from '../../src/payment-wiring.js';

export interface TestContext {
  ctx: AppContext;
  app: Express;
  clock: ManualClock;
  /** Runs every job due now (batch processing, schedules, deliveries) and waits for it. */
  runJobs(): Promise<void>;
  close(): Promise<void>;
}

export interface TestContextOptions {
  /** Receives the JSON log lines (pino) of the app. (Default: logs are discarded) */
  logDestination?: DestinationStream;
  config?: Partial<Config>;
}

/** A database of this test file's own, copied from the migrated template, and an app on it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('adminUrl');
  const template = inject('templateName');
  const name = `${template}_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}" template "${template}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      // A pool that was just ended may still be closing its connections; forcing them closed would
      // raise "terminating connection" in that pool after the test, outside any test's reach.
      for (const deadline = Date.now() + 2_000; Date.now() < deadline;) {
        const [open] = await admin<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity where datname = ${name}`;
        if (!open?.n) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  return contextOn(await createTestDatabase(), options);
}

/** A test context on a database of the test's own making; `close()` calls its `drop()`. */
export async function contextOn(
  database: { url: string; drop(): Promise<void> },
  options: TestContextOptions = {},
): Promise<TestContext> {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: options.logDestination ? 'info' : 'silent' }),
    ...options.config,
  };
  const { db, sql } = createDatabase(database.url, { max: 5 });
  const clock = new ManualClock();
  const ctx = wireContext({
    config,
    db,
    sql,
    databaseUrl: database.url,
    clock,
    logger: createLogger(config.logLevel, options.logDestination),
  });
  const app = await createApp(ctx);
  return {
    ctx,
    app,
    clock,
    runJobs: () => runDueJobs(ctx),
    async close() {
      await sql.end();
      await database.drop();
    },
  };
}

/**
 * The test context of a test file or `describe` block: created before its tests (before the setup
 * hooks registered after this call), closed after them. Read it in hooks and tests only.
 */
export function useTestContext(options: TestContextOptions | (() => TestContextOptions) = {}): TestContext {
  let current: TestContext | undefined;
  beforeAll(async () => {
    current = await createTestContext(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as TestContext, {
    get(_target, key) {
      if (!current)
        throw new Error(`the test context is read (${String(key)}) outside the hooks and tests of its block`);
      return Reflect.get(current, key);
    },
  });
}
