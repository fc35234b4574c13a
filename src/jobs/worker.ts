import { EventEmitter } from 'node:events';

import { run, runOnce, type TaskList, type WorkerEvents } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { tracingOn } from '../telemetry/tracing.js';
import applyCatalogueSchedules from './apply-catalogue-schedules.js';
import applySaleSchedule from './apply-sale-schedule.js';
import bookDueRecords, { BOOK_DUE_RECORDS_CRONTAB } from './book-due-records.js';
import cancelChargeTask from './cancel-charge.js';
import closeStatementMonth, { CLOSING_CRONTAB } from './close-statement-month.js';
import compactInstallmentCounts, { COUNTS_CRONTAB } from './compact-installment-counts.js';
import { handingBack } from './hand-back.js';
import { startHeartbeats } from './heartbeats.js';
import { recordJobs } from './job-metrics.js';
import legacyWebhookDispatch from './legacy-webhook-dispatch.js';
import processBatch from './process-batch.js';
import reconcilePayments, { RECONCILE_CRONTAB } from './reconcile-payments.js';
import refundPaymentTask from './refund-payment.js';
import sendMailTask from './send-mail.js';
import { type SupervisedRunner, superviseRunner } from './supervised-runner.js';
import sweepSentForms, { SENT_FORMS_CRONTAB } from './sweep-sent-forms.js';
import tellOverdueInstallments, { OVERDUE_CRONTAB } from './tell-overdue-installments.js';
import { tracedTasks } from './traced-tasks.js';
import webhookAttempt from './webhook-attempt.js';
import { workerLogger } from './worker-logger.js';

/** Every task of the service, bound to the context; each run in a span of its own while tracing is on. */
export function taskList(ctx: AppContext): TaskList {
  const tasks = {
    'process-student-batch': processBatch(ctx, 'process-student-batch'),
    'apply-catalogue-schedules': applyCatalogueSchedules(ctx),
    'process-installment-batch': processBatch(ctx, 'process-installment-batch'),
    'close-statement-month': closeStatementMonth(ctx),
    'apply-sale-schedule': applySaleSchedule(ctx),
    'compact-installment-counts': compactInstallmentCounts(ctx),
    'webhook-attempt': webhookAttempt(ctx),
    'legacy-webhook-dispatch': legacyWebhookDispatch(ctx),
    'reconcile-payments': reconcilePayments(ctx),
    'refund-payment': refundPaymentTask(ctx),
    'cancel-charge': cancelChargeTask(ctx),
    'send-mail': sendMailTask(ctx),
    'tell-overdue-installments': tellOverdueInstallments(ctx),
    'sweep-sent-forms': sweepSentForms(ctx),
    'book-due-records': bookDueRecords(ctx),
  } satisfies { [K in keyof GraphileWorker.Tasks]: unknown } as TaskList;
  return tracingOn() ? tracedTasks(tasks) : tasks;
}

/**
 * The schedules of the worker: the reconciliation only where the provider reports by events, which
 * can be lost. The five-minute passes keep one job each (`jobKey`, replaced) behind the others
 * (`priority` 10): after a stop, or a clock moved ahead, graphile-worker makes up every minute
 * missed, and that must not bury a refund or a batch under thousands of sweeps. The daily and
 * monthly passes are made up after a stop of up to three days (`fill`), each safe to run again.
 */
export const crontabOf = (ctx: AppContext): string =>
  [
    CLOSING_CRONTAB,
    COUNTS_CRONTAB,
    OVERDUE_CRONTAB,
    BOOK_DUE_RECORDS_CRONTAB,
    SENT_FORMS_CRONTAB,
    ...(ctx.payments.webhook ? [RECONCILE_CRONTAB] : []),
  ].join('\n');

/** The tasks that send to other servers (webhooks, mail): waiting on receivers, not on the CPU or the database. */
const DELIVERY_TASKS: readonly string[] = [
  'webhook-attempt',
  'legacy-webhook-dispatch',
  'send-mail',
] satisfies (keyof GraphileWorker.Tasks)[];

function splitTasks(tasks: TaskList): { delivery: TaskList; other: TaskList } {
  const entries = Object.entries(tasks);
  return {
    delivery: Object.fromEntries(entries.filter(([name]) => DELIVERY_TASKS.includes(name))),
    other: Object.fromEntries(entries.filter(([name]) => !DELIVERY_TASKS.includes(name))),
  };
}

/** The worker of one process: its runners stop together. */
export interface Worker {
  stop(): Promise<void>;
}

/**
 * Both runners, and `runDueJobs`, hand their completions to graphile-worker's batcher
 * (`completeJobBatchDelay`, `failJobBatchDelay`): a pool that stops waits for them to be written,
 * and one that cannot write them (the database lost) stops itself instead of leaving an unhandled
 * rejection that ends the process.
 */
const WRITE_COMPLETIONS = { completeJobBatchDelay: 0, failJobBatchDelay: 0 };

