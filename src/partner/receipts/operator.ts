import { and, eq, isNull, sql } from 'drizzle-orm';

import type { AppContext } from '../../context.js';
import { isCalendarDate } from '../../core/dates.js';
import { ApiError } from '../../core/errors.js';
import type { Queryable } from '../../db/client.js';
import {
  partnerCommissions,
  partners,
  receiptInstallments,
  receiptPayments,
  receipts,
  receiptTransfers,
  sales,
} from '../../db/schema/index.js';
import { recordPayment } from './ledger.js';
import {
  BadLedgerDate,
  CommissionOutOfRange,
  InstallmentAlreadyPaid,
  InstallmentNotFound,
  InstallmentRenegotiated,
  NoTransferDue,
  ReceiptCancelled,
  ReceiptNotFound,
} from './receipts.rules.js';
import { refreshReceiptSummary } from './summaries.js';

/** What the operator does to receipts (sandbox API and CLI), as the bank or the finance team would report it. */

export class PartnerNotFound extends ApiError {
  constructor() {
    super(400, 'RECEIPT-008', 'Partner not found');
  }
}

const PAYMENT_METHODS = ['pix', 'bankSlip', 'creditCard', 'creditAsAService'];

function checkDate(field: string, value: unknown): string {
  if (typeof value !== 'string' || !isCalendarDate(value)) throw new BadLedgerDate(field);
  return value;
}

/** Sets a partner's commission percentage for a product type; later confirmations copy it. */
export async function setCommission(db: Queryable, partnerId: unknown, productType: unknown, percentage: unknown) {
  if (typeof partnerId !== 'string' || !/^[0-9a-f-]{36}$/i.test(partnerId)) throw new PartnerNotFound();
  if (typeof productType !== 'string' || !productType.trim())
    throw new ApiError(400, 'RECEIPT-009', 'productType must be a non-empty string');
  if (!Number.isInteger(percentage) || (percentage as number) < 0 || (percentage as number) > 100)
    throw new CommissionOutOfRange(percentage);
  const [partner] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId));
  if (!partner) throw new PartnerNotFound();
  const values = { partnerId, productType: productType.trim(), percentage: percentage as number };
  await db
    .insert(partnerCommissions)
    .values(values)
    .onConflictDoUpdate({
      target: [partnerCommissions.partnerId, partnerCommissions.productType],
      set: { percentage: values.percentage },
    });
  return values;
}

/** The receipt, locked for a ledger write, with its sale's status. */
export async function lockReceipt(tx: Queryable, saleId: number) {
  const [receipt] = await tx
    .select({
      status: sales.status,
      saleId: receipts.saleId,
      partnerId: receipts.partnerId,
      commissionPercentage: receipts.commissionPercentage,
    })
    .from(receipts)
    .innerJoin(sales, eq(sales.id, receipts.saleId))
    .where(eq(receipts.saleId, saleId))
    .for('update');
  if (!receipt) throw new ReceiptNotFound();
  return receipt;
}

async function lockInstallment(tx: Queryable, saleId: number, number: number) {
  const receipt = await lockReceipt(tx, saleId);
  const [installment] = await tx
    .select()
    .from(receiptInstallments)
    .where(and(eq(receiptInstallments.saleId, saleId), eq(receiptInstallments.number, number)));
  if (!installment) throw new InstallmentNotFound(saleId, number);
  return { receipt, installment };
}

/** The buyer paid what is left of an installment on `paidOn` (late when after its due date). */
export async function payInstallment(
  ctx: AppContext,
  saleId: number,
  number: number,
  paidOn: unknown,
  method: unknown = 'bankSlip',
) {
  const day = checkDate('paidOn', paidOn);
  if (typeof method !== 'string' || !PAYMENT_METHODS.includes(method))
    throw new ApiError(400, 'RECEIPT-010', `method must be one of ${PAYMENT_METHODS.join(', ')}`);
  return ctx.db.transaction(async (tx) => {
    const { receipt, installment } = await lockInstallment(tx, saleId, number);
    if (receipt.status === 'canceled') throw new ReceiptCancelled(saleId);
    if (installment.kind !== 'installment') throw new InstallmentNotFound(saleId, number);
    if (installment.replacedOn) throw new InstallmentRenegotiated(saleId, number);
    const [{ paid } = { paid: '0' }] = await tx
      .select({ paid: sql<string>`coalesce(sum(${receiptPayments.valueCents}), 0)` })
      .from(receiptPayments)
      .where(eq(receiptPayments.installmentId, installment.id));
    const left = installment.valueCents - Number(paid);
    if (left <= 0) throw new InstallmentAlreadyPaid(saleId, number);
    await recordPayment(tx, receipt, installment, day, left, method);
    await refreshReceiptSummary(tx, saleId);
    return { saleId, number, paidOn: day, valueCents: left, method };
  });
}

/**
 * The TED of a paid installment's share (or of a line of money taken back or given back) reached
 * the partner on `madeOn`, with what that TED nets of the receipt's money taken back.
 */
export async function markTransferMade(ctx: AppContext, saleId: number, number: number, madeOn: unknown) {
  const day = checkDate('madeOn', madeOn);
  return ctx.db.transaction(async (tx) => {
    const { installment } = await lockInstallment(tx, saleId, number);
    const [made] = await tx
      .update(receiptTransfers)
      .set({ madeOn: day })
      .where(and(eq(receiptTransfers.installmentId, installment.id), isNull(receiptTransfers.madeOn)))
      .returning();
    if (!made) throw new NoTransferDue(saleId, number);
    // What the TED of that day nets of the receipt's money taken back (or given back) goes with it.
    await tx.execute(sql`
      update receipt_transfers t set made_on = ${day}::date
        from receipt_installments i
       where i.id = t.installment_id and i.sale_id = ${saleId} and i.kind <> 'installment'
         and t.expected_on = ${made.expectedOn}::date and t.made_on is null`);
    await refreshReceiptSummary(tx, saleId);
    return { saleId, number, expectedOn: made.expectedOn, madeOn: day, method: made.method };
  });
}

/** The course of a receipt was released to the student on `releasedOn`. */
export async function releaseCourse(ctx: AppContext, saleId: number, releasedOn: unknown) {
  const day = checkDate('releasedOn', releasedOn);
  const [receipt] = await ctx.db.select({ saleId: receipts.saleId }).from(receipts).where(eq(receipts.saleId, saleId));
  if (!receipt) throw new ReceiptNotFound();
  await ctx.db.update(sales).set({ releasedOn: day }).where(eq(sales.id, saleId));
  return { saleId, releasedOn: day };
}
