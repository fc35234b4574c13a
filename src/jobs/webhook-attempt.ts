import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { batchedAttemptStore, runAttempt } from '../webhooks/attempts.js';
import { MAX_ATTEMPTS } from '../webhooks/fan-out.js';
import { TenantSlots } from '../webhooks/tenant-slots.js';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['webhook-attempt'] {
  const p = payload as { deliveryId?: unknown; attempt?: unknown; booked?: unknown } | null;
  const valid =
    typeof p?.deliveryId === 'string' &&
    (p.booked === undefined || typeof p.booked === 'boolean') &&
    Number.isInteger(p.attempt) &&
    (p.attempt as number) >= 1 &&
    (p.attempt as number) <= MAX_ATTEMPTS;
  if (!valid) throw new Error('webhook-attempt needs {deliveryId, attempt 1..4, booked?}');
}

/**
 * One attempt of one webhook delivery; throws (and is retried) only when it could not be recorded
 * or is not due yet. One partner's attempts leave a quarter of this process's webhook slots to the
 * others (`TenantSlots`, shared by the jobs this task runs). Each attempt made is counted in
 * `edufin_webhook_attempts_total` with the event its delivery carries, read by the attempt itself
 * (the store's `find`).
 */
export default function webhookAttemptTask(ctx: AppContext): Task<'webhook-attempt'> {
  const store = batchedAttemptStore(ctx);
  const slots = new TenantSlots(ctx.config.webhookWorkerConcurrency);
  return async (payload) => {
    assertPayload(payload);
    let event = 'unknown';
    const outcome = await runAttempt(
      ctx,
      payload.deliveryId,
      payload.attempt,
      {
        find: async (id) => {
          const found = await store.find(id);
          if (found) event = found.delivery.eventName;
          return found;
        },
        record: (record) => store.record(record),
      },
      { booked: payload.booked, slots },
    );
    // A send booked for later is no attempt yet.
    if (outcome !== 'postponed') ctx.metrics.webhookAttempts.inc({ event, attempt: String(payload.attempt), outcome });
    ctx.logger.debug({ delivery: payload.deliveryId, attempt: payload.attempt, outcome }, 'webhook attempt');
  };
}
