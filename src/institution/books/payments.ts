import { and, asc, eq, sql } from 'drizzle-orm';

import { parseCents } from '../../core/money.js';
import type { Queryable } from '../../db/client.js';
import { installmentPayments, installments, ledgerEntries } from '../../db/schema/index.js';
import { book, type LedgerEntry } from '../../ledger/book.js';
import { add, type Amounts, ZERO } from '../../ledger/shares.js';
import { type PlannedRecord, plannedRecords } from './payment-records.js';
import {
  amountsOf,
  installmentEntry,
  isManaged,
  MEANS,
  paymentRecordId,
  type RecordContext,
  transferDay,
} from './records.js';
import { termsOn } from './terms.js';

export type InstallmentRow = typeof installments.$inferSelect;
export type PaymentRow = typeof installmentPayments.$inferSelect;

const cents = (decimal: string) => parseCents(decimal) ?? 0;

/** The payment's records as planned when it was made, card installments not yet paid included. */
export function recordsOf(payment: PaymentRow, context: RecordContext): PlannedRecord[] {
  return plannedRecords(
    {
      received: cents(payment.received),
      fine: cents(payment.fine),
      interest: cents(payment.interest),
      discount: cents(payment.discount),
    },
    payment.records,
    payment.receivedOn,
    context.terms.commissionPercent,
    isManaged(context.product),
  );
}

/** The context of a payment's records, with the terms frozen when its first record was booked. */
export async function contextOf(
  db: Queryable,
  payment: PaymentRow,
): Promise<{ context: RecordContext; delay: number }> {
  const [installment] = await db.select().from(installments).where(eq(installments.id, payment.installmentId));
  if (!installment) throw new Error(`payment ${payment.id} of a missing installment`);
  const [first] = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.paymentId, payment.id), eq(ledgerEntries.kind, 'PAYMENT')))
    .orderBy(asc(ledgerEntries.id))
    .limit(1);
  const current = await termsOn(db, installment.institutionId, payment.receivedOn);
  const context: RecordContext = {
    institutionId: installment.institutionId,
    installmentId: installment.id,
    product: first?.product ?? installment.product,
    externalId: first?.externalId ?? installment.externalId ?? installment.id,
    dueOn: first?.dueOn ?? installment.dueDate,
    installmentPrincipalCents: first?.installmentPrincipalCents ?? cents(installment.principal),
    paymentId: payment.id,
    chargeId: payment.chargeId,
    means: MEANS[payment.method] ?? payment.method,
    card: payment.method === 'CARD',
    terms: first
      ? {
          commissionPercent: first.commissionPercent ?? current.commissionPercent,
          allocation: first.allocation,
          managementType: first.managementType ?? current.managementType,
        }
      : current,
  };
  return { context, delay: current.transferDelayDays };
}

/** What refunds and disputes cut from each card installment the acquirer had not paid yet, by installment. */
async function cutsOf(db: Queryable, paymentId: string): Promise<Map<number, Amounts>> {
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.paymentId, paymentId), eq(ledgerEntries.kind, 'SCHEDULE_CUT')));
  const cuts = new Map<number, Amounts>();
  for (const r of rows) cuts.set(r.cardInstallment ?? 1, add(cuts.get(r.cardInstallment ?? 1) ?? ZERO, amountsOf(r)));
  return cuts;
}

/**
 * Books the records of a payment that are due by `today` and not booked yet: all of a Pix or a bank
 * slip at once; a card in installments one record a month, on the day the acquirer pays it, less
 * what refunds and disputes cut from it (a record cut whole is never made). The payment's row is
 * locked while its records are counted.
 */
export async function bookDueRecords(db: Queryable, paymentId: string, today: string): Promise<LedgerEntry[]> {
  const [payment] = await db
    .select()
    .from(installmentPayments)
    .where(eq(installmentPayments.id, paymentId))
    .for('update');
  if (!payment || payment.recordsBooked >= payment.records) return [];
  const { context, delay } = await contextOf(db, payment);
  const planned = recordsOf(payment, context);
  const due = planned.filter((r) => r.n > payment.recordsBooked && r.movedOn <= today);
  if (due.length === 0) return [];
  const cuts = await cutsOf(db, payment.id);
  const entries = due.flatMap((r) => {
    const amounts = add(r.amounts, cuts.get(r.n) ?? ZERO);
    if (amounts.amount <= 0) return [];
    return [
      installmentEntry(context, {
        kind: 'PAYMENT',
        recordId: paymentRecordId(payment.id, r.n, r.m),
        movedOn: r.movedOn,
        transferOn: transferDay(r.movedOn, delay, today),
        cause: `payment:${payment.id}`,
        settlement: payment.settledInFull && r.n === r.m ? 'TOTAL' : 'PARCIAL',
        amounts,
        n: r.n,
        m: r.m,
        onStatement: true,
      }),
    ];
  });
  const booked = await book(db, entries);
  await db
    .update(installmentPayments)
    .set({ recordsBooked: due[due.length - 1]!.n })
    .where(eq(installmentPayments.id, payment.id));
  return booked;
}

/** Card installments the acquirer has paid by `today` and the books do not have yet, for at most `limit` payments. */
export async function paymentsWithRecordsDue(db: Queryable, today: string, limit: number, institutionId?: string) {
  const rows = await db.execute<{ id: string }>(sql`
    select p.id::text as id from installment_payments p
     where p.records_booked < p.records and (p.received_on + 30 * p.records_booked) <= ${today}::date
       ${institutionId ? sql`and exists (select 1 from installments i where i.id = p.installment_id and i.institution_id = ${institutionId}::uuid)` : sql``}
     limit ${limit}`);
  return rows.map((r) => r.id);
}

/** Books every card installment due by `today` (of one institution, when given): the daily pass, and before a closing. */
export async function bookAllDueRecords(db: Queryable, today: string, institutionId?: string): Promise<number> {
  let booked = 0;
  for (;;) {
    const ids = await paymentsWithRecordsDue(db, today, 500, institutionId);
    for (const id of ids) booked += (await db.transaction((tx) => bookDueRecords(tx, id, today))).length;
    if (ids.length < 500) return booked;
  }
}
