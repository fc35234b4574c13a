import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';

import type { Clock } from '../../core/clock.js';
import { localDate } from '../../core/local-date.js';
import { parseCents } from '../../core/money.js';
import type { Queryable } from '../../db/client.js';
import { installmentPayments, installments } from '../../db/schema/index.js';
import type { LedgerEntry } from '../../ledger/book.js';
import type { Charge, ChargeListener } from '../../payments/provider.js';
import { requestRefund } from '../../payments/refunds.js';
import { settleByStandingPayments } from '../books/standing.js';
import { type GiveBack, giveBack, type TakeBack, takeBack } from '../books/take-back.js';
import { moneyCameBack, moneyTakenBack } from '../events/money-moves.js';
import type { EventOptions } from '../events/store.js';

/**
 * Platform payments of installments taken back by the payment provider, and money that comes
 * back. A refund (in full or in part) or a dispute's withdrawal (for the disputed amount) is a
 * record of its own in the books, in the open month, taken from the next transfer; the payment's
 * own records stay as they were. The installment is settled again by what its payments still
 * hold: it owes again what went back. A dispute won, or a refund that failed, gives the money
 * back the same way; money that comes back to an installment that cannot take it (paid again
 * meanwhile, cancelled) goes back to the payer by a refund.
 */

type MoneyListener = Required<
  Pick<ChargeListener, 'refunded' | 'refundFailed' | 'disputed' | 'reinstated' | 'reversed'>
>;

async function lockedInstallment(db: Queryable, charge: Charge) {
  const [installment] = await db
    .select()
    .from(installments)
    .where(eq(installments.id, charge.reference.id))
    .for('update');
  const [payment] = await db.select().from(installmentPayments).where(eq(installmentPayments.chargeId, charge.id));
  return installment && payment ? { installment, payment } : undefined;
}

/** Kept by the installment: what would settle more than it owes (or a debt that ended) is not. */
function unapplicable(installment: typeof installments.$inferSelect, back: readonly LedgerEntry[]): number {
  const cameBack = back.reduce((sum, e) => sum + e.amountCents, 0);
  if (installment.status === 'CANCELADO_IES' || installment.paymentType === 'Pago na IES') return cameBack;
  const principal = back.reduce((sum, e) => sum + e.principalCents, 0);
  return Math.min(cameBack, Math.max(0, principal - (parseCents(installment.balance) ?? 0)));
}

export function installmentMoneyListener(clock: Clock, logger: Logger, events: EventOptions = {}): MoneyListener {
  const take = async (db: Queryable, charge: Charge, back: TakeBack) => {
    const found = await lockedInstallment(db, charge);
    if (!found) return;
    const today = localDate(clock.now());
    const entries = await takeBack(db, found.payment.id, back, today);
    if (entries.length === 0) return; // taken before: this move was applied already
    await settleByStandingPayments(db, found.installment.id, clock.now());
    await moneyTakenBack(db, found.payment, charge, back.kind, entries, clock.now(), events);
  };
  const give = async (db: Queryable, charge: Charge, back: GiveBack) => {
    const found = await lockedInstallment(db, charge);
    if (!found) return;
    const entries = await giveBack(db, found.payment.id, back, localDate(clock.now()));
    if (entries.length === 0) return;
    const excess = unapplicable(found.installment, entries);
    await settleByStandingPayments(db, found.installment.id, clock.now());
    await moneyCameBack(db, found.payment, charge, entries, clock.now(), events);
    if (excess > 0) {
      logger.warn(
        { chargeId: charge.id, excess },
        'money came back to an installment that cannot take it: refunding it',
      );
      await requestRefund(db, charge, 'UNAPPLIED', excess, clock.now());
    }
  };
  return {
    async refunded(db, charge, refund) {
      // What was above the debt was never the installment's; a payment kept unapplied never reaches here.
      if (refund.reason === 'OVERPAYMENT') return;
      await take(db, charge, {
        kind: 'REFUND',
        cause: `refund:${refund.id}`,
        amountCents: refund.amountCents,
        refundId: refund.id,
      });
    },
    async refundFailed(db, charge, refund) {
      if (refund.reason === 'OVERPAYMENT') return;
      await give(db, charge, { undoes: `refund:${refund.id}`, cause: `refund-failed:${refund.id}` });
    },
    async disputed(db, charge) {
      if (!charge.disputeRef || charge.disputedAmountCents <= 0) return;
      await take(db, charge, {
        kind: 'DISPUTE',
        cause: `dispute:${charge.disputeRef}`,
        amountCents: charge.disputedAmountCents,
        disputeRef: charge.disputeRef,
      });
    },
    async reinstated(db, charge, amountCents) {
      if (!charge.disputeRef) return;
      await give(db, charge, {
        undoes: `dispute:${charge.disputeRef}`,
        cause: `dispute-reinstated:${charge.disputeRef}`,
        amountCents,
      });
    },
    async reversed(db, charge) {
      // The money moved already (`refunded`, `disputed`); a dispute lost only names the payment's end.
      if (charge.status !== 'CHARGED_BACK') return;
      await db
        .update(installmentPayments)
        .set({ reversal: 'CHARGED_BACK' })
        .where(eq(installmentPayments.chargeId, charge.id));
    },
  };
}
