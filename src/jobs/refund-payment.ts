import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';

/**
 * Asks the payment provider for a refund decided in a committed transaction (`payment_refunds`). A
 * provider that cannot answer now throws, and graphile-worker tries again with its backoff; the call
 * is keyed by the refund, so a retry refunds nothing twice.
 */
export default function refundPaymentTask(ctx: AppContext): Task<'refund-payment'> {
  return async (payload) => {
    if (typeof payload?.refundId !== 'string') throw new Error('refund-payment needs a refundId');
    await ctx.payments.refund(ctx.db, payload.refundId);
  };
}
