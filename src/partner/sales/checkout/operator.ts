import type { AppContext } from '../../../context.js';
import { cancelByPartner, expireSale, purchaseCancelled } from '../sale-flow.js';
import { lockSale, type SaleRow } from '../sql.js';
import { SaleNotFound } from '../transitions.js';
import { NotCardPaid } from './checkout.rules.js';
import { saleReference } from './sale-charges.js';
import { inTransaction } from './sale-context.js';

/** What the operator (sandbox API, CLI) can do to a sale, as the provider or the partner would report it. */
export type OperatorAction = 'cancel' | 'refund' | 'chargeback' | 'cancel-by-partner' | 'expire';
export const OPERATOR_ACTIONS: readonly OperatorAction[] = [
  'cancel',
  'refund',
  'chargeback',
  'cancel-by-partner',
  'expire',
];

/**
 * `cancel`: a confirmed sale cancelled at the buyer's or partner's request (`purchaseCancelled`);
 * `refund`: the same with the paid charge refunded; `chargeback`: the paid card charge contested;
 * `cancel-by-partner` and `expire`: an open sale closed without event.
 */
const REVERSAL_REASONS: Partial<Record<OperatorAction, string>> = {
  cancel: 'Cancelled at the request of the buyer or the partner',
  refund: 'Cancelled with the payments refunded',
  chargeback: 'Card payment contested by the cardholder',
};

export async function operateSale(ctx: AppContext, saleId: number, action: OperatorAction): Promise<SaleRow> {
  return ctx.db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    if (!sale) throw new SaleNotFound();
    const txCtx = inTransaction(ctx, tx);
    if (action === 'cancel-by-partner') return (await cancelByPartner(txCtx, saleId)).sale;
    if (action === 'expire') return (await expireSale(txCtx, saleId)).sale;
    let reversedCents = 0;
    if (action !== 'cancel') {
      const provider = ctx.payments;
      const paid = (await provider.listCharges(tx, saleReference(saleId))).filter((c) => c.status === 'PAID');
      if (action === 'chargeback' && !paid.some((c) => c.method === 'CARD')) throw new NotCardPaid(saleId);
      for (const charge of paid) {
        if (action !== 'refund' && charge.method !== 'CARD') continue;
        await provider.reverse(tx, charge.id, action === 'refund' ? 'REFUNDED' : 'CHARGED_BACK');
        reversedCents += charge.paidAmountCents ?? charge.amountCents;
      }
    }
    const cancelled = (await purchaseCancelled(txCtx, saleId)).sale;
    await ctx.saleLedger.reversed(
      tx,
      saleId,
      action === 'chargeback' ? 'chargeback' : 'cancellation',
      reversedCents,
      REVERSAL_REASONS[action] ?? null,
    );
    return cancelled;
  });
}
