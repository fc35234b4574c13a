import type { ChargeListener } from '../../../payments/provider.js';
import { lockSale } from '../sql.js';
import { paymentDeclined, type SaleDeps } from '../state/sale-flow.js';
import { stateOf } from '../state/transitions.js';
import {
  saleChargeDisputed,
  saleChargeRefunded,
  saleChargeRefundFailed,
  saleChargeReinstated,
  saleChargeReversed,
} from './operator.js';
import { confirmSaleCharge, saleIdOf, saleInvoiceExpired } from './sale-charges.js';

/** The issuer's reason when the provider gives none. */
const DECLINED = 'Cartão recusado pelo emissor';

/**
 * What a sale does when one of its charges moves, whoever reports it (the sandbox at once, Stripe
 * by its events, the buyer's return or the reconciliation), always in the transaction of the move.
 */
export function saleChargeListener(deps: SaleDeps): ChargeListener {
  return {
    paid: confirmSaleCharge(deps),
    /** A card refused: `paymentDeclined`, unless the buyer has moved on (a Pix generated since) or the sale closed. */
    async declined(db, charge) {
      const sale = await lockSale(db, saleIdOf(charge));
      if (!sale || stateOf(sale) !== 'in_progress') return;
      await paymentDeclined(db, deps, sale, {
        reason: charge.declinedReason ?? DECLINED,
        ...(charge.card ? { cardBrand: charge.card.brand, lastFourDigits: charge.card.lastFour } : {}),
        numberOfInstallments: charge.card?.installments ?? 1,
      });
    },
    expired: saleInvoiceExpired(deps),
    refunded: (db, charge, refund) => saleChargeRefunded(db, deps, charge, refund),
    refundFailed: (db, charge, refund) => saleChargeRefundFailed(db, deps, charge, refund),
    disputed: (db, charge) => saleChargeDisputed(db, deps, charge),
    reinstated: (db, charge, amountCents) => saleChargeReinstated(db, deps, charge, amountCents),
    reversed: (db, charge) => saleChargeReversed(db, deps, charge),
  };
}
