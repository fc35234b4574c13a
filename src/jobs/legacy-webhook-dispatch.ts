import type { Task } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { sendLegacyDispatch } from '../partner/webhooks/legacy.js';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['legacy-webhook-dispatch'] {
  const p = payload as { dispatchId?: unknown; send?: unknown } | null;
  if (typeof p?.dispatchId !== 'string' || !Number.isInteger(p.send) || (p.send as number) < 1) {
    throw new Error('legacy-webhook-dispatch needs {dispatchId, send}');
  }
}

/** One send of a legacy dispatch. */
export default function legacyWebhookDispatchTask(ctx: AppContext): Task<'legacy-webhook-dispatch'> {
  return async (payload) => {
    assertPayload(payload);
    const outcome = await sendLegacyDispatch(ctx, payload.dispatchId, payload.send);
    ctx.logger.debug({ dispatch: payload.dispatchId, send: payload.send, outcome }, 'legacy webhook dispatch');
  };
}
