import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';
import { sales } from './sales.js';
import { partners } from './tenants.js';

/**
 * The receipts ledger: the money side of a sale made effective. Only facts are stored (what was
 * due, paid, transferred or reversed); every total, late count and next date is derived in
 * `src/partner/receipts/ledger.sql.ts`.
 */

/** A partner's commission contract: the operator's percentage per product type. */
export const partnerCommissions = pgTable(
  'partner_commissions',
  {
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    productType: text().notNull(),
    percentage: integer().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.productType] }),
    check('partner_commissions_percentage', sql`${t.percentage} between 0 and 100`),
  ],
);

/** One per sale made effective, written in the transaction that confirms it. */
export const receipts = pgTable(
  'receipts',
  {
    saleId: integer()
      .primaryKey()
      .references(() => sales.id),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    /** The commission percentage of the contract when the sale was confirmed (or the default). */
    commissionPercentage: integer().notNull(),
    madeEffectiveOn: date({ mode: 'string' }).notNull(),
    hasUpfront: boolean().notNull(),
    /** Installments of a financing (0 for a sale paid at sight or by card). */
    financedInstallments: integer().notNull(),
  },
  (t) => [index('receipts_partner_effective').on(t.partnerId, t.madeEffectiveOn, t.saleId)],
);

/**
 * The lines of a receipt. `installment`: what the buyer owes, number 0 the upfront (entry), 1..n
 * the installments. Money that went back to the buyer (`refund`, `chargeback`) or came back
 * (`reinstatement`) is a line of its own after them, with a negative (or positive) value, its
 * share of the commission, and the transfer (TED) it is netted in.
 */
export const receiptInstallments = pgTable(
  'receipt_installments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer()
      .notNull()
      .references(() => receipts.saleId),
    number: integer().notNull(),
    /** `installment`, `refund`, `chargeback` or `reinstatement`. */
    kind: text().notNull().default('installment'),
    valueCents: bigint({ mode: 'number' }).notNull(),
    /** The commission the line takes back (or gives back); null: the percentage of what was paid of it. */
    commissionCents: bigint({ mode: 'number' }),
    /** What moved the money of a line that is not an installment: `refund:<id>`, `dispute:<ref>`… */
    cause: text(),
    dueOn: date({ mode: 'string' }).notNull(),
    /** The day of the renegotiation that created this installment. */
    agreementOn: date({ mode: 'string' }),
    /** The day a renegotiation replaced this unpaid installment by new ones. */
    replacedOn: date({ mode: 'string' }),
  },
  (t) => [
    uniqueIndex('receipt_installments_sale_number').on(t.saleId, t.number),
    check('receipt_installments_kind', sql`${t.kind} in ('installment', 'refund', 'chargeback', 'reinstatement')`),
    index('receipt_installments_due').on(t.dueOn, t.saleId),
  ],
);

/** A payment the buyer made on an installment. */
export const receiptPayments = pgTable(
  'receipt_payments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    installmentId: integer()
      .notNull()
      .references(() => receiptInstallments.id),
    paidOn: date({ mode: 'string' }).notNull(),
    valueCents: bigint({ mode: 'number' }).notNull(),
    /** `pix`, `bankSlip`, `creditCard` or `creditAsAService` (the events' payment methods). */
    method: text().notNull(),
    /** When the payment is due to clear, fixed by the method when it is recorded. */
    expectedCompensationOn: date({ mode: 'string' }).notNull(),
    createdAt: timestampNow(),
  },
  (t) => [index('receipt_payments_installment').on(t.installmentId)],
);

/** A transfer (TED) to the partner of the share of one paid installment: expected, then made. */
export const receiptTransfers = pgTable(
  'receipt_transfers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    installmentId: integer()
      .notNull()
      .references(() => receiptInstallments.id),
    expectedOn: date({ mode: 'string' }).notNull(),
    madeOn: date({ mode: 'string' }),
    method: text().notNull().default('TED'),
  },
  (t) => [uniqueIndex('receipt_transfers_installment').on(t.installmentId)],
);

