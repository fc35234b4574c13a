import type { AppContext } from '../../src/context.js';
import type { Queryable } from '../../src/db/client.js';
import type { SaleDeps } from '../../src/partner/sales/state/sale-flow.js';
import type { TransitionResult } from '../../src/partner/sales/state/transitions.js';

/**
 * Runs one step of a sale in a transaction of its own, as an adapter would:
 * `saleStep(t.ctx, purchaseConfirmed, saleId)`.
 */
export function saleStep<A extends unknown[]>(
  ctx: AppContext,
  step: (tx: Queryable, deps: SaleDeps, saleId: number, ...args: A) => Promise<TransitionResult>,
  saleId: number,
  ...args: A
): Promise<TransitionResult> {
  return ctx.db.transaction((tx) => step(tx, ctx, saleId, ...args));
}
