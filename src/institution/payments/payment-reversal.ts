import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';

import type { Clock } from '../../core/clock.js';
import type { Queryable } from '../../db/client.js';
import { installmentPayments, installments } from '../../db/schema/index.js';
import type { Charge, ChargeListener } from '../../payments/provider.js';
import { paymentReversed } from '../events/happenings.js';
import type { EventOptions } from '../events/store.js';

/**
 * A platform payment taken back from the institution: refunded in full, or disputed by the payer
 * (the funds withdrawn while the dispute lasts, for good once lost). The payment stays recorded,
 * marked reversed; the installment is settled again by the payments still standing, so it reopens
 * (ABERTO or PARCIALMENTE_PAGO, owing what the reversal took back) and the management statement no
 * longer counts it. A dispute won stands the payment again.
 */

export type Reversal = 'REFUNDED' | 'DISPUTED' | 'CHARGED_BACK';

const reversalOf = (charge: Charge): Reversal =>
  charge.status === 'REFUNDED' ? 'REFUNDED' : charge.status === 'CHARGED_BACK' ? 'CHARGED_BACK' : 'DISPUTED';

/** Settles the installment by its standing payments: balance, settled parts, state, last payment day. */
async function settleByStandingPayments(db: Queryable, installmentId: string, now: Date): Promise<void> {
  await db.execute(sql`
    update installments i set
      balance = i.principal - s.principal,
      settled_fine = s.fine, settled_interest = s.interest, settled_discount = s.discount, settled_received = s.received,
      status = case when s.principal >= i.principal then 'PAGO' when s.n > 0 then 'PARCIALMENTE_PAGO' else 'ABERTO' end,
      payment_type = case when s.n > 0 then 'Pago na Plataforma' end,
      paid_on = s.paid_on,
      interest_settled_through = s.priced_for,
      paid_on_platform = s.n > 0,
      updated_at = ${now.toISOString()}::timestamptz
    from (
      select count(p.id)::int as n, coalesce(sum(p.principal), 0) as principal, coalesce(sum(p.fine), 0) as fine,
             coalesce(sum(p.interest), 0) as interest, coalesce(sum(p.discount), 0) as discount,
             coalesce(sum(p.received), 0) as received, max(p.paid_on) as paid_on, max(c.priced_for) as priced_for
        from installment_payments p join payment_charges c on c.id = p.charge_id
       where p.installment_id = ${installmentId}::uuid and p.reversed_at is null
    ) s
    where i.id = ${installmentId}::uuid`);
}

async function lockInstallment(db: Queryable, id: string) {
  await db.select({ id: installments.id }).from(installments).where(eq(installments.id, id)).for('update');
}

/** A refund in full, a dispute opened, a dispute lost: the payment of this charge no longer settles its installment. */
export const reverseInstallmentPayment =
  (clock: Clock, events: EventOptions = {}): NonNullable<ChargeListener['reversed']> =>
  async (db, charge) => {
    await lockInstallment(db, charge.reference.id);
    const reversal = reversalOf(charge);
    // A dispute lost after it was opened keeps the instant the funds went.
    const marked = await db
      .update(installmentPayments)
      .set({
        reversal,
        reversedAt: sql`coalesce(${installmentPayments.reversedAt}, ${clock.now().toISOString()}::timestamptz)`,
      })
      .where(eq(installmentPayments.chargeId, charge.id))
      .returning();
    if (marked.length === 0) return; // never applied to the installment
    await settleByStandingPayments(db, charge.reference.id, clock.now());
    await paymentReversed(db, marked[0]!, charge, reversal, clock.now(), events);
  };

/**
 * A dispute won: the payment stands again, unless the installment was paid again while the funds
 * were away — then it stays reversed and the operator refunds it (said in the log).
 */
export const reinstateInstallmentPayment =
  (clock: Clock, logger: Logger, events: EventOptions = {}): NonNullable<ChargeListener['reinstated']> =>
  async (db, charge) => {
    const installmentId = charge.reference.id;
    await lockInstallment(db, installmentId);
    const [payment] = await db.select().from(installmentPayments).where(eq(installmentPayments.chargeId, charge.id));
    const [installment] = await db.select().from(installments).where(eq(installments.id, installmentId));
    if (!payment?.reversedAt || !installment) return;
    if (Number(payment.principal) > Number(installment.balance)) {
      logger.error(
        { chargeId: charge.id, installmentId },
        'dispute won, but the installment was paid again meanwhile: the payment stays reversed; refund it',
      );
      return;
    }
    await db
      .update(installmentPayments)
      .set({ reversal: null, reversedAt: null })
      .where(eq(installmentPayments.chargeId, charge.id));
    await settleByStandingPayments(db, installmentId, clock.now());
    await paymentReversed(db, payment, charge, 'REINSTATED', clock.now(), events);
  };
