import { and, asc, eq, isNull, sql } from 'drizzle-orm';

import type { AppContext } from '../../context.js';
import { isCalendarDate } from '../../core/dates.js';
import { receiptInstallments, receiptPayments } from '../../db/schema/index.js';
import { lockReceipt } from './operator.js';
import {
  addMonths,
  BadLedgerDate,
  BadRenegotiation,
  MAX_AGREEMENT_INSTALLMENTS,
  NothingToRenegotiate,
  ReceiptCancelled,
  splitEvenly,
} from './receipts.rules.js';
import { refreshReceiptSummary } from './summaries.js';

/**
 * A renegotiation (agreement) of a buyer's installments on `agreedOn`: every installment still
 * unpaid is replaced (`replacedOn`) by `installments` new ones, numbered after the last, due
 * monthly from `firstDueOn`, splitting what was owed (no interest in the sandbox) and carrying
 * the agreement's date. The receipt's `agreementDate`, the replaced installments' status and the
 * new plan all derive from these rows.
 */
export async function renegotiate(
  ctx: AppContext,
  saleId: number,
  agreedOn: unknown,
  installments: unknown,
  firstDueOn: unknown,
) {
  if (typeof agreedOn !== 'string' || !isCalendarDate(agreedOn)) throw new BadLedgerDate('agreedOn');
  if (typeof firstDueOn !== 'string' || !isCalendarDate(firstDueOn)) throw new BadLedgerDate('firstDueOn');
  if (firstDueOn < agreedOn) throw new BadRenegotiation('firstDueOn must be on or after agreedOn');
  if (
    !Number.isInteger(installments) ||
    (installments as number) < 1 ||
    (installments as number) > MAX_AGREEMENT_INSTALLMENTS
  ) {
    throw new BadRenegotiation(`installments must be a whole number from 1 to ${MAX_AGREEMENT_INSTALLMENTS}`);
  }
  const count = installments as number;
  return ctx.db.transaction(async (tx) => {
    const receipt = await lockReceipt(tx, saleId);
    if (receipt.status === 'canceled') throw new ReceiptCancelled(saleId);
    const lines = await tx
      .select({
        id: receiptInstallments.id,
        number: receiptInstallments.number,
        valueCents: receiptInstallments.valueCents,
        paid: sql<string>`coalesce(sum(${receiptPayments.valueCents}), 0)`,
      })
      .from(receiptInstallments)
      .leftJoin(receiptPayments, eq(receiptPayments.installmentId, receiptInstallments.id))
      .where(
        and(
          eq(receiptInstallments.saleId, saleId),
          eq(receiptInstallments.kind, 'installment'),
          isNull(receiptInstallments.replacedOn),
        ),
      )
      .groupBy(receiptInstallments.id)
      .orderBy(asc(receiptInstallments.number));
    const unpaid = lines.filter((l) => Number(l.paid) < l.valueCents);
    if (unpaid.length === 0) throw new NothingToRenegotiate(saleId);
    const owed = unpaid.reduce((sum, l) => sum + l.valueCents - Number(l.paid), 0);
    // Numbered after every installment the receipt ever had, replaced ones included.
    const [{ last } = { last: 0 }] = await tx
      .select({ last: sql<number>`max(${receiptInstallments.number})::int` })
      .from(receiptInstallments)
      .where(eq(receiptInstallments.saleId, saleId));
    for (const line of unpaid)
      await tx.update(receiptInstallments).set({ replacedOn: agreedOn }).where(eq(receiptInstallments.id, line.id));
    const plan = splitEvenly(owed, count).map((valueCents, i) => ({
      saleId,
      number: last + 1 + i,
      valueCents,
      dueOn: addMonths(firstDueOn, i),
      agreementOn: agreedOn,
    }));
    await tx.insert(receiptInstallments).values(plan);
    await refreshReceiptSummary(tx, saleId);
    return {
      saleId,
      agreedOn,
      replaced: unpaid.map((l) => l.number),
      installments: plan.map(({ number, valueCents, dueOn }) => ({ number, valueCents, dueOn })),
    };
  });
}
