import { sql } from 'drizzle-orm';

import type { Queryable, Sql } from '../db/client.js';

/** The last failed run of a job, while the job waits to be run again. */
export interface FailedJob {
  failedAt: Date;
  attempts: number;
  nextAttemptAt: Date;
}

/**
 * Read from graphile-worker's public `jobs` view by the job's key (the row is gone once the job
 * succeeds). graphile-worker keeps no instant of the failure; it sets the next `run_at` to the
 * failure's instant plus e^min(attempts, 10) seconds, so that instant is computed back from it.
 */
export async function lastFailure(db: Queryable, jobKey: string): Promise<FailedJob | undefined> {
  const [row] = await db.execute<{ attempts: number; failed_at: string; run_at: string }>(sql`
    select attempts, run_at::text as run_at,
      (run_at - exp(least(attempts, 10)) * interval '1 second')::text as failed_at
    from graphile_worker.jobs
    where key = ${jobKey} and last_error is not null and locked_at is null`);
  if (!row) return undefined;
  return { attempts: row.attempts, failedAt: new Date(row.failed_at), nextAttemptAt: new Date(row.run_at) };
}

/** The jobs of one task by state, and how long the oldest due one has waited. */
export interface TaskJobCounts {
  task: string;
  due: number;
  scheduled: number;
  running: number;
  failed: number;
  oldest_due_seconds: number | null;
}

/** The queue by task, for the metrics read at scrape time. */
export const jobCountsByTask = (sql: Sql) => sql<TaskJobCounts[]>`
  select task_identifier as task,
    count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as due,
    count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as scheduled,
    count(*) filter (where locked_at is not null)::int as running,
    count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed,
    extract(epoch from now() - min(run_at) filter (
      where locked_at is null and attempts < max_attempts and run_at <= now()))::float8 as oldest_due_seconds
  from graphile_worker.jobs group by task_identifier`;
