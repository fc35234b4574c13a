import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { sendLegacyDispatch } from '../partner/webhooks/legacy.js';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['legacy-webhook-dispatch'] {
  const p = payload as { dispatchId?: unknown; send?: unknown; bookedFor?: unknown } | null;
  if (
    typeof p?.dispatchId !== 'string' ||
    !Number.isInteger(p.send) ||
    (p.send as number) < 1 ||
    (p.bookedFor !== undefined && typeof p.bookedFor !== 'string')
  ) {
    throw new Error('legacy-webhook-dispatch needs {dispatchId, send, bookedFor?}');
  }
}

/** One send of a legacy dispatch. */
export default function legacyWebhookDispatchTask(ctx: AppContext): Task<'legacy-webhook-dispatch'> {
  return async (payload) => {
    assertPayload(payload);
    const outcome = await sendLegacyDispatch(ctx, payload.dispatchId, payload.send, payload.bookedFor);
    ctx.logger.debug({ dispatch: payload.dispatchId, send: payload.send, outcome }, 'legacy webhook dispatch');
  };
}
