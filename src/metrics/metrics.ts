import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from a fast read (5 ms) to a slow page or a batch chunk (10 s). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: from a webhook attempt (10 ms) to a 10,000-item batch (several minutes). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];

/**
 * The Prometheus metrics of one process (every name is in `docs/OPERATIONS.md`). Counters and
 * histograms count what this process did; the gauges read from the database (queue, batches,
 * pool) are set at each scrape by `refreshDatabaseGauges`.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Requests by `operation` (operationId, or method and route template outside the APIs) and `status`. */
  readonly httpRequestDuration: Histogram<'operation' | 'status'>;
  /** graphile-worker jobs run by this process, by `task` and `outcome` (success, retry, failed). */
  readonly jobDuration: Histogram<'task' | 'outcome'>;
  /** Webhook attempts made by this process, by `event`, `attempt` (1–4) and `outcome`. */
  readonly webhookAttempts: Counter<'event' | 'attempt' | 'outcome'>;
  /** Items of inclusion batches applied by this process, by `kind` (aluno, parcela) and `outcome`. */
  readonly batchItems: Counter<'kind' | 'outcome'>;
  readonly jobs: Gauge<'task' | 'state'>;
  readonly oldestDueJobAge: Gauge<'task'>;
  readonly unfinishedBatches: Gauge<'kind' | 'status'>;
  readonly oldestUnfinishedBatchAge: Gauge<'kind'>;
  readonly dbPoolConnections: Gauge<'state'>;
  /** Refunds not done (asked, waiting at the provider, failed), by `reason` and `status`. */
  readonly openRefunds: Gauge<'reason' | 'status'>;
  readonly oldestOpenRefundAge: Gauge<'status'>;
  /** Provider events that need a person: set aside after failing, or orphaned (our metadata, no charge) in 24 h. */
  readonly paymentEventsAttention: Gauge<'kind'>;
  /** How far behind the reconciliation's walk of the provider's events is. */
  readonly paymentEventsCursorLag: Gauge<'provider'>;
  readonly dbPoolMax: Gauge;
  readonly databaseUp: Gauge;
  /** Adds prom-client's default metrics of the process (CPU, memory, event loop, GC); once. */
  collectProcessMetrics(): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  let processMetrics = false;
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'edufin_http_request_duration_seconds',
      help: 'HTTP requests answered, by operationId (or method and route template outside the APIs) and status',
      labelNames: ['operation', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    jobDuration: new Histogram({
      name: 'edufin_job_duration_seconds',
      help: 'graphile-worker jobs run by this process, by task and outcome (success, retry, failed)',
      labelNames: ['task', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'edufin_webhook_attempts_total',
      help: 'Webhook delivery attempts, by event, attempt number and outcome (succeeded, retrying, failed, stale)',
      labelNames: ['event', 'attempt', 'outcome'],
      registers,
    }),
    batchItems: new Counter({
      name: 'edufin_batch_items_total',
      help: 'Items of inclusion batches processed, by kind (aluno, parcela) and outcome (applied, failed)',
      labelNames: ['kind', 'outcome'],
      registers,
    }),
    jobs: new Gauge({
      name: 'edufin_jobs',
      help: 'Jobs in the queue at scrape time, by task and state (due, scheduled, running, failed)',
      labelNames: ['task', 'state'],
      registers,
    }),
    oldestDueJobAge: new Gauge({
      name: 'edufin_oldest_due_job_age_seconds',
      help: 'Seconds since the oldest job that is due and not running should have run, by task',
      labelNames: ['task'],
      registers,
    }),
    unfinishedBatches: new Gauge({
      name: 'edufin_unfinished_batches',
      help: 'Inclusion batches not finished, by kind and status (RECEBIDO, PROCESSANDO)',
      labelNames: ['kind', 'status'],
      registers,
    }),
    oldestUnfinishedBatchAge: new Gauge({
      name: 'edufin_oldest_unfinished_batch_age_seconds',
      help: 'Seconds since the oldest unfinished inclusion batch was received, by kind',
      labelNames: ['kind'],
      registers,
    }),
    dbPoolConnections: new Gauge({
      name: 'edufin_db_pool_connections',
      help: 'Open connections of this process’s database pool, by state (active, idle, idle in transaction…)',
      labelNames: ['state'],
      registers,
    }),
    openRefunds: new Gauge({
      name: 'edufin_open_refunds',
      help: 'Refunds not done, by reason (UNAPPLIED, OVERPAYMENT, OPERATOR, PROVIDER) and status (REQUESTED, PENDING, FAILED, CANCELED)',
      labelNames: ['reason', 'status'],
      registers,
    }),
    oldestOpenRefundAge: new Gauge({
      name: 'edufin_oldest_open_refund_age_seconds',
      help: 'Seconds since the oldest refund not done was asked, by status',
      labelNames: ['status'],
      registers,
    }),
    paymentEventsAttention: new Gauge({
      name: 'edufin_payment_events_attention',
      help: 'Payment provider events that need a person: set_aside (failed at every reconciliation try), orphaned (of a charge of ours not here, last 24 h)',
      labelNames: ['kind'],
      registers,
    }),
    paymentEventsCursorLag: new Gauge({
      name: 'edufin_payment_events_cursor_lag_seconds',
      help: "Seconds between now and the instant up to which the provider's events were all applied or set aside",
      labelNames: ['provider'],
      registers,
    }),
    dbPoolMax: new Gauge({
      name: 'edufin_db_pool_max_connections',
      help: 'Size of this process’s database pool (DB_POOL_MAX)',
      registers,
    }),
    databaseUp: new Gauge({
      name: 'edufin_database_up',
      help: '1 when the database answered the scrape’s reads, 0 when it did not (the database gauges are then absent)',
      registers,
    }),
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}
