import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';

/**
 * Every five minutes, where the provider reports by events (Stripe): a lost webhook never leaves a
 * paid charge pending, nor a refunded or disputed one paid (see `payments/stripe/reconcile.ts`). Each run reads at most a batch; the
 * charges it could not read are read again at the next one.
 */
export const RECONCILE_CRONTAB =
  '*/5 * * * * reconcile-payments ?jobKey=reconcile-payments&jobKeyMode=replace&priority=10';

export default function reconcilePaymentsTask(ctx: AppContext): Task<'reconcile-payments'> {
  return async () => {
    const report = await ctx.payments.reconcile(ctx.db);
    if (report.checked > 0 || report.recovered > 0) ctx.logger.info(report, 'charges read from the payment provider');
  };
}
