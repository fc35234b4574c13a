import { sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { webhookAttemptJobsOf } from '../queue/webhook-jobs.js';
import { takeTokens } from './delivery-budget.js';
import { type Recipient, recipientColumn, recipientColumns } from './recipients.js';

/** An event as its API's outbox hands it over: a partner's sale event, an institution's event. */
export interface TenantEvent {
  id: string;
  recipient: Recipient;
  name: string;
  /** The tenant's event sequence; 0 for test events. */
  sequence: number;
  /** The body sent, as the event's schema in the `webhooks` section describes it. */
  payload: unknown;
  occurredAt: Date;
}

/** The interface's schedule: first attempt 15 s after the event, then 2, 5 and 15 min after each failure. */
export const FIRST_ATTEMPT_DELAY_MS = 15_000;
export const RETRY_DELAYS_MS: readonly number[] = [2 * 60_000, 5 * 60_000, 15 * 60_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface FanOutOptions {
  /** Deliver only to this configuration (test deliveries). (Default: every matching one) */
  configurationId?: string;
  /** Deliveries asked with `POST /webhooks/test/{id}`. (Default: false) */
  test?: boolean;
  /**
   * `WEBHOOK_PARTNER_RATE`: book each delivery's first send against the tenant's budget here, at
   * its due time, so that a flood is spread out before it falls due and other tenants' deliveries
   * never queue behind it. (Default: 0, each first send booked when it is made)
   */
  tenantRate?: number;
}

/**
 * In the caller's transaction: one delivery per active configuration of the tenant that has the
 * event enabled (or `all`), and the job of its first attempt, due 15 s after the event or, over the
 * tenant's budget, at the time booked for it. Running it twice for one event creates nothing
 * twice. Answers the ids of the deliveries created.
 *
 * One statement, set-based: the deliveries, their booking and their jobs (`webhookAttemptJobsOf`)
 * cost one round trip whatever the number of configurations, inside the transaction that stores
 * the event. A booking holds the tenant's budget row until that transaction ends.
 */
export async function fanOutEvent(tx: Queryable, event: TenantEvent, options: FanOutOptions = {}): Promise<string[]> {
  const due = new Date(event.occurredAt.getTime() + FIRST_ATTEMPT_DELAY_MS).toISOString();
  const rate = options.tenantRate ?? 0;
  const column = recipientColumn(event.recipient);
  const { partnerId, institutionId } = recipientColumns(event.recipient);
  const [row] = await tx.execute<{ ids: string[] | null }>(sql`
    with targets as (
      select c.id, row_number() over (order by c.created_at, c.id) as position
      from webhook_configurations c
      where c.${column} = ${event.recipient.id}::uuid and c.active
        and ('all' = any(c.enabled_events) or ${event.name} = any(c.enabled_events))
        ${options.configurationId ? sql`and c.id = ${options.configurationId}::uuid` : sql``}
        and not exists (select 1 from webhook_deliveries d
                        where d.configuration_id = c.id and d.event_id = ${event.id}::uuid and d.redelivery_of is null)
    ), ${
      rate > 0
        ? sql`budget as (${takeTokens(event.recipient.id, due, rate, sql`select count(*) from targets`)}),
      planned as (
        -- The sends the bucket held before this booking go at the due time; each one after it 1/rate s later.
        select t.id,
               ${due}::timestamptz + make_interval(secs => greatest(0, t.position - (b.tokens + (select count(*) from targets))) / ${rate}::float8) as at
        from targets t cross join budget b
      )`
        : sql`planned as (select t.id, ${due}::timestamptz as at from targets t)`
    }, inserted as (
      insert into webhook_deliveries (configuration_id, partner_id, institution_id, event_id, event_name, sequence, body, test, next_attempt_at, occurred_at)
      select p.id, ${partnerId}::uuid, ${institutionId}::uuid, ${event.id}::uuid, ${event.name}, ${event.sequence}, ${JSON.stringify(event.payload)}, ${options.test ?? false},
             p.at, ${event.occurredAt.toISOString()}::timestamptz
      from planned p
      on conflict (configuration_id, event_id) where redelivery_of is null do nothing
      returning id, next_attempt_at
    ), queued as (${webhookAttemptJobsOf(
      sql`select id as delivery_id, 1 as attempt, next_attempt_at as run_at, ${rate > 0}::boolean as booked from inserted`,
    )})
    select (select array_agg(id::text) from inserted) as ids, (select count(*) from queued)::int as queued`);
  return row?.ids ?? [];
}
