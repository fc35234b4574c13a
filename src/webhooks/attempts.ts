import type { AppContext } from '../context.js';
import type { SecretBox } from '../core/secret-box.js';
import { tickBatch } from '../core/tick-batch.js';
import { activeTraceparent } from '../telemetry/propagation.js';
import {
  type AttemptRecord,
  type AttemptTarget,
  type ConfigurationRow,
  type DeliveryRow,
  findAttemptTargets,
  recordAttempts,
} from './attempt-sql.js';
import { maskToken } from './configurations.js';
import { bookSend, postponeAttempt } from './delivery-budget.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './fan-out.js';
import { recipientOf } from './recipients.js';
import { openSigningSecret, openToken, secretBoxOf } from './sealed-secrets.js';
import { postOnce, requestHeadersOf, type SendResult, UNSENDABLE } from './sender.js';
import { signatureHeaders } from './signature.js';
import type { TenantSlots } from './tenant-slots.js';

/** The service clock has not reached the attempt's due time; the job runs again a little later. */
export class AttemptNotDueYet extends Error {}

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'stale' | 'postponed';

/** How attempts read their delivery and record their result. */
export interface AttemptStore {
  find(deliveryId: string): Promise<AttemptTarget | undefined>;
  /** True when recorded, false when the delivery had already moved on. */
  record(record: AttemptRecord): Promise<boolean>;
}

/** How an attempt's job runs it. */
export interface AttemptOptions {
  /** Its send was booked in its tenant's budget (at the fan-out, or when it was postponed). (Default: false) */
  booked?: boolean;
  /** The tenants' slots of this process. (Default: none, no cap) */
  slots?: TenantSlots;
}

/** One query per call: for a single attempt. */
export const directAttemptStore = (ctx: AppContext): AttemptStore => ({
  find: async (id) => (await findAttemptTargets(ctx.db, [id]))[0],
  record: async (record) => (await recordAttempts(ctx.db, [record]))[0]!,
});

/**
 * The attempts running at the same time share their queries: the reads of the jobs fetched together
 * are one query, and the attempts that finish within a few milliseconds of each other are recorded
 * by one statement. Each job still completes only after its own attempt was recorded.
 */
export const batchedAttemptStore = (ctx: AppContext): AttemptStore => ({
  find: tickBatch((ids: string[]) => findAttemptTargets(ctx.db, ids)),
  record: tickBatch((records: AttemptRecord[]) => recordAttempts(ctx.db, records), { delayMs: 5 }),
});

/** The headers of one attempt: the interface's, ours, and the signature when asked for. */
function headersOf(
  box: SecretBox,
  delivery: DeliveryRow,
  configuration: ConfigurationRow,
  attempt: number,
  at: Date,
): Record<string, string> {
  const token = openToken(box, configuration.authorizationToken);
  return {
    'x-webhook-event-id': delivery.eventId,
    'x-webhook-attempt': String(attempt),
    ...(token !== null ? { authorization: token } : {}),
    ...(delivery.test ? { 'x-webhook-test': 'true' } : {}),
    ...signatureHeaders(
      {
        secret: openSigningSecret(box, configuration.signingSecret),
        previousSecret: openSigningSecret(box, configuration.previousSigningSecret),
        previousSecretExpiresAt: configuration.previousSecretExpiresAt,
      },
      delivery.eventId,
      at,
      delivery.body,
    ),
  };
}

/** The headers of an attempt as kept with it: the token, a secret, masked as the configuration shows it. */
const recordedHeaders = (headers: Record<string, string>): Record<string, string> =>
  headers.authorization === undefined ? headers : { ...headers, authorization: maskToken(headers.authorization)! };

/**
 * Makes attempt `attempt` of a delivery and records it once it completed, with the next attempt's
 * job in the same statement. An attempt already recorded, a delivery no longer pending or a
 * configuration deactivated or deleted meanwhile sends nothing ('stale'). A crash before the
 * record leaves the job to graphile-worker, which runs it again: at least once, never skipped.
 */
export async function runAttempt(
  ctx: AppContext,
  deliveryId: string,
  attempt: number,
  store: AttemptStore = directAttemptStore(ctx),
  options: AttemptOptions = {},
): Promise<AttemptOutcome> {
  const found = await store.find(deliveryId);
  if (!found) return 'stale';
  const { delivery, configuration } = found;
  if (delivery.status !== 'pending' || delivery.attemptsMade !== attempt - 1 || !configuration.active) return 'stale';
  const startedAt = ctx.clock.now();
  if (delivery.nextAttemptAt && delivery.nextAttemptAt > startedAt) {
    throw new AttemptNotDueYet(
      `attempt ${attempt} of ${deliveryId} is due at ${delivery.nextAttemptAt.toISOString()}, now ${startedAt.toISOString()}`,
    );
  }
  const { booked = false, slots } = options;
  const now = startedAt.getTime();
  const tenant = recipientOf(delivery).id;
  // The tenant's sends hold their share of this process's slots: wait for its turn, booking nothing.
  if (slots && !slots.take(tenant, now)) {
    await postponeAttempt(ctx.db, delivery.id, attempt, slots.nextTurn(tenant, now), startedAt, booked);
    return 'postponed';
  }
  try {
    // Over the tenant's budget: sent later, at the time booked for it, as the same attempt.
    const wait = booked ? 0 : await bookSend(ctx.db, tenant, startedAt, ctx.config.webhookPartnerRate);
    if (wait > 0) {
      await postponeAttempt(ctx.db, delivery.id, attempt, wait, startedAt, true);
      return 'postponed';
    }
    return await send(ctx, store, found, attempt, startedAt);
  } finally {
    slots?.release(tenant, now, ctx.clock.now().getTime());
  }
}

/** The attempt's request, and its record with the next attempt's job. */
async function send(
  ctx: AppContext,
  store: AttemptStore,
  { delivery, configuration }: AttemptTarget,
  attempt: number,
  startedAt: Date,
): Promise<AttemptOutcome> {
  const headers = headersOf(secretBoxOf(ctx.config), delivery, configuration, attempt, startedAt);
  const result = await postOnce(configuration.url, headers, delivery.body, {
    timeoutMs: ctx.config.webhookTimeoutMs,
    allowPrivate: ctx.config.webhookAllowPrivate,
    spanAttributes: {
      'webhook.delivery.id': delivery.id,
      'webhook.event': delivery.eventName,
      'webhook.attempt': attempt,
    },
  });
  const finishedAt = ctx.clock.now();
  // A request that could not be written would fail the same way at every retry.
  const final = attempt >= MAX_ATTEMPTS || result.error === UNSENDABLE;
  const outcome: AttemptOutcome = succeeded(result) ? 'succeeded' : final ? 'failed' : 'retrying';
  const recorded = await store.record({
    deliveryId: delivery.id,
    number: attempt,
    status: outcome === 'retrying' ? 'pending' : outcome,
    nextAttemptAt:
      outcome === 'retrying' ? new Date(finishedAt.getTime() + RETRY_DELAYS_MS[attempt - 1]!).toISOString() : null,
    attemptedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    ...result,
    requestHeaders: recordedHeaders(requestHeadersOf(headers, delivery.body)),
    traceparent: activeTraceparent(),
  });
  // Recorded meanwhile by another run of the same job, or abandoned by a deactivation.
  return recorded ? outcome : 'stale';
}

const succeeded = (result: SendResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
