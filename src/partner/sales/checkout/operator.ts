import type { Queryable } from '../../../db/client.js';
import type { Charge } from '../../../payments/provider.js';
import { type LockedSale, lockSale, type SaleRow } from '../sql.js';
import { cancelByPartner, expireSale, purchaseCancelled, type SaleDeps } from '../state/sale-flow.js';
import { stateOf } from '../state/transitions.js';
import { NotCardPaid } from './checkout.rules.js';
import { type CheckoutDeps, saleIdOf, saleReference } from './sale-charges.js';

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

/** Applies an operator's action to the sale its adapter (sandbox route, CLI) locked (`withLockedSale`). */
export async function operateSale(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  action: OperatorAction,
): Promise<SaleRow> {
  const saleId = sale.id;
  if (action === 'cancel-by-partner') return (await cancelByPartner(tx, deps, sale)).sale;
  if (action === 'expire') return (await expireSale(tx, deps, sale)).sale;
  // The move first: a sale that cannot be cancelled is refused before any money is given back.
  const cancelled = (await purchaseCancelled(tx, deps, sale)).sale;
  let reversedCents = 0;
  if (action !== 'cancel') {
    const provider = deps.payments;
    const paid = (await provider.listCharges(tx, saleReference(saleId))).filter((c) => c.status === 'PAID');
    if (action === 'chargeback' && !paid.some((c) => c.method === 'CARD')) throw new NotCardPaid(saleId);
    for (const charge of paid) {
      if (action !== 'refund' && charge.method !== 'CARD') continue;
      await provider.reverse(tx, charge.id, action === 'refund' ? 'REFUNDED' : 'CHARGED_BACK');
      // A payment kept unapplied (paid twice) goes back too, but was never part of the receipt.
      if (!charge.unappliedReason) reversedCents += charge.paidAmountCents ?? charge.amountCents;
    }
  }
  await recordReversal(tx, deps, saleId, action, reversedCents);
  return cancelled;
}

/** The receipt's side of a cancellation, refund or chargeback of a confirmed sale. */
const recordReversal = (
  tx: Queryable,
  deps: Pick<SaleDeps, 'saleLedger'>,
  saleId: number,
  action: 'cancel' | 'refund' | 'chargeback',
  reversedCents: number,
) =>
  deps.saleLedger.reversed(
    tx,
    saleId,
    action === 'chargeback' ? 'chargeback' : 'cancellation',
    reversedCents,
    REVERSAL_REASONS[action] ?? null,
  );

/**
 * The provider reports the payment of a confirmed sale refunded in full or a dispute of it lost:
 * the sale is cancelled with `purchaseCancelled`, once, in the transaction of the charge's move. A
 * dispute's amount was taken from the receipt when it was opened (`saleChargeDisputed`); a refund's
 * is taken now. A sale no longer confirmed (cancelled already) changes nothing.
 */
export async function saleChargeReversed(tx: Queryable, deps: SaleDeps, charge: Charge): Promise<void> {
  const sale = await lockSale(tx, saleIdOf(charge));
  if (!sale || stateOf(sale) !== 'made_effective') return;
  await purchaseCancelled(tx, deps, sale);
  if (charge.status !== 'CHARGED_BACK')
    await recordReversal(tx, deps, sale.id, 'refund', charge.paidAmountCents ?? charge.amountCents);
}

const DISPUTE_REASONS = {
  opened: 'Contestação aberta pelo portador do cartão: valor retido',
  won: 'Contestação ganha: valor restabelecido',
};

/**
 * A dispute of a confirmed sale's payment withdrew its amount: the receipt records it as a
 * chargeback, and the sale stays confirmed while the dispute can still be won.
 */
export async function saleChargeDisputed(tx: Queryable, deps: SaleDeps, charge: Charge): Promise<void> {
  await deps.saleLedger.reversed(
    tx,
    saleIdOf(charge),
    'chargeback',
    charge.disputedAmountCents,
    DISPUTE_REASONS.opened,
  );
}

/** A dispute won: the receipt records the amount put back (a negative chargeback); the sale was never cancelled. */
export async function saleChargeReinstated(tx: Queryable, deps: SaleDeps, charge: Charge): Promise<void> {
  await deps.saleLedger.reversed(tx, saleIdOf(charge), 'chargeback', -charge.disputedAmountCents, DISPUTE_REASONS.won);
}
