import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { ScheduleNotDueYet } from './apply-catalogue-schedules.js';

/**
 * Cancels a charge at the payment provider: a sibling of a charge just paid, or a card session at
 * the end of its day. Retried while the provider cannot answer; the call is keyed by the charge.
 * The reconciliation closes a card session whose job was lost.
 */
export default function cancelChargeTask(ctx: AppContext): Task<'cancel-charge'> {
  return async (payload) => {
    if (typeof payload?.chargeId !== 'string') throw new Error('cancel-charge needs a chargeId');
    // graphile-worker found the job due by the database's clock: retried a little later until the service clock agrees.
    if ((await ctx.payments.cancel(ctx.db, payload.chargeId)) === 'not-due')
      throw new ScheduleNotDueYet(
        `charge ${payload.chargeId} is still open by the service clock (${ctx.clock.now().toISOString()})`,
      );
  };
}
