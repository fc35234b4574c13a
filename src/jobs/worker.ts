import { Logger, run, runOnce, type LogLevel, type Runner, type TaskList } from 'graphile-worker';
import type { AppContext } from '../context.js';
import processBatch from './process-batch.js';
import applyCatalogueSchedules from './apply-catalogue-schedules.js';
import closeStatementMonth, { CLOSING_CRONTAB } from './close-statement-month.js';
import applySaleSchedule from './apply-sale-schedule.js';
import legacyWebhookDispatch from './legacy-webhook-dispatch.js';
import webhookAttempt from './webhook-attempt.js';

/** Every task of the service, bound to the context. */
export function taskList(ctx: AppContext): TaskList {
  return {
    'process-student-batch': processBatch(ctx, 'process-student-batch'),
    'apply-catalogue-schedules': applyCatalogueSchedules(ctx),
    'process-installment-batch': processBatch(ctx, 'process-installment-batch'),
    'close-statement-month': closeStatementMonth(ctx),
    'apply-sale-schedule': applySaleSchedule(ctx),
    'webhook-attempt': webhookAttempt(ctx),
    'legacy-webhook-dispatch': legacyWebhookDispatch(ctx),
  } satisfies { [K in keyof GraphileWorker.Tasks]: unknown } as TaskList;
}

/** graphile-worker's own log lines, through our pino logger. */
function workerLogger(ctx: AppContext): Logger {
  const levels: Record<LogLevel, 'error' | 'warn' | 'info' | 'debug'> = { error: 'error', warning: 'warn', info: 'info', debug: 'debug' };
  return new Logger((scope) => (level, message, meta) => ctx.logger[levels[level]]({ worker: scope, ...meta }, message));
}

/** Starts the long-running worker; `runner.stop()` lets running jobs finish and releases their locks. */
export function startWorker(ctx: AppContext): Promise<Runner> {
  return run({
    connectionString: ctx.databaseUrl,
    concurrency: ctx.config.workerConcurrency,
    // A connection per running job, or webhook attempts queue for the pool behind slow receivers.
    maxPoolSize: Math.max(10, ctx.config.workerConcurrency + 2),
    taskList: taskList(ctx),
    noHandleSignals: true,
    // New jobs arrive by LISTEN/NOTIFY, but the next job of a named queue (an institution's next
    // batch) only becomes available when the previous one's completion commits, which races with
    // the worker's immediate look for more work; only the poll finds it. A second at most between
    // two batches of an institution was most of the time of a large import.
    pollInterval: 100,
    crontab: CLOSING_CRONTAB,
    logger: workerLogger(ctx),
  });
}

/** How long a stop waits for running jobs before it gives up on them. (Default: 15 s) */
export const WORKER_STOP_TIMEOUT_MS = 15_000;

/**
 * `runner.stop()`, bounded: a job that never ends (a statement stuck in the database) must not keep
 * the process from stopping. Its lock is then left to expire, and another worker retries the job.
 */
export async function stopWorker(ctx: AppContext, runner: Runner, timeoutMs = WORKER_STOP_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const stopped = runner.stop().then(() => 'stopped' as const);
  stopped.catch((error: unknown) => ctx.logger.error({ err: error }, 'worker stop failed'));
  try {
    if ((await Promise.race([stopped, timedOut])) === 'timeout') {
      ctx.logger.error({ timeoutMs }, `worker did not stop within ${timeoutMs} ms: running jobs abandoned, their locks expire and the jobs are retried`);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every job that is due now, then returns; for tests and one-shot operator commands. */
export async function runDueJobs(ctx: AppContext): Promise<void> {
  // runOnce returns when it finds no job, and the next job of a named queue (an institution's next
  // batch) may not be available yet at that instant; look again until none is due (a failed job
  // is due again only later).
  for (let round = 0; round < 100; round++) {
    await runOnce({ connectionString: ctx.databaseUrl, taskList: taskList(ctx), logger: workerLogger(ctx), noHandleSignals: true });
    const [{ due } = { due: 0 }] = await ctx.sql<{ due: number }[]>`
      select count(*)::int as due from graphile_worker.jobs where run_at <= now() and locked_at is null and attempts < max_attempts`;
    if (due === 0) return;
  }
}
