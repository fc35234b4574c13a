import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import type { LockedSale } from '../sql.js';
import { isOpen } from '../state/sale-states.js';
import { stateOf } from '../state/transitions.js';
import { withLockedSale } from '../state/unit-of-work.js';
import { CheckoutClosed } from './checkout.rules.js';
import { saleOfToken } from './checkout-steps.js';
import { recordActivity } from './sale-schedules.js';

/**
 * The unit of work of one of the buyer's steps, opened by the checkout's routes: the sale of
 * `token` locked in one transaction, refused once closed, the buyer's activity recorded, and the
 * step run on it. The charge, the move, its event and the jobs they schedule commit together.
 */
export async function checkoutStep<T>(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  token: string,
  run: (tx: Queryable, sale: LockedSale) => Promise<T>,
): Promise<T> {
  const { id } = await saleOfToken(ctx.db, token);
  return withLockedSale(ctx.db, id, async (tx, sale) => {
    if (!isOpen(stateOf(sale))) throw new CheckoutClosed(sale.status);
    await recordActivity(tx, sale.id, ctx.clock.now());
    return run(tx, sale);
  });
}
