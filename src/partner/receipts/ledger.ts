import { and, eq, sql } from 'drizzle-orm';

import type { Clock } from '../../core/clock.js';
import { localDate } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import {
  partnerCommissions,
  receiptAdjustments,
  receiptInstallments,
  receiptPayments,
  receipts,
  receiptTransfers,
} from '../../db/schema/index.js';
import { book } from '../../ledger/book.js';
import { FINANCING_METHOD, type WebhookPayment } from '../sales/events/event-payloads.js';
import { saleFinancing } from '../sales/financing.js';
import type { SaleRow } from '../sales/sql.js';
import type { ReversalKind } from '../sales/state/sale-ledger.js';
import {
  addMonths,
  commissionOf,
  DEFAULT_COMMISSION_PERCENTAGE,
  expectedCompensation,
  expectedTransfer,
  splitEvenly,
} from './receipts.rules.js';
import { refreshReceiptSummary } from './summaries.js';

/**
 * Writes of the receipts ledger. Each runs inside the caller's transaction: the sale transition
 * that causes it (confirmation, cancellation, chargeback) or the operator action.
 */

interface PlannedInstallment {
  number: number;
  valueCents: number;
  dueOn: string;
  /** Paid at once, when the payment that confirmed the sale covers it. */
  paidBy?: string;
}

/** The buyer's installments of a sale confirmed today. */
function planInstallments(sale: SaleRow, today: string): PlannedInstallment[] {
  const method = sale.paymentMethod ?? 'pix';
  if (method === FINANCING_METHOD) {
    const offer = saleFinancing(sale);
    // The entry invoice is only ever generated for a sale with an offer.
    if (!offer) throw new Error(`sale ${sale.id} was confirmed by a financing it has no offer for`);
    const entry = { number: 0, valueCents: offer.upfrontCents, dueOn: today, paidBy: 'bankSlip' };
    return [
      entry,
      ...Array.from({ length: offer.installments }, (_, i) => ({
        number: i + 1,
        valueCents: offer.pmtCents,
        dueOn: addMonths(today, i + 1),
      })),
    ];
  }
  if (method === 'creditCard') {
    const n = Math.max(1, (sale.payment as WebhookPayment | null)?.creditCard?.numberOfInstallments ?? 1);
    // The whole card charge is captured now; the acquirer pays one installment a month.
    return splitEvenly(sale.checkoutPriceInCents, n).map((valueCents, i) => ({
      number: i + 1,
      valueCents,
      dueOn: addMonths(today, i),
      paidBy: 'creditCard',
    }));
  }
  return [{ number: 1, valueCents: sale.checkoutPriceInCents, dueOn: today, paidBy: method }];
}

/** The partner's commission percentage for a product type: its contract, or the default. */
export async function commissionPercentage(db: Queryable, partnerId: string, productType: string): Promise<number> {
  const [row] = await db
    .select({ percentage: partnerCommissions.percentage })
    .from(partnerCommissions)
    .where(and(eq(partnerCommissions.partnerId, partnerId), eq(partnerCommissions.productType, productType)));
  return row?.percentage ?? DEFAULT_COMMISSION_PERCENTAGE;
}

/** The receipt a payment is booked for: whose it is and the commission it was made effective with. */
export interface ReceiptTerms {
  saleId: number;
  partnerId: string;
  commissionPercentage: number;
}

/**
 * Records a payment of an installment, and books it (`PAYMENT`: the partner's share, less the
 * commission, in the TED it is expected in); a payment that completes it schedules its transfer.
 */
export async function recordPayment(
  tx: Queryable,
  receipt: ReceiptTerms,
  installment: { id: number; dueOn: string; valueCents: number },
  paidOn: string,
  valueCents: number,
  method: string,
  /** The provider's charge that brought the money; none for a payment the operator recorded. */
  chargeId: string | null = null,
): Promise<void> {
  const compensation = expectedCompensation(method, paidOn, installment.dueOn);
  const [payment] = await tx
    .insert(receiptPayments)
    .values({ installmentId: installment.id, paidOn, valueCents, method, expectedCompensationOn: compensation })
    .returning({ id: receiptPayments.id });
  const commission = commissionOf(valueCents, receipt.commissionPercentage);
  await book(tx, [
    {
      tenantKind: 'partner',
      tenantId: receipt.partnerId,
      kind: 'PAYMENT',
      recordId: `receipt-payment:${payment!.id}`,
      amountCents: valueCents,
      principalCents: valueCents,
      commissionCents: commission,
      netCents: valueCents - commission,
      movedOn: paidOn,
      transferOn: expectedTransfer(compensation),
      commissionPercent: String(receipt.commissionPercentage),
      cause: `receipt-payment:${payment!.id}`,
      saleId: receipt.saleId,
      chargeId,
    },
  ]);
  const [{ paid } = { paid: 0 }] = await tx
    .select({ paid: sql<string>`coalesce(sum(${receiptPayments.valueCents}), 0)` })
    .from(receiptPayments)
    .where(eq(receiptPayments.installmentId, installment.id));
  if (Number(paid) >= installment.valueCents) {
    await tx
      .insert(receiptTransfers)
      .values({ installmentId: installment.id, expectedOn: expectedTransfer(compensation) })
      .onConflictDoNothing();
  }
}

/**
 * Opens the receipt of a sale just made effective: the commission copied from the contract, the
 * buyer's installments, and the payment that confirmed the sale.
 */
export async function openReceipt(tx: Queryable, clock: Clock, sale: SaleRow): Promise<void> {
  const today = localDate(sale.madeEffectiveAt ?? clock.now());
  const plan = planInstallments(sale, today);
  const terms: ReceiptTerms = {
    saleId: sale.id,
    partnerId: sale.partnerId,
    commissionPercentage: await commissionPercentage(tx, sale.partnerId, sale.productType),
  };
  await tx.insert(receipts).values({
    ...terms,
    madeEffectiveOn: today,
    hasUpfront: plan.some((i) => i.number === 0),
    financedInstallments: sale.paymentMethod === FINANCING_METHOD ? plan.length - 1 : 0,
  });
  // The charge that confirmed the sale (none for a sale confirmed without one, in the sandbox's steps).
  const [paid] = await tx.execute<{ id: string }>(sql`
    select id::text from payment_charges
     where sale_id = ${sale.id} and status = 'PAID' and unapplied_reason is null
     order by paid_at desc nulls last limit 1`);
  const rows = await tx
    .insert(receiptInstallments)
    .values(plan.map((i) => ({ saleId: sale.id, number: i.number, valueCents: i.valueCents, dueOn: i.dueOn })))
    .returning();
  for (const row of rows) {
    const paidBy = plan.find((i) => i.number === row.number)?.paidBy;
    if (paidBy) await recordPayment(tx, terms, row, today, row.valueCents, paidBy, paid?.id ?? null);
  }
  await refreshReceiptSummary(tx, sale.id);
}

/** A chargeback or cancellation of a receipt, with the amount reversed to the buyer. */
export async function recordReversal(
  tx: Queryable,
  clock: Clock,
  saleId: number,
  kind: ReversalKind,
  valueCents: number,
  reason: string | null,
): Promise<void> {
  const [receipt] = await tx.select({ saleId: receipts.saleId }).from(receipts).where(eq(receipts.saleId, saleId));
  // Sales confirmed before the ledger existed have no receipt to adjust.
  if (!receipt) return;
  await tx.insert(receiptAdjustments).values({ saleId, kind, occurredOn: localDate(clock.now()), valueCents, reason });
  await refreshReceiptSummary(tx, saleId);
}
