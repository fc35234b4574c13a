import { sql } from 'drizzle-orm';

import type { Queryable } from '../../../db/client.js';
import { findChargeRow } from '../../../payments/charges.js';
import type { Charge, RefundMove } from '../../../payments/provider.js';
import { requestOperatorRefund } from '../../../payments/refunds.js';
import { type LockedSale, lockSale, type SaleRow } from '../sql.js';
import { cancelByPartner, expireSale, purchaseCancelled, type SaleDeps } from '../state/sale-flow.js';
import { transition } from '../state/sale-states.js';
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
 * `refund`: its paid charges refunded, then cancelled; `chargeback`: the paid card charge
 * contested; `cancel-by-partner` and `expire`: an open sale closed without event.
 */
const REVERSAL_REASONS = {
  cancel: 'Cancelled at the request of the buyer or the partner',
  refund: 'Cancelled with the payments refunded',
  chargeback: 'Card payment contested by the cardholder',
} as const;

/**
 * Applies an operator's action to the sale its adapter (sandbox route, CLI) locked
 * (`withLockedSale`). A refund is asked of the provider here and nothing else: the sale is
 * cancelled and its receipt records the money once the provider says each refund succeeded
 * (`saleChargeRefunded`, `saleChargeReversed`).
 */
export async function operateSale(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  action: OperatorAction,
): Promise<SaleRow> {
  const saleId = sale.id;
  if (action === 'cancel-by-partner') return (await cancelByPartner(tx, deps, sale)).sale;
  if (action === 'expire') return (await expireSale(tx, deps, sale)).sale;
  const provider = deps.payments;
  const paid = (await provider.listCharges(tx, saleReference(saleId))).filter((c) => c.status === 'PAID');
  if (action === 'refund') {
    // A sale that cannot be cancelled is refused before any money is asked back.
    transition(saleId, stateOf(sale), 'canceled');
    for (const charge of paid) await provider.reverse(tx, charge.id, 'REFUNDED');
    return sale;
  }
  // The move first: a sale that cannot be cancelled is refused before anything is recorded.
  const cancelled = (await purchaseCancelled(tx, deps, sale)).sale;
  if (action === 'cancel') {
    await deps.saleLedger.reversed(tx, saleId, 'cancellation', 0, REVERSAL_REASONS.cancel);
    return cancelled;
  }
  const cards = paid.filter((c) => c.method === 'CARD' && !c.unappliedReason);
  if (cards.length === 0) throw new NotCardPaid(saleId);
  for (const charge of cards) {
    // The sandbox is the card network here: the chargeback is final at once.
    const lost = await provider.reverse(tx, charge.id, 'CHARGED_BACK');
    await deps.saleLedger.tookBack(tx, saleId, {
      kind: 'chargeback',
      cause: `chargeback:${charge.id}`,
      amountCents: charge.paidAmountCents ?? charge.amountCents,
      reason: REVERSAL_REASONS.chargeback,
      chargeId: charge.id,
      disputeRef: lost.disputeRef,
    });
  }
  return cancelled;
}

/** A refund of a confirmed sale's payment succeeded, in full or in part: the receipt records the money that went back. */
export async function saleChargeRefunded(tx: Queryable, deps: SaleDeps, charge: Charge, refund: RefundMove) {
  if (refund.reason === 'OVERPAYMENT' || refund.reason === 'UNAPPLIED') return;
  await deps.saleLedger.tookBack(tx, saleIdOf(charge), {
    kind: 'refund',
    cause: `refund:${refund.id}`,
    amountCents: refund.amountCents,
    reason: REVERSAL_REASONS.refund,
    chargeId: charge.id,
    refundId: refund.id,
  });
}

/** How many refunds of one charge may fail before the operator has to look at it (`payment:refunds`). (Default: 3) */
export const REFUND_ATTEMPTS = 3;

/**
 * A refund that had succeeded failed (the buyer's bank sent it back): the money is back, shown on
 * the receipt, and the refund is asked again, up to `REFUND_ATTEMPTS` failures; after those it
 * waits for the operator, listed by `payment:refunds`.
 */
export async function saleChargeRefundFailed(tx: Queryable, deps: SaleDeps, charge: Charge, refund: RefundMove) {
  await deps.saleLedger.gaveBack(tx, saleIdOf(charge), {
    undoes: `refund:${refund.id}`,
    cause: `refund-failed:${refund.id}`,
    reason: 'Reembolso recusado pelo banco do comprador: valor de volta, pedido de novo',
    chargeId: charge.id,
    refundId: refund.id,
  });
  if (refund.reason !== 'OPERATOR' || (await failedRefunds(tx, charge.id)) >= REFUND_ATTEMPTS) return;
  const row = await findChargeRow(tx, charge.id, true);
  if (row?.status === 'PAID') await requestOperatorRefund(tx, row, refund.amountCents, deps.clock.now());
}

const failedRefunds = async (tx: Queryable, chargeId: string) => {
  const [row] = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from payment_refunds where charge_id = ${chargeId}::uuid and status = 'FAILED'`,
  );
  return row?.n ?? 0;
};

/**
 * The provider reports the payment of a confirmed sale refunded in full or a dispute of it lost:
 * the sale is cancelled with `purchaseCancelled`, once, in the transaction of the charge's move.
 * The money was recorded as it moved (`saleChargeRefunded`, `saleChargeDisputed`). A sale no
 * longer confirmed (cancelled already) changes nothing.
 */
export async function saleChargeReversed(tx: Queryable, deps: SaleDeps, charge: Charge): Promise<void> {
  const sale = await lockSale(tx, saleIdOf(charge));
  if (!sale || stateOf(sale) !== 'made_effective') return;
  await purchaseCancelled(tx, deps, sale);
  await deps.saleLedger.cancelled(tx, sale.id);
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
  await deps.saleLedger.tookBack(tx, saleIdOf(charge), {
    kind: 'chargeback',
    cause: `dispute:${charge.disputeRef ?? charge.id}`,
    amountCents: charge.disputedAmountCents,
    reason: DISPUTE_REASONS.opened,
    chargeId: charge.id,
    disputeRef: charge.disputeRef,
  });
}

/** A dispute won, in full or in part: the receipt records the amount put back; the sale was never cancelled. */
export async function saleChargeReinstated(tx: Queryable, deps: SaleDeps, charge: Charge, amountCents: number) {
  await deps.saleLedger.gaveBack(tx, saleIdOf(charge), {
    undoes: `dispute:${charge.disputeRef ?? charge.id}`,
    cause: `dispute-reinstated:${charge.disputeRef ?? charge.id}`,
    amountCents,
    reason: DISPUTE_REASONS.won,
    chargeId: charge.id,
    disputeRef: charge.disputeRef,
  });
}