/**
 * Starts the long-running worker; `stop()` picks up no new job, lets running jobs finish (a batch
 * stops between two chunks and is handed back), writes their completions, then releases this
 * process's locks and heartbeats. A runner that stops on its own (the database lost) is started
 * again until the database is back.
 *
 * Webhook and mail sending have a runner of their own: their jobs spend their time waiting on
 * receivers (up to the 10 s timeout of a webhook), so they run many at once without taking the few
 * slots of the batch and schedule jobs, and it fetches and completes jobs in batches, so that a
 * fan-out of thousands of deliveries neither wakes every idle slot for each new job nor pays two
 * round trips per job.
 */
export async function startWorker(ctx: AppContext): Promise<Worker> {
  const stopping = new AbortController();
  const heartbeats = startHeartbeats(ctx, stopping.signal);
  const tasks = splitTasks(handingBack(taskList(ctx), stopping.signal, (job) => heartbeats.handBack(job)));
  const concurrency = ctx.config.webhookWorkerConcurrency;
  const runners: SupervisedRunner[] = [];
  try {
    runners.push(
      await superviseRunner(
        'main',
        (onStopped) => recordJobs(ctx.metrics, heartbeats.watch('main', onStopped)),
        (events) =>
          run({
            events,
            connectionString: ctx.databaseUrl,
            concurrency: ctx.config.workerConcurrency,
            maxPoolSize: Math.max(10, ctx.config.workerConcurrency + 2),
            taskList: tasks.other,
            noHandleSignals: true,
            // New jobs arrive by LISTEN/NOTIFY, but the next job of a named queue (an institution's next
            // batch) only becomes available when the previous one's completion commits, which races with
            // the worker's immediate look for more work; only the poll finds it. A second at most between
            // two batches of an institution was most of the time of a large import.
            pollInterval: 100,
            crontab: crontabOf(ctx),
            logger: workerLogger(ctx.logger),
            preset: { worker: WRITE_COMPLETIONS },
          }),
        ctx.logger,
      ),
    );
    runners.push(
      await superviseRunner(
        'delivery',
        (onStopped) => recordJobs(ctx.metrics, heartbeats.watch('delivery', onStopped)),
        (events) =>
          run({
            connectionString: ctx.databaseUrl,
            concurrency,
            // A connection per running attempt, or attempts queue for the pool behind slow receivers.
            maxPoolSize: concurrency + 2,
            taskList: tasks.delivery,
            // No schedules: without this graphile-worker looks for a `crontab` file and logs that it found none.
            parsedCronItems: [],
            events,
            noHandleSignals: true,
            pollInterval: 100,
            logger: workerLogger(ctx.logger),
            preset: {
              worker: {
                // One fetch locks the next attempts for the whole pool; a fetch that finds nothing due
                // waits a little instead of answering every new job's notification at once.
                localQueue: { size: concurrency + 1, refetchDelay: { durationMs: 100 } },
                ...WRITE_COMPLETIONS,
              },
            },
          }),
        ctx.logger,
      ),
    );
  } catch (error) {
    await Promise.all(runners.map((r) => r.stop()));
    await heartbeats.stop();
    throw error;
  }
  return {
    stop: async () => {
      stopping.abort();
      await Promise.all(runners.map((r) => r.stop()));
      await heartbeats.stop();
    },
  };
}

/** How long a stop waits for running jobs before it gives up on them. (Default: 15 s) */
export const WORKER_STOP_TIMEOUT_MS = 15_000;

/**
 * `runner.stop()`, bounded: a job that never ends (a statement stuck in the database) must not keep
 * the process from stopping. Once the process has exited its heartbeat stops, and another worker
 * unlocks and retries the job (see heartbeats.ts).
 */
export async function stopWorker(ctx: AppContext, runner: Worker, timeoutMs = WORKER_STOP_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const stopped = runner.stop().then(() => 'stopped' as const);
  stopped.catch((error: unknown) => ctx.logger.error({ err: error }, 'worker stop failed'));
  try {
    if ((await Promise.race([stopped, timedOut])) === 'timeout') {
      ctx.logger.error(
        { timeoutMs },
        `worker did not stop within ${timeoutMs} ms: running jobs abandoned, they are unlocked and retried by another worker once this process exits`,
      );
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
    await runOnce({
      connectionString: ctx.databaseUrl,
      taskList: taskList(ctx),
      events: recordJobs(ctx.metrics, new EventEmitter() as WorkerEvents),
      logger: workerLogger(ctx.logger),
      noHandleSignals: true,
      preset: { worker: WRITE_COMPLETIONS },
    });
    const [{ due } = { due: 0 }] = await ctx.sql<{ due: number }[]>`
      select count(*)::int as due from graphile_worker.jobs where run_at <= now() and locked_at is null and attempts < max_attempts`;
    if (due === 0) return;
  }
}
