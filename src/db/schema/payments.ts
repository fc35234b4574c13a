import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';
import { installments } from './installments.js';
import { sales } from './sales.js';
import { institutions } from './tenants.js';

/**
 * Charges of the payment provider (`sandbox` or `stripe`): Pix, bank slip or card, in integer
 * cents. `referenceKind` says what the charge pays: an installment (`referenceId`) or a sale
 * (`saleId`), exactly one of the two.
 */
export const paymentCharges = pgTable(
  'payment_charges',
  {
    id: uuid().primaryKey().defaultRandom(),
    provider: text().notNull(),
    /** PIX, BOLETO or CARD. */
    method: text().notNull(),
    /** PENDING, PAID, EXPIRED, DECLINED, REFUNDED, DISPUTED (funds withdrawn, not final) or CHARGED_BACK (a dispute lost). */
    status: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    paidAmountCents: bigint({ mode: 'number' }),
    /** Given back to the payer so far, in cents: the provider's running total, the paid amount once refunded in full. */
    refundedAmountCents: bigint({ mode: 'number' }).notNull().default(0),
    description: text().notNull(),
    payerName: text(),
    payerDocument: text().notNull(),
    referenceKind: text().notNull(),
    /** The installment paid, for `referenceKind` installment. */
    referenceId: uuid(),
    /** The sale paid at its checkout, for `referenceKind` sale. */
    saleId: integer().references(() => sales.id),
    /** The provider's own id of the charge: a Stripe PaymentIntent (`pi_…`). */
    providerRef: text(),
    /** Pix copy-and-paste text. */
    pixCode: text(),
    /** The provider's image of the Pix QR code, when it hosts one. */
    pixQrImageUrl: text(),
    /** Bank slip digitable line. */
    digitableLine: text(),
    /** The provider's page of the bank slip (the voucher to print or download). */
    voucherUrl: text(),
    cardBrand: text(),
    cardLastFour: text(),
    /** Card installments the payer chose (1 for a single payment); null for Pix and bank slip. */
    cardInstallments: integer(),
    declinedReason: text(),
    /** The provider's dispute of the payment (`dp_…`), once the payer opened one. */
    disputeRef: text(),
    /** The dispute as the provider states it (`warning_needs_response`, `needs_response`, `under_review`, `won`, `lost`…). */
    disputeStatus: text(),
    /** What the dispute withdrew from the balance, in cents (kept once won, to say what came back); 0 for an inquiry. */
    disputedAmountCents: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * Paid at the provider but refused by what it paid for (an installment already settled, a sale
     * closed): the money is kept on the charge for the operator to refund.
     */
    unappliedReason: text(),
    expiresAt: timestamp({ withTimezone: true }),
    /**
     * The Brasília day whose amount the charge asks for (late charges, discounts): a payment of it
     * settles as of that day, however late the provider confirms it.
     */
    pricedFor: date({ mode: 'string' }).notNull(),
    /** When the payer paid, as the provider reports it. */
    paidAt: timestamp({ withTimezone: true }),
    /** When the reconciliation last read this pending charge from its provider. */
    checkedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.referenceKind, t.referenceId),
    index('payment_charges_sale').on(t.saleId, t.createdAt),
    uniqueIndex('payment_charges_provider_ref').on(t.provider, t.providerRef),
    // The reconciliation's walk: pending charges of a provider, least recently read first.
    index('payment_charges_pending')
      .on(t.provider, t.checkedAt)
      .where(sql`status = 'PENDING'`),
    check(
      'payment_charges_one_reference',
      sql`num_nonnulls(${t.referenceId}, ${t.saleId}) = 1 and (${t.saleId} is null) = (${t.referenceKind} <> 'sale')`,
    ),
  ],
);

/** The hosted payment page of an installment: one stable link per installment. */
export const paymentLinks = pgTable(
  'payment_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    token: text().notNull(),
    institutionId: uuid()
      .notNull()
      .references(() => institutions.id),
    installmentId: uuid()
      .notNull()
      .references(() => installments.id),
    createdAt: timestampNow(),
  },
  (t) => [uniqueIndex().on(t.token), uniqueIndex().on(t.installmentId)],
);

