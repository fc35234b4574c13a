import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { compactInstallmentCounts } from '../institution/listings/installment-counts.js';

/**
 * Every five minutes: each statement writing installments adds a counter row per group it
 * touched (a payment adds two), so without folding, the sums a listing reads would grow with the
 * institution's history instead of staying a few rows per status and type.
 */
export const COUNTS_CRONTAB =
  '*/5 * * * * compact-installment-counts ?jobKey=compact-installment-counts&jobKeyMode=replace&priority=10';

export default function compactInstallmentCountsTask(ctx: AppContext): Task<'compact-installment-counts'> {
  return async () => {
    const outcome = await compactInstallmentCounts(ctx.db);
    if (outcome.before > outcome.after) ctx.logger.info(outcome, 'installment counters compacted');
  };
}
