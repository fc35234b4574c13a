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
  ];
  try {
    const applicationName = sql.options.connection.application_name;
    const [queue, batches, pool] = await withTimeout(
      Promise.all([
        jobCountsByTask(sql),
        sql<BatchRow[]>`
        select kind, status, count(*)::int as count, extract(epoch from now() - min(created_at))::float8 as oldest_seconds
        from batches where finished_at is null group by kind, status`,
        sql<{ state: string; count: number }[]>`
        select coalesce(state, 'unknown') as state, count(*)::int as count from pg_stat_activity
        where application_name = ${String(applicationName)} and pid <> pg_backend_pid() group by state`,
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
    metrics.dbPoolMax.set(poolMax);
    metrics.databaseUp.set(1);
  } catch {
    // Not logged: the scrape's own request line is its one log line, and edufin_database_up says it.
    for (const gauge of gauges) gauge.reset();
    metrics.databaseUp.set(0);
  }
}
