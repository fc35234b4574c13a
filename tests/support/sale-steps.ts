import type { AppContext } from '../../src/context.js';
import type { Queryable } from '../../src/db/client.js';
import type { LockedSale } from '../../src/partner/sales/sql.js';
import type { SaleDeps } from '../../src/partner/sales/state/sale-flow.js';
import type { TransitionResult } from '../../src/partner/sales/state/transitions.js';
import { withLockedSale } from '../../src/partner/sales/state/unit-of-work.js';

/**
 * Runs one step of a sale in a transaction of its own on the sale locked there, as an adapter would:
 * `saleStep(t.ctx, purchaseConfirmed, saleId)`.
 */
export function saleStep<A extends unknown[]>(
  ctx: AppContext,
  step: (tx: Queryable, deps: SaleDeps, sale: LockedSale, ...args: A) => Promise<TransitionResult>,
  saleId: number,
  ...args: A
): Promise<TransitionResult> {
  return withLockedSale(ctx.db, saleId, (tx, sale) => step(tx, ctx, sale, ...args));
}
