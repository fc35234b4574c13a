import { type SQL, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { activeTraceparent } from '../telemetry/propagation.js';
import { enqueue, enqueueMany } from './enqueue.js';
import { jobKeys, webhookAttemptKeySql } from './job-keys.js';

export interface WebhookAttemptJob {
  deliveryId: string;
  attempt: number;
  runAt: Date;
}

/** Attempts of webhook deliveries, each keyed by its delivery and number, in one statement. */
export const addWebhookAttempts = (tx: Queryable, attempts: WebhookAttemptJob[]) =>
  enqueueMany(
    tx,
    'webhook-attempt',
    attempts.map(({ deliveryId, attempt, runAt }) => ({
      payload: { deliveryId, attempt },
      runAt,
      jobKey: jobKeys.webhookAttempt(deliveryId, attempt),
    })),
  );

/**
 * The part of a larger statement (a CTE's body) that adds one `webhook-attempt` job per row of
 * `rows`, a query answering `delivery_id`, `attempt`, `run_at` and `booked` (null: not in the
 * payload): deliveries and their jobs are then written in one round trip, by the statement that
 * writes the deliveries. It answers one row while it adds any job; select from it so that it runs.
 *
 * While tracing is on, each payload carries a `traceparent`, as `enqueue`'s do: the active span's,
 * or `traceparentOf`, an expression over the row `r` for a statement that serves the attempts of
 * many traces at once (the batched records of attempts), so that each retry stays in its own trace.
 */
export function webhookAttemptJobsOf(rows: SQL, traceparentOf?: SQL): SQL {
  const active = activeTraceparent();
  const traceparent = traceparentOf ?? (active ? sql`${active}::text` : undefined);
  return sql`select graphile_worker.add_jobs(array_agg(row(
      'webhook-attempt',
      json_strip_nulls(json_build_object('deliveryId', r.delivery_id, 'attempt', r.attempt, 'booked', r.booked${
        traceparent ? sql`, 'traceparent', ${traceparent}` : sql``
      })),
      null::text, r.run_at, 25, ${webhookAttemptKeySql(sql`r.delivery_id`, sql`r.attempt`)}, null::int, null::text[]
    )::graphile_worker.job_spec))
    from (${rows}) r having count(*) > 0`;
}

export interface LegacyDispatchJob {
  dispatchId: string;
  send: number;
  runAt: Date;
}

/** Sends of legacy webhook dispatches, each keyed by its dispatch and number, in one statement. */
export const addLegacyDispatches = (tx: Queryable, dispatches: LegacyDispatchJob[]) =>
  enqueueMany(
    tx,
    'legacy-webhook-dispatch',
    dispatches.map(({ dispatchId, send, runAt }) => ({
      payload: { dispatchId, send },
      runAt,
      jobKey: jobKeys.legacyDispatch(dispatchId, send),
    })),
  );

/** A send of a legacy dispatch booked for `bookedFor`, due `delaySeconds` from now by the database's clock. */
export const postponeLegacyDispatch = (
  db: Queryable,
  dispatch: { dispatchId: string; send: number; bookedFor: string },
  delaySeconds: number,
) =>
  enqueue(db, 'legacy-webhook-dispatch', dispatch, {
    delaySeconds,
    jobKey: jobKeys.legacyDispatch(dispatch.dispatchId, dispatch.send),
  });
