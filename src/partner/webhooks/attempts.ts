import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { webhookConfigurations, webhookDeliveries } from '../../db/schema/index.js';
import { attemptJobKey, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './fan-out.js';
import { postOnce, type SendResult } from './sender.js';
import { signatureHeaders } from './signature.js';

/** The service clock has not reached the attempt's due time; the job runs again a little later. */
export class AttemptNotDueYet extends Error {}

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'stale';

/** The headers of one attempt: the interface's, ours, and the signature when asked for. */
function headersOf(
  delivery: typeof webhookDeliveries.$inferSelect,
  configuration: typeof webhookConfigurations.$inferSelect,
  attempt: number,
  at: Date,
): Record<string, string> {
  return {
    'x-webhook-event-id': delivery.eventId,
    'x-webhook-attempt': String(attempt),
    ...(configuration.authorizationToken !== null ? { authorization: configuration.authorizationToken } : {}),
    ...(delivery.test ? { 'x-webhook-test': 'true' } : {}),
    ...signatureHeaders(
      { secret: configuration.signingSecret, previousSecret: configuration.previousSigningSecret, previousSecretExpiresAt: configuration.previousSecretExpiresAt },
      delivery.eventId,
      at,
      delivery.body,
    ),
  };
}

/**
 * Makes attempt `attempt` of a delivery and records it once it completed, with the next attempt's
 * job in the same transaction. An attempt already recorded, a delivery no longer pending or a
 * configuration deactivated or deleted meanwhile sends nothing ('stale'). A crash before the
 * record leaves the job to graphile-worker, which runs it again: at least once, never skipped.
 */
export async function runAttempt(ctx: AppContext, deliveryId: string, attempt: number): Promise<AttemptOutcome> {
  const [found] = await ctx.db
    .select({ delivery: webhookDeliveries, configuration: webhookConfigurations })
    .from(webhookDeliveries)
    .innerJoin(webhookConfigurations, eq(webhookConfigurations.id, webhookDeliveries.configurationId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!found) return 'stale';
  const { delivery, configuration } = found;
  if (delivery.status !== 'pending' || delivery.attemptsMade !== attempt - 1 || !configuration.active) return 'stale';
  const startedAt = ctx.clock.now();
  if (delivery.nextAttemptAt && delivery.nextAttemptAt > startedAt) {
    throw new AttemptNotDueYet(`attempt ${attempt} of ${deliveryId} is due at ${delivery.nextAttemptAt.toISOString()}, now ${startedAt.toISOString()}`);
  }
  const result = await postOnce(configuration.url, headersOf(delivery, configuration, attempt, startedAt), delivery.body, {
    timeoutMs: ctx.config.webhookTimeoutMs,
    allowPrivate: ctx.config.webhookAllowPrivate,
  });
  return recordAttempt(ctx, delivery.id, attempt, startedAt, result);
}

const succeeded = (result: SendResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/**
 * One statement: the delivery moves on only from the attempt before this one, the attempt is
 * recorded with it, and the next attempt's job is added; a fan-out of thousands of deliveries
 * pays one round trip per attempt.
 */
async function recordAttempt(ctx: AppContext, deliveryId: string, attempt: number, startedAt: Date, result: SendResult): Promise<AttemptOutcome> {
  const failedAt = ctx.clock.now();
  const outcome: AttemptOutcome = succeeded(result) ? 'succeeded' : attempt >= MAX_ATTEMPTS ? 'failed' : 'retrying';
  const next = outcome === 'retrying' ? new Date(failedAt.getTime() + RETRY_DELAYS_MS[attempt - 1]!).toISOString() : null;
  const [row] = await ctx.db.execute<{ recorded: number }>(sql`
    with updated as (
      update webhook_deliveries
      set attempts_made = ${attempt}, status = ${outcome === 'retrying' ? 'pending' : outcome}, next_attempt_at = ${next}::timestamptz, updated_at = ${failedAt.toISOString()}::timestamptz
      where id = ${deliveryId}::uuid and attempts_made = ${attempt - 1} and status = 'pending'
      returning id
    ), recorded as (
      insert into webhook_attempts (delivery_id, number, attempted_at, status_code, error, duration_ms, response_body)
      select id, ${attempt}, ${startedAt.toISOString()}::timestamptz, ${result.statusCode}::int, ${result.error}, ${result.durationMs}, ${result.responseBody} from updated
      returning delivery_id
    ), queued as (
      select graphile_worker.add_job('webhook-attempt', json_build_object('deliveryId', delivery_id, 'attempt', ${attempt + 1}::int),
        run_at => ${next}::timestamptz, job_key => ${attemptJobKey(deliveryId, attempt + 1)}, max_attempts => 25)
      from recorded where ${next}::timestamptz is not null
    )
    select (select count(*) from recorded)::int as recorded, (select count(*) from queued)::int as queued`);
  // Recorded meanwhile by another run of the same job, or abandoned by a deactivation.
  return row!.recorded === 0 ? 'stale' : outcome;
}
