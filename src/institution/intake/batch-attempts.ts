import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';

/** The last failed attempt at processing a batch, while its job waits to be retried. */
export interface FailedAttempt {
  failedAt: Date;
  attempts: number;
  nextAttemptAt: Date;
}

/**
 * Read from graphile-worker's row of the batch's job (gone once the job succeeds). graphile-worker
 * keeps no instant of the failure; it sets the next `run_at` to the failure's instant plus
 * e^min(attempts, 10) seconds, so that instant is computed back from it.
 */
export async function lastFailedAttempt(db: Queryable, batchId: string): Promise<FailedAttempt | undefined> {
  const [row] = await db.execute<{ attempts: number; failed_at: string; run_at: string }>(sql`
    select j.attempts, j.run_at::text as run_at,
      (j.run_at - exp(least(j.attempts, 10)) * interval '1 second')::text as failed_at
    from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier in ('process-installment-batch', 'process-student-batch')
      and j.payload->>'batchId' = ${batchId} and j.last_error is not null and j.locked_at is null
    order by j.id desc
    limit 1`);
  if (!row) return undefined;
  return { attempts: row.attempts, failedAt: new Date(row.failed_at), nextAttemptAt: new Date(row.run_at) };
}