/** A chargeback or a cancellation of a receipt, with the amount reversed. */
export const receiptAdjustments = pgTable(
  'receipt_adjustments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer()
      .notNull()
      .references(() => receipts.saleId),
    kind: text().notNull(),
    occurredOn: date({ mode: 'string' }).notNull(),
    valueCents: bigint({ mode: 'number' }).notNull(),
    reason: text(),
  },
  (t) => [
    index('receipt_adjustments_sale').on(t.saleId, t.kind),
    check('receipt_adjustments_kind', sql`${t.kind} in ('chargeback', 'cancellation')`),
  ],
);

/**
 * Each receipt's numbers that do not move with the clock, as `deriveReceiptSummaries` computes
 * them from the ledger. Written only by `refreshReceiptSummary`, in the transaction of every
 * ledger write, so that the list filters and pages over indexes instead of deriving every receipt
 * of the partner per request. Numbers that move with the clock (late days and installments) are
 * computed when read, from `nextPaymentDate` and `openDueDates`.
 */
export const receiptSummaries = pgTable(
  'receipt_summaries',
  {
    saleId: integer()
      .primaryKey()
      .references(() => receipts.saleId),
    partnerId: uuid().notNull(),
    madeEffectiveOn: date({ mode: 'string' }).notNull(),
    canceled: boolean().notNull(),
    hasChargeback: boolean().notNull(),
    hasCancellation: boolean().notNull(),
    receivedCents: bigint({ mode: 'number' }).notNull(),
    missingCents: bigint({ mode: 'number' }).notNull(),
    expectedTedCents: bigint({ mode: 'number' }).notNull(),
    paidCents: bigint({ mode: 'number' }).notNull(),
    transferDate: date({ mode: 'string' }),
    expectedTransferDate: date({ mode: 'string' }),
    installments: integer().notNull(),
    paidInstallments: integer().notNull(),
    nextPaymentDate: date({ mode: 'string' }),
    nextPaymentInstallmentId: integer(),
    /** Due dates of the installments still to pay, ascending: how many are late is counted when read. */
    openDueDates: date({ mode: 'string' }).array().notNull(),
    installmentValueCents: bigint({ mode: 'number' }),
    agreementDate: date({ mode: 'string' }),
    originalInstallmentValueCents: bigint({ mode: 'number' }),
    originalInstallments: integer(),
    /** What the installments deduct as commission: on each paid one its payment, on each still to pay its value (null until summarised again). */
    commissionCents: bigint({ mode: 'number' }),
  },
  (t) => [
    index('receipt_summaries_partner_effective').on(t.partnerId, t.madeEffectiveOn, t.saleId),
    index('receipt_summaries_partner_canceled').on(t.partnerId, t.canceled, t.madeEffectiveOn, t.saleId),
    index('receipt_summaries_partner_chargebacks')
      .on(t.partnerId, t.madeEffectiveOn, t.saleId)
      .where(sql`${t.hasChargeback}`),
    index('receipt_summaries_partner_cancellations')
      .on(t.partnerId, t.madeEffectiveOn, t.saleId)
      .where(sql`${t.hasCancellation}`),
    index('receipt_summaries_partner_next_payment').on(t.partnerId, t.nextPaymentDate),
    index('receipt_summaries_partner_expected_transfer').on(t.partnerId, t.expectedTransferDate),
    index('receipt_summaries_partner_transfer').on(t.partnerId, t.transferDate),
  ],
);

/**
 * How many receipts a partner has, cancelled or not: the list's total without other filters,
 * kept by `refreshReceiptSummary` as it inserts a summary or changes its `canceled`.
 */
export const receiptCounts = pgTable(
  'receipt_counts',
  {
    partnerId: uuid().notNull(),
    canceled: boolean().notNull(),
    receipts: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.canceled] })],
);
