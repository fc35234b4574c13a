import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { microAreaGroups } from './areas.js';
import { timestampNow } from './common.js';
import { partners } from './tenants.js';

/** What the operator agreed with a partner: its plan and the defaults its courses fall back to. */
export const partnerSettings = pgTable(
  'partner_settings',
  {
    partnerId: uuid()
      .primaryKey()
      .references(() => partners.id),
    /** `fixed` (course minimum 30 reais) or `flexible` (the plan's own minimum sale value). */
    plan: text().notNull().default('fixed'),
    minimumSaleInCents: integer(),
    defaultGracePeriodDays: integer().notNull().default(0),
    defaultUpfrontInCents: integer(),
    updatedAt: timestampNow(),
  },
  (t) => [
    check('partner_settings_plan', sql`${t.plan} in ('fixed', 'flexible')`),
    check('partner_settings_flexible_minimum', sql`${t.plan} = 'fixed' or ${t.minimumSaleInCents} is not null`),
  ],
);

export const campuses = pgTable(
  'campuses',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    name: text().notNull(),
    /** The name lower-cased by the service (not by the database, whose locale may be C). */
    nameKey: text().notNull(),
    zipCode: text().notNull(),
    street: text().notNull(),
    number: text().notNull(),
    complement: text(),
    district: text().notNull(),
    city: text().notNull(),
    state: text().notNull(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [uniqueIndex('campuses_partner_name_key').on(t.partnerId, t.nameKey)],
);

export const courses = pgTable(
  'courses',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    microAreaId: integer()
      .notNull()
      .references(() => microAreaGroups.id),
    name: text().notNull(),
    description: text().notNull(),
    priceInCents: integer().notNull(),
    productType: text().notNull(),
    active: boolean().notNull().default(true),
    showOnWebsite: boolean().notNull(),
    hasSelectionProcess: boolean().notNull(),
    workload: integer().notNull(),
    creator: text().notNull(),
    internalPartnerProductId: text(),
    maxInstallmentsToApply: integer(),
    /** Null: the partner's default grace period applies. */
    gracePeriodDays: integer(),
    /** Null: the partner's default upfront applies (exclusive sales). */
    defaultUpfrontInCents: integer(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.partnerId, t.id),
    uniqueIndex('courses_partner_product_id').on(t.partnerId, t.internalPartnerProductId),
  ],
);

export const courseClasses = pgTable(
  'course_classes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    name: text().notNull(),
    visible: boolean().notNull(),
    active: boolean().notNull().default(true),
    typeId: integer().notNull(),
    modalityId: integer().notNull(),
    attendTypeId: integer().notNull(),
    durationId: integer(),
    periodId: integer(),
    timeId: integer(),
    campusId: integer().references(() => campuses.id),
    partnerSku: text(),
    /** A count of the unit `durationId` names; not money, so a float is fine. */
    durationTime: doublePrecision(),
    priceInCents: integer().notNull(),
    gracePeriodDays: integer().notNull(),
    startsAt: date({ mode: 'string' }),
    endsAt: date({ mode: 'string' }),
    expiresAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.courseId, t.id),
    // A checkout sale finds a variant by SKU and price, so one SKU may carry several prices; a class
    // registered with POST /course-classes keeps its SKU to itself (checked under the course's lock).
    uniqueIndex('course_classes_course_sku_price').on(t.courseId, t.partnerSku, t.priceInCents),
    // The expiry sweep reads only visible classes that have an expiry.
    index('course_classes_expiry')
      .on(t.expiresAt)
      .where(sql`${t.visible} and ${t.expiresAt} is not null`),
  ],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Creation order: lists are newest first even when two campaigns share a `createdAt`. */
    seq: bigint({ mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    name: text().notNull(),
    slug: text().notNull(),
    /** The slug lower-cased by the service: names are unique per partner ignoring case. */
    nameKey: text().notNull(),
    runningDaysToFirstInstallment: integer().notNull(),
    runningDaysToExpire: integer().notNull(),
    checkoutPriceInCents: bigint({ mode: 'number' }).notNull(),
    totalAmountInCents: bigint({ mode: 'number' }).notNull(),
    maxInstallmentsToApply: integer().notNull(),
    customIdentifier: text(),
    consultantId: text(),
    paymentMethods: text().array().notNull(),
    active: boolean().notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }),
    /** When the schedule (or the creation) made it active; guards against activating twice. */
    activatedAt: timestamp({ withTimezone: true }),
    deactivatedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    uniqueIndex('campaigns_partner_name_key').on(t.partnerId, t.nameKey),
    index().on(t.partnerId, t.seq),
    // The schedule sweep reads only campaigns with a start or an end still to apply.
    index('campaigns_pending_start')
      .on(t.startsAt)
      .where(sql`${t.activatedAt} is null`),
    index('campaigns_pending_end')
      .on(t.endsAt)
      .where(sql`${t.deactivatedAt} is null and ${t.endsAt} is not null`),
  ],
);

/** The courses of a campaign, each with its one class; the course price is kept as it was. */
export const campaignCourses = pgTable(
  'campaign_courses',
  {
    campaignId: uuid()
      .notNull()
      .references(() => campaigns.id),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    courseClassId: integer()
      .notNull()
      .references(() => courseClasses.id),
    position: integer().notNull(),
    priceInCents: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.courseId] })],
);
