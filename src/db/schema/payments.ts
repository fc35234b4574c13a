import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
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
 * Charges of the payment provider (the sandbox for now): Pix, bank slip or card, in integer cents.
 * `referenceKind` says what the charge pays: an installment (`referenceId`) or a sale (`saleId`),
 * exactly one of the two.
 */
export const paymentCharges = pgTable(
  'payment_charges',
  {
    id: uuid().primaryKey().defaultRandom(),
    provider: text().notNull(),
    /** PIX, BOLETO or CARD. */
    method: text().notNull(),
    /** PENDING, PAID, EXPIRED, DECLINED, REFUNDED or CHARGED_BACK. */
    status: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    paidAmountCents: bigint({ mode: 'number' }),
    description: text().notNull(),
    payerName: text(),
    payerDocument: text().notNull(),
    referenceKind: text().notNull(),
    /** The installment paid, for `referenceKind` installment. */
    referenceId: uuid(),
    /** The sale paid at its checkout, for `referenceKind` sale. */
    saleId: integer().references(() => sales.id),
    /** Pix copy-and-paste text. */
    pixCode: text(),
    /** Bank slip digitable line. */
    digitableLine: text(),
    cardBrand: text(),
    cardLastFour: text(),
    /** Card installments the payer chose (1 for a single payment); null for Pix and bank slip. */
    cardInstallments: integer(),
    declinedReason: text(),
    expiresAt: timestamp({ withTimezone: true }),
    paidAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.referenceKind, t.referenceId),
    index('payment_charges_sale').on(t.saleId, t.createdAt),
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
    createdAt: timestampNow(),
  },
  (t) => [uniqueIndex().on(t.chargeId), index().on(t.installmentId)],
);
