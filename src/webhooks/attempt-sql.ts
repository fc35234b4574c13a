import { eq, inArray, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { webhookConfigurations, webhookDeliveries } from '../db/schema/index.js';
import { webhookAttemptJobsOf } from '../queue/webhook-jobs.js';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type ConfigurationRow = typeof webhookConfigurations.$inferSelect;

/** A delivery with the configuration it goes to. */
export interface AttemptTarget {
  delivery: DeliveryRow;
  configuration: ConfigurationRow;
}

/** The deliveries of `ids` with their configurations, in one query; a missing id answers undefined. */
export async function findAttemptTargets(db: Queryable, ids: string[]): Promise<(AttemptTarget | undefined)[]> {
  const rows = await db
    .select({ delivery: webhookDeliveries, configuration: webhookConfigurations })
    .from(webhookDeliveries)
    .innerJoin(webhookConfigurations, eq(webhookConfigurations.id, webhookDeliveries.configurationId))
    .where(inArray(webhookDeliveries.id, [...new Set(ids)]));
  const byId = new Map(rows.map((r) => [r.delivery.id, r]));
  return ids.map((id) => byId.get(id));
}

/** One finished attempt, and what it does to its delivery. */
export interface AttemptRecord {
  deliveryId: string;
  number: number;
  /** The delivery's status after this attempt. */
  status: 'pending' | 'succeeded' | 'failed';
  /** Due time of the next attempt, whose job is added with the record; null when none follows. */
  nextAttemptAt: string | null;
  attemptedAt: string;
  finishedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  /** The headers sent, the token masked (see `recordedHeaders`). */
  requestHeaders: Record<string, string>;
  /** The trace the attempt ran in, which the next attempt continues: recorded in a batch of other traces' attempts. */
  traceparent?: string;
}

/**
 * One statement for many attempts: each delivery moves on only from the attempt before its own
 * (another run of the same job, or a deactivation, has already moved it otherwise), its attempt is
 * recorded with it, and the next attempts' jobs are added. Answers, per record, whether it was
 * recorded.
 */
export async function recordAttempts(db: Queryable, records: AttemptRecord[]): Promise<boolean[]> {
  const [row] = await db.execute<{ recorded: string[] | null }>(sql`
    with input as (
      select distinct on (r.delivery_id) r.*
      from json_to_recordset(${JSON.stringify(records.map(toJsonRecord))}::json) as r(
        delivery_id uuid, number int, status text, next_attempt_at timestamptz, attempted_at timestamptz,
        finished_at timestamptz, status_code int, error text, duration_ms int, response_body text, request_headers jsonb,
        traceparent text)
      order by r.delivery_id
    ), updated as (
      update webhook_deliveries d
      set attempts_made = i.number, status = i.status, next_attempt_at = i.next_attempt_at, updated_at = i.finished_at
      from input i
      where d.id = i.delivery_id and d.attempts_made = i.number - 1 and d.status = 'pending'
      returning d.id, i.number, i.next_attempt_at, i.traceparent
    ), recorded as (
      insert into webhook_attempts (delivery_id, number, attempted_at, status_code, error, duration_ms, response_body, request_headers)
      select i.delivery_id, i.number, i.attempted_at, i.status_code, i.error, i.duration_ms, i.response_body, i.request_headers
      from input i join updated u on u.id = i.delivery_id
      returning delivery_id, number
    ), queued as (${webhookAttemptJobsOf(
      sql`
      select u.id as delivery_id, u.number + 1 as attempt, u.next_attempt_at as run_at, null::boolean as booked, u.traceparent
      from updated u where u.next_attempt_at is not null`,
      sql`r.traceparent`,
    )})
    select (select array_agg(delivery_id::text || ':' || number) from recorded) as recorded, (select count(*) from queued)::int as queued`);
  // A record given twice in one batch is recorded once: the second copy answers false.
  const recorded = new Set(row?.recorded ?? []);
  return records.map((r) => recorded.delete(`${r.deliveryId}:${r.number}`));
}

const toJsonRecord = (r: AttemptRecord) => ({
  delivery_id: r.deliveryId,
  number: r.number,
  status: r.status,
  next_attempt_at: r.nextAttemptAt,
  attempted_at: r.attemptedAt,
  finished_at: r.finishedAt,
  status_code: r.statusCode,
  error: r.error,
  duration_ms: r.durationMs,
  response_body: r.responseBody,
  request_headers: r.requestHeaders,
  traceparent: r.traceparent,
});
