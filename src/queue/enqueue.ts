import { sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { activeTraceparent } from '../telemetry/propagation.js';
import type { TaskName } from './tasks.js';

export type { TaskName };

export interface EnqueueOptions {
  /** Not before this instant. (Default: now) */
  runAt?: Date;
  /** Instead of `runAt`: not before this many seconds from now by the database's clock, as every job's. */
  delaySeconds?: number;
  /** Jobs of one named queue run one at a time, in order. (Default: none, parallel) */
  queueName?: string;
  /** A second job with the same key replaces the pending one. (Default: none) */
  jobKey?: string;
  /** Attempts before the job is given up. (Default: 25) */
  maxAttempts?: number;
}

/**
 * The payload as stored: with the `traceparent` of the span that adds the job while tracing is on,
 * so that its run continues that trace (`jobs/traced-tasks.ts`); as given otherwise.
 */
function tracedPayload<P extends object>(payload: P): P {
  const traceparent = activeTraceparent();
  return traceparent ? { ...payload, traceparent } : payload;
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
      ${JSON.stringify(tracedPayload(payload))}::json,
      queue_name => ${options.queueName ?? null}::text,
      run_at => ${runAtOf(options)}::timestamptz,
      max_attempts => ${options.maxAttempts ?? 25}::int,
      job_key => ${options.jobKey ?? null}::text
    )`);
}

const runAtOf = ({ runAt, delaySeconds }: EnqueueOptions) =>
  delaySeconds !== undefined
    ? sql`now() + make_interval(secs => ${delaySeconds}::float8)`
    : (runAt?.toISOString() ?? null);

export interface JobSpec<T extends TaskName> {
  payload: GraphileWorker.Tasks[T];
  /** Not before this instant. (Default: now, by the database's clock) */
  runAt?: Date;
  jobKey: string;
}

/**
 * Adds many jobs of one task in one statement (`graphile_worker.add_jobs`), in the transaction of
 * `db`; a fan-out of thousands of deliveries costs one round trip.
 */
export async function enqueueMany<T extends TaskName>(
  db: Queryable,
  task: T,
  jobs: JobSpec<T>[],
  maxAttempts = 25,
): Promise<void> {
  if (jobs.length === 0) return;
  await db.execute(sql`
    select graphile_worker.add_jobs(array_agg(row(
      ${task}::text, j.payload, null::text, j.run_at, ${maxAttempts}::int, j.job_key, null::int, null::text[]
    )::graphile_worker.job_spec))
    from json_to_recordset(${JSON.stringify(jobs.map((j) => ({ payload: tracedPayload(j.payload), run_at: j.runAt?.toISOString() ?? null, job_key: j.jobKey })))}::json)
      as j(payload json, run_at timestamptz, job_key text)`);
}
