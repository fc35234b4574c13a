import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';

declare global {
  namespace GraphileWorker {
    /** Payload of every task; a task file checks its payload with an assertion too. */
    interface Tasks {
      'process-student-batch': { batchId: string };
      'process-installment-batch': { batchId: string };
    }
  }
}

export type TaskName = keyof GraphileWorker.Tasks;

export interface EnqueueOptions {
  /** Not before this instant. (Default: now) */
  runAt?: Date;
  /** Jobs of one named queue run one at a time, in order. (Default: none, parallel) */
  queueName?: string;
  /** A second job with the same key replaces the pending one. (Default: none) */
  jobKey?: string;
  /** Attempts before the job is given up. (Default: 25) */
  maxAttempts?: number;
}

/**
 * Adds a job through SQL, so that it commits or rolls back with the transaction `db` belongs to:
 * a state change and the work it causes are never separated.
 */
export async function enqueue<T extends TaskName>(
  db: Queryable,
  task: T,
  payload: GraphileWorker.Tasks[T],
  options: EnqueueOptions = {},
): Promise<void> {
  await db.execute(sql`
    select graphile_worker.add_job(
      ${task},
      ${JSON.stringify(payload)}::json,
      queue_name => ${options.queueName ?? null}::text,
      run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
      max_attempts => ${options.maxAttempts ?? 25}::int,
      job_key => ${options.jobKey ?? null}::text
    )`);
}
