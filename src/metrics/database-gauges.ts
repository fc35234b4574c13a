import type { Sql } from '../db/client.js';
import { jobCountsByTask } from '../queue/job-reads.js';
import type { Metrics } from './metrics.js';

interface BatchRow {
  kind: string;
  status: string;
  count: number;
  oldest_seconds: number;
}

/** Longest the database reads of a scrape may take; a scrape waits no longer for a database that is away. */
const READ_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database reads timed out')), READ_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Sets the gauges read from the database, at scrape time: the job queue (graphile-worker's
 * public `jobs` view), the unfinished inclusion batches, and the connections of this process's
 * pool (`pg_stat_activity` by the pool's own `application_name`, the scrape's connection left
 * out). When the database does not answer, `edufin_database_up` is 0 and these gauges are absent
 * rather than stale.
 */
export async function refreshDatabaseGauges(metrics: Metrics, sql: Sql, poolMax: number): Promise<void> {
  const gauges = [
    metrics.jobs,
    metrics.oldestDueJobAge,
    metrics.unfinishedBatches,
    metrics.oldestUnfinishedBatchAge,
    metrics.dbPoolConnections,
    metrics.openRefunds,
    metrics.oldestOpenRefundAge,
    metrics.paymentEventsAttention,
    metrics.paymentEventsCursorLag,
  ];
  try {
    const applicationName = sql.options.connection.application_name;
    const [queue, batches, pool, payments] = await withTimeout(
      Promise.all([
        jobCountsByTask(sql),
        sql<BatchRow[]>`
        select kind, status, count(*)::int as count, extract(epoch from now() - min(created_at))::float8 as oldest_seconds
        from batches where finished_at is null group by kind, status`,
        sql<{ state: string; count: number }[]>`
        select coalesce(state, 'unknown') as state, count(*)::int as count from pg_stat_activity
        where application_name = ${String(applicationName)} and pid <> pg_backend_pid() group by state`,
        paymentGauges(sql),
      ]),
    );
    for (const gauge of gauges) gauge.reset();
    for (const row of queue) {
      for (const state of ['due', 'scheduled', 'running', 'failed'] as const)
        metrics.jobs.set({ task: row.task, state }, row[state]);
      if (row.oldest_due_seconds !== null) metrics.oldestDueJobAge.set({ task: row.task }, row.oldest_due_seconds);
    }
    const oldestByKind = new Map<string, number>();
    for (const row of batches) {
      metrics.unfinishedBatches.set({ kind: row.kind, status: row.status }, row.count);
      oldestByKind.set(row.kind, Math.max(oldestByKind.get(row.kind) ?? 0, row.oldest_seconds));
    }
    for (const [kind, seconds] of oldestByKind) metrics.oldestUnfinishedBatchAge.set({ kind }, seconds);
    for (const state of ['active', 'idle']) metrics.dbPoolConnections.set({ state }, 0);
    for (const row of pool) metrics.dbPoolConnections.set({ state: row.state }, row.count);
    setPaymentGauges(metrics, payments);
    metrics.dbPoolMax.set(poolMax);
    metrics.databaseUp.set(1);
  } catch {
    // Not logged: the scrape's own request line is its one log line, and edufin_database_up says it.
    for (const gauge of gauges) gauge.reset();
    metrics.databaseUp.set(0);
  }
}

interface PaymentReads {
  refunds: { reason: string; status: string; count: number; oldest_seconds: number }[];
  attention: { set_aside: number; orphaned: number }[];
  cursors: { provider: string; lag_seconds: number }[];
}

/** The money that waits for a person: refunds not done, provider events set aside or orphaned, the events cursor's lag. */
async function paymentGauges(sql: Sql): Promise<PaymentReads> {
  const [refunds, attention, cursors] = await Promise.all([
    sql<PaymentReads['refunds']>`
      select reason, status, count(*)::int as count, extract(epoch from now() - min(created_at))::float8 as oldest_seconds
      from payment_refunds where status <> 'SUCCEEDED' group by reason, status`,
    sql<PaymentReads['attention']>`
      select (select count(*)::int from payment_event_failures where set_aside_at is not null) as set_aside,
             (select count(*)::int from payment_provider_events
               where outcome = 'orphaned' and received_at > now() - interval '24 hours') as orphaned`,
    sql<PaymentReads['cursors']>`
      select provider, extract(epoch from now() - listed_until)::float8 as lag_seconds from payment_provider_cursors`,
  ]);
  return { refunds, attention, cursors };
}

function setPaymentGauges(metrics: Metrics, reads: PaymentReads): void {
  const oldest = new Map<string, number>();
  for (const row of reads.refunds) {
    metrics.openRefunds.set({ reason: row.reason, status: row.status }, row.count);
    oldest.set(row.status, Math.max(oldest.get(row.status) ?? 0, row.oldest_seconds));
  }
  for (const [status, seconds] of oldest) metrics.oldestOpenRefundAge.set({ status }, seconds);
  const [attention] = reads.attention;
  metrics.paymentEventsAttention.set({ kind: 'set_aside' }, attention?.set_aside ?? 0);
  metrics.paymentEventsAttention.set({ kind: 'orphaned' }, attention?.orphaned ?? 0);
  for (const row of reads.cursors) metrics.paymentEventsCursorLag.set({ provider: row.provider }, row.lag_seconds);
}
