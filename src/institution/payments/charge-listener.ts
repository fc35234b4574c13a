import { eq, sql } from 'drizzle-orm';

import type { Clock } from '../../core/clock.js';
import { ApiError } from '../../core/errors.js';
import { localDate } from '../../core/local-date.js';
import { formatCents, parseCents } from '../../core/money.js';
import type { Queryable } from '../../db/client.js';
import { installmentPayments, installments } from '../../db/schema/index.js';
import type { Charge, ChargeListener } from '../../payments/provider.js';
import { bookDueRecords } from '../books/payments.js';
import { paymentApplied } from '../events/happenings.js';
import type { EventOptions } from '../events/store.js';
import { allocate, type Debt, type OnTimeDiscount } from './late-charges.js';

export type Installment = typeof installments.$inferSelect;

const label = (i: Installment) => i.externalId ?? i.id;

export class InstallmentCancelled extends ApiError {
  constructor(installment: Installment) {
    super(400, 'LINK-003', `Installment ${label(installment)} was cancelled by the institution and cannot be paid`);
  }
}

export class InstallmentAlreadyPaid extends ApiError {
  constructor(installment: Installment) {
    super(400, 'LINK-004', `Installment ${label(installment)} is already paid`);
  }
}

/** Refuses an installment that can no longer take a payment. */
export function assertPayable(installment: Installment): void {
  if (installment.status === 'CANCELADO_IES') throw new InstallmentCancelled(installment);
  if (installment.status === 'PAGO') throw new InstallmentAlreadyPaid(installment);
}

const cents = (decimal: string) => parseCents(decimal) ?? 0;

const laterOf = (a: string, b: string | null) => (b && b > a ? b : a);

/** What is owed, as the settlement rules need it. */
export function debtOf(installment: Installment): Debt {
  const platformPayment = installment.paidOnPlatform && installment.paidOn !== null;
  return {
    principalCents: cents(installment.principal),
    balanceCents: cents(installment.balance),
    dueDate: installment.dueDate,
    discounts: installment.onTimeDiscounts as OnTimeDiscount[],
    finePaid: platformPayment && cents(installment.settledFine) > 0,
    interestFrom: platformPayment
      ? laterOf(installment.paidOn!, installment.interestSettledThrough)
      : installment.dueDate,
  };
}

/**
 * The day a payment counts as made: when the provider reports it, but never after the day its
 * charge was priced for — a bank slip paid on its due date and confirmed by the bank the next
 * morning was paid on time.
 */
const paidOnOf = (charge: Charge, clock: Clock): string => {
  const reported = localDate(charge.paidAt ?? clock.now());
  return reported < charge.pricedFor ? reported : charge.pricedFor;
};

/**
 * Settles an installment with a paid charge, in the charge's transaction: the payment splits into
 * principal, fine, interest and discount (see `allocate`) as of the day the charge was priced for,
 * whenever it was confirmed; is recorded once per charge, and booked on the day the provider says
 * the money arrived (a card in installments, one record a month as the acquirer pays); and moves
 * the installment to PAGO or PARCIALMENTE_PAGO, `Pago na Plataforma`, told to the institution by an
 * event. What it brought beyond the debt is not kept: the payments room refunds it.
 */
export const settleInstallmentCharge =
  (clock: Clock, events: EventOptions = {}): ChargeListener['paid'] =>
  async (db: Queryable, charge: Charge) => {
    const [installment] = await db
      .select()
      .from(installments)
      .where(eq(installments.id, charge.reference.id))
      .for('update');
    if (!installment)
      throw new Error(`charge ${charge.id} pays installment ${charge.reference.id}, which does not exist`);
    assertPayable(installment);
    const paidOn = paidOnOf(charge, clock);
    const split = allocate(debtOf(installment), charge.pricedFor, charge.paidAmountCents ?? charge.amountCents);
    const recorded = await db
      .insert(installmentPayments)
      .values({
        installmentId: installment.id,
        chargeId: charge.id,
        method: charge.method,
        paidOn,
        received: formatCents(split.received),
        principal: formatCents(split.principal),
        fine: formatCents(split.fine),
        interest: formatCents(split.interest),
        discount: formatCents(split.discount),
        receivedOn: localDate(charge.paidAt ?? clock.now()),
        records: charge.method === 'CARD' ? Math.max(1, charge.card?.installments ?? 1) : 1,
        settledInFull: split.remaining === 0,
        createdAt: clock.now(),
      })
      .onConflictDoNothing({ target: installmentPayments.chargeId })
      .returning();
    if (recorded.length === 0) return undefined; // this charge was settled already
    await db
      .update(installments)
      .set({
        status: split.remaining === 0 ? 'PAGO' : 'PARCIALMENTE_PAGO',
        paymentType: 'Pago na Plataforma',
        paidOn,
        balance: formatCents(split.remaining),
        settledFine: sql`${installments.settledFine} + ${formatCents(split.fine)}::numeric`,
        settledInterest: sql`${installments.settledInterest} + ${formatCents(split.interest)}::numeric`,
        settledDiscount: sql`${installments.settledDiscount} + ${formatCents(split.discount)}::numeric`,
        settledReceived: sql`${installments.settledReceived} + ${formatCents(split.received)}::numeric`,
        paidOnPlatform: true,
        interestSettledThrough: charge.pricedFor,
        updatedAt: clock.now(),
      })
      .where(eq(installments.id, installment.id));
    await bookDueRecords(db, recorded[0]!.id, localDate(clock.now()));
    await paymentApplied(db, installment, recorded[0]!, charge, clock.now(), events);
    return { keptCents: split.received };
  };
