import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per running graphile-worker pool, refreshed while it lives. A pool whose row stops
 * moving has died with its jobs locked; any other worker unlocks them instead of waiting for
 * graphile-worker's four-hour lock expiry. Times are the database's, shared by every process.
 */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  /** graphile-worker's pool id, the `locked_by` of the jobs it holds. */
  workerId: text().primaryKey(),
  /** `main` or `delivery`: which runner of the process. */
  runner: text().notNull(),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