/**
 * Money given back to a payer: a payment that could not be applied (`UNAPPLIED`), what a payment
 * brought above the debt (`OVERPAYMENT`), each once per charge; an operator's refunds (`OPERATOR`,
 * in full or in part); and the refunds made at the provider itself (`PROVIDER`, its dashboard). A job asks the provider,
 * keyed by the row's id; the provider's word moves `status`.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid().primaryKey().defaultRandom(),
    chargeId: uuid()
      .notNull()
      .references(() => paymentCharges.id),
    /** UNAPPLIED, OVERPAYMENT, OPERATOR or PROVIDER. */
    reason: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    /** REQUESTED (not yet at the provider), PENDING, SUCCEEDED, FAILED or CANCELED. */
    status: text().notNull(),
    /** The provider's refund (`re_…`), once asked. */
    providerRef: text(),
    failureReason: text(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    // A payment kept unapplied, or what it brought above the debt, is given back once; an
    // operator may give back a charge in several refunds, one at a time.
    uniqueIndex('payment_refunds_one_per_reason')
      .on(t.chargeId, t.reason)
      .where(sql`reason in ('UNAPPLIED', 'OVERPAYMENT')`),
    uniqueIndex('payment_refunds_provider_ref').on(t.providerRef),
    index('payment_refunds_open')
      .on(t.createdAt)
      .where(sql`status <> 'SUCCEEDED'`),
  ],
);

const money = () => numeric({ precision: 14, scale: 2 });

/** One settled platform payment of an installment; the charge id makes settling idempotent. */
export const installmentPayments = pgTable(
  'installment_payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    installmentId: uuid()
      .notNull()
      .references(() => installments.id),
    chargeId: uuid()
      .notNull()
      .references(() => paymentCharges.id),
    method: text().notNull(),
    paidOn: date({ mode: 'string' }).notNull(),
    received: money().notNull(),
    principal: money().notNull(),
    fine: money().notNull(),
    interest: money().notNull(),
    discount: money().notNull(),
    /** The Brasília day the money arrived, as the provider reports it (`paidOn` is the payer's day: what it settles). */
    receivedOn: date({ mode: 'string' }).notNull(),
    /** Records of the payment in the books: a card in M installments is paid by the acquirer one a month. */
    records: integer().notNull().default(1),
    /** Of those, the ones booked so far: a record is booked on the day the acquirer pays it. */
    recordsBooked: integer().notNull().default(0),
    /** The payment settled what was left of the installment (its last record is `TOTAL`). */
    settledInFull: boolean().notNull().default(false),
    createdAt: timestampNow(),
    /**
     * The whole payment was taken back: refunded in full, or disputed (funds withdrawn, `DISPUTED`;
     * final once lost, `CHARGED_BACK`), as the panel shows it. What it still settles follows the
     * books (`src/institution/books/standing.ts`).
     */
    reversal: text(),
    reversedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex().on(t.chargeId),
    index().on(t.installmentId),
    // Card payments whose later installments are still to be booked, by the day of the next one.
    index('installment_payments_to_book')
      .on(sql`(${t.receivedOn} + 30 * ${t.recordsBooked})`)
      .where(sql`${t.recordsBooked} < ${t.records}`),
  ],
);

/**
 * Events received from a payment provider (Stripe's webhooks), one row per event id, written in
 * the transaction that applies the event: a redelivered event finds its row and changes nothing.
 */
export const paymentProviderEvents = pgTable(
  'payment_provider_events',
  {
    provider: text().notNull(),
    /** The provider's event id (`evt_…`). */
    eventId: text().notNull(),
    type: text().notNull(),
    /** The charge it concerned, when it is one of ours. */
    chargeId: uuid().references(() => paymentCharges.id),
    /**
     * `applied` (the charge moved), `unchanged` (it was there already), `ignored` (not a charge of
     * ours) or `orphaned` (our metadata, but no charge here: its creating transaction rolled back).
     */
    outcome: text().notNull(),
    receivedAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index().on(t.chargeId)],
);

/**
 * How far a provider's list of events has been read for events whose delivery never came (Stripe
 * keeps 30 days of them): the reconciliation lists from here on, so each run reads only what is new.
 */
export const paymentProviderCursors = pgTable('payment_provider_cursors', {
  provider: text().primaryKey(),
  /** Every event created up to this instant has been applied or found applied already. */
  listedUntil: timestamp({ withTimezone: true }).notNull(),
  updatedAt: timestampNow(),
});

/**
 * Events of a provider's list that failed to apply at a reconciliation, by how often: after a few
 * tries one is set aside (`setAsideAt`), so that the cursor moves past it and the events after it
 * are not held back; the operator looks at what is set aside (a metric and an alert say so).
 */
export const paymentEventFailures = pgTable(
  'payment_event_failures',
  {
    provider: text().notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    attempts: integer().notNull(),
    lastError: text().notNull(),
    setAsideAt: timestamp({ withTimezone: true }),
    updatedAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
