import { type SQL, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { webhookAttemptJobsOf } from '../queue/webhook-jobs.js';

/** Sends a tenant may make at once after a quiet spell: this many seconds of its rate. */
export const BURST_SECONDS = 5;

/**
 * The upsert of a tenant's bucket (a partner's or an institution's, by its id) taking `count`
 * sends (an SQL expression) at `at`, answering the tokens left: below zero, the sends booked ahead. The bucket refills at `rate` a second up to
 * `BURST_SECONDS` × `rate` since its last booking; a booking at an earlier instant than the last
 * one refills nothing. Takes the bucket's row lock until the caller's transaction ends.
 */
export function takeTokens(tenantId: string, at: string, rate: number, count: SQL): SQL {
  const burst = rate * BURST_SECONDS;
  return sql`
    insert into webhook_send_budgets as b (tenant_id, tokens, refilled_at)
    select ${tenantId}::uuid, ${burst}::float8 - (${count}), ${at}::timestamptz where (${count}) > 0
    on conflict (tenant_id) do update set
      tokens = least(${burst}::float8,
                     b.tokens + greatest(0, extract(epoch from excluded.refilled_at - b.refilled_at))::float8 * ${rate})
               - (${burst}::float8 - excluded.tokens),
      refilled_at = greatest(b.refilled_at, excluded.refilled_at)
    returning tokens`;
}

/**
 * Books one send of a tenant's webhooks (a retry, a redelivery, a legacy dispatch, or a first
 * attempt not booked at its fan-out) against its budget, `rate` sends a second with bursts of
 * `BURST_SECONDS` × `rate`, kept in PostgreSQL so that every worker process draws on the same
 * bucket. Answers the seconds until the booked send is due: 0 to send now. A send booked ahead
 * holds its place (the bucket goes below zero), so the tenant's sends are spaced out in booking
 * order, none dropped, and one tenant's flood only ever delays its own sends. `rate` 0 books
 * nothing.
 */
export async function bookSend(db: Queryable, tenantId: string, now: Date, rate: number): Promise<number> {
  if (rate <= 0) return 0;
  const [row] = await db.execute<{ tokens: number }>(takeTokens(tenantId, now.toISOString(), rate, sql`1`));
  const tokens = Number(row!.tokens);
  return tokens >= 0 ? 0 : -tokens / rate;
}

/**
 * An attempt moved `waitSeconds` later: over its tenant's budget, to its booked time; turned away
 * for its tenant's slots (`tenant-slots.ts`), a little later. The delivery shows it as its next
 * attempt, and the attempt's job (the same key: the running job's key is cleared) runs then,
 * `booked` when its send is booked. Nothing moves when the delivery went on meanwhile.
 */
export async function postponeAttempt(
  db: Queryable,
  deliveryId: string,
  attempt: number,
  waitSeconds: number,
  now: Date,
  booked: boolean,
): Promise<void> {
  const due = new Date(now.getTime() + Math.ceil(waitSeconds * 1000));
  await db.execute(sql`
    with moved as (
      update webhook_deliveries set next_attempt_at = ${due.toISOString()}::timestamptz
      where id = ${deliveryId}::uuid and status = 'pending' and attempts_made = ${attempt - 1}
      returning id
    ), queued as (${webhookAttemptJobsOf(sql`
      -- Its run_at by the database's clock, as every job's.
      select id as delivery_id, ${attempt}::int as attempt, now() + make_interval(secs => ${waitSeconds}::float8) as run_at,
             ${booked}::boolean as booked
      from moved`)})
    select count(*) from queued`);
}
