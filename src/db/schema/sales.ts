import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { campaigns, courseClasses, courses } from './catalogue.js';
import { timestampNow } from './common.js';
import { partners } from './tenants.js';

/**
 * A sale (credit request): checkout (#15), exclusive (#16) or campaign sale. `status` is the
 * internal state of `src/partner/sales/state/sale-states.ts`, changed only through its transitions.
 */
export const sales = pgTable(
  'sales',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    /** `PLATFORM_PAY`, `EXCLUSIVE_SALE` or `CAMPAIGN`. */
    origin: text().notNull(),
    status: text().notNull(),
    productType: text().notNull(),
    externalSaleId: text(),
    cpf: text().notNull(),
    checkoutPriceInCents: bigint({ mode: 'number' }).notNull(),
    upfrontInCents: bigint({ mode: 'number' }).notNull(),
    installmentsToApply: integer().notNull(),
    maxInstallmentsToApply: integer().notNull(),
    runningDaysToFirstInstallment: integer().notNull(),
    runningDaysToExpire: integer().notNull(),
    campaignId: uuid().references(() => campaigns.id),
    consultantId: text(),
    /** `API` for the Api-Token integration, or a consultant e-mail. */
    creator: text().notNull(),
    buyerName: text().notNull().default(''),
    buyerPhone: text().notNull().default(''),
    buyerEmail: text().notNull().default(''),
    buyerZipCode: text().notNull().default(''),
    buyerStreet: text().notNull().default(''),
    buyerNumber: text().notNull().default(''),
    buyerDistrict: text().notNull().default(''),
    buyerCity: text().notNull().default(''),
    buyerState: text().notNull().default(''),
    buyerComplement: text().notNull().default(''),
    /** The name lower-cased without accents and the e-mail lower-cased, by the service, for partial matches. */
    nameKey: text().notNull().default(''),
    emailKey: text().notNull().default(''),
    /** The last part of the hosted checkout URL; random, 144 bits. */
    checkoutToken: text().notNull(),
    /** Legacy 2.0 notifications of this sale go here. */
    notificationUrl: text(),
    idempotencyKey: text(),
    requestHash: text(),
    /** Method chosen at the checkout (`paymentMethods` vocabulary of the events); null until chosen. */
    paymentMethod: text(),
    /** The invoice or card attempt linked to the sale, in the shape of the events' `payment`. */
    payment: jsonb(),
    /** The financing contract, in the shape of the events' `payment.financing`. */
    financing: jsonb(),
    /** The guarantor, in the shape of the events' `guarantor`. */
    guarantor: jsonb(),
    financingStep: text(),
    deniedReason: text(),
    madeEffectiveAt: timestamp({ withTimezone: true }),
    canceledAt: timestamp({ withTimezone: true }),
    /**
     * The day the course was released to the student (the receivables side writes it). The other
     * dates the list filters by (expected and made transfers, next due date) are the receipt's.
     */
    releasedOn: date({ mode: 'string' }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => {
    const rangeIndex = (name: string, day: AnyPgColumn) =>
      index(name).on(t.partnerId, day, t.id, t.status, t.creator, t.checkoutPriceInCents);
    return [
      check(
        'sales_status',
        sql`${t.status} in ('not_logged', 'in_progress', 'waiting_payment', 'guarantor_needed', 'financing_analysis', 'denied', 'made_effective', 'canceled', 'canceled_by_partner', 'expired')`,
      ),
      uniqueIndex('sales_checkout_token').on(t.checkoutToken),
      uniqueIndex('sales_partner_idempotency_key').on(t.partnerId, t.idempotencyKey),
      index('sales_partner_id').on(t.partnerId, t.id),
      index('sales_partner_status').on(t.partnerId, t.status, t.id),
      // A whole CPF in the list is an equality; digit trigrams are too common to find it quickly.
      index('sales_partner_cpf').on(t.partnerId, t.cpf, t.id),
      index('sales_partner_external_id').on(t.partnerId, t.externalSaleId, t.id),
      // Date ranges of the list: a week holds thousands of sales, so each range index also carries
      // what the page and the totals read of them (id, status, creator, price). The page then picks
      // its ids and the totals sum the range from the index alone, without fetching every match.
      rangeIndex('sales_partner_created', t.createdAt),
      rangeIndex('sales_partner_effective', t.madeEffectiveAt),
      rangeIndex('sales_partner_released', t.releasedOn),
      index('sales_partner_creator').on(t.partnerId, t.creator, t.id),
      index('sales_partner_campaign').on(t.partnerId, t.campaignId, t.id),
    ];
  },
);

/** The courses of a sale, each with its class and the price it was sold for. */
export const saleItems = pgTable(
  'sale_items',
  {
    saleId: integer()
      .notNull()
      .references(() => sales.id),
    position: integer().notNull(),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    courseClassId: integer()
      .notNull()
      .references(() => courseClasses.id),
    priceInCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.saleId, t.position] }), index('sale_items_course').on(t.courseId, t.saleId)],
);

/** Every status a sale went through, oldest first (the exclusive sale `logs`). */
export const saleTransitions = pgTable(
  'sale_transitions',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer()
      .notNull()
      .references(() => sales.id),
    fromStatus: text(),
    toStatus: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [index('sale_transitions_sale').on(t.saleId, t.id)],
);

/**
 * The partner's sales per creator and status, with their summed checkout price: the totals of the
 * sales list (`paging` and `metaData.salesBySellers`) when it is filtered by status or creator
 * only, without counting a million rows. Kept by the statement triggers `sales_seller_counters_*`
 * of migration 0015, in the transaction of every insert, update or delete of sales, so that no
 * path writing sales can leave them wrong.
 */
export const saleSellerCounters = pgTable(
  'sale_seller_counters',
  {
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    creator: text().notNull(),
    status: text().notNull(),
    sales: bigint({ mode: 'number' }).notNull(),
    totalValue: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.creator, t.status] })],
);

/** Last `sequence` given to an event of a partner; the row lock orders concurrent events. */
export const partnerEventCounters = pgTable('partner_event_counters', {
  partnerId: uuid()
    .primaryKey()
    .references(() => partners.id),
  lastSequence: bigint({ mode: 'number' }).notNull(),
});

/**
 * The outbox of sale events: one immutable row per event, written in the transaction of the
 * transition that causes it; webhook deliveries read from here.
 */
export const saleEvents = pgTable(
  'sale_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    saleId: integer()
      .notNull()
      .references(() => sales.id),
    name: text().notNull(),
    sequence: bigint({ mode: 'number' }).notNull(),
    payload: jsonb().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex('sale_events_partner_sequence').on(t.partnerId, t.sequence),
    index('sale_events_sale').on(t.saleId, t.sequence),
    // The spec's once-per-sale events; cart abandonment is sent at most once per sale as well.
    uniqueIndex('sale_events_once_per_sale')
      .on(t.saleId, t.name)
      .where(
        sql`${t.name} in ('cartAbandonment', 'financingDenied', 'guarantorNeeded', 'purchaseConfirmed', 'purchaseCancelled')`,
      ),
  ],
);
