import { randomBytes } from 'node:crypto';

import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';

import { tracingOn } from '../telemetry/tracing.js';
import * as schema from './schema/index.js';
import { traceStatements } from './traced-sql.js';

export interface DatabaseOptions {
  /** Pool size. (Default: 10) */
  max?: number;
}

/**
 * Seconds before a connection that failed connects again: a tenth of a second, doubling up to one
 * second, with jitter. postgres.js waits up to 20 s by default once a database outage has made
 * its attempts fail many times, which delays the first query after the database's return by as much.
 */
const reconnectDelay = (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.1 * 2 ** retries, 1);

/** The pool and Drizzle over it; while tracing is on (started before), every statement has its span. */
export function createDatabase(url: string, options: DatabaseOptions = {}) {
  const client = postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    backoff: reconnectDelay,
    onnotice: () => {},
    // A name of this pool's own, by which the metrics count its connections in pg_stat_activity.
    connection: { application_name: `edufin ${randomBytes(4).toString('hex')}` },
  });
  const sql = tracingOn() ? traceStatements(client) : client;
  const db = drizzle(sql, { schema, casing: 'snake_case' });
  return { sql, db };
}

export type Sql = ReturnType<typeof createDatabase>['sql'];
export type Database = ReturnType<typeof createDatabase>['db'];
/** A transaction handle; every query function accepts one as well as the database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Queryable = Database | Transaction;
