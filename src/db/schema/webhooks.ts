import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';
import { institutions, partners } from './tenants.js';

/**
 * A URL that receives a tenant's events: a partner's (`POST /webhooks`) or an institution's
 * (`POST /v1/webhooks`); a URL may be registered many times.
 */
export const webhookConfigurations = pgTable(
  'webhook_configurations',
  {
    id: uuid().primaryKey().defaultRandom(),
    partnerId: uuid().references(() => partners.id),
    institutionId: uuid().references(() => institutions.id),
    name: text().notNull(),
    url: text().notNull(),
    /** Event names as registered; `['all']` selects every event, those added later included. */
    enabledEvents: text().array().notNull(),
    /** Sent as is in `authorization`; never answered in full. Sealed with SECRETS_KEY (`sealed-secrets.ts`). */
    authorizationToken: text(),
    active: boolean().notNull().default(true),
    /** Standard Webhooks signing secret (`whsec_…`), sealed; null when the configuration is not signed. */
    signingSecret: text(),
    /** The secret before the last rotation, sealed, still signed with until `previousSecretExpiresAt`. */
    previousSigningSecret: text(),
    previousSecretExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.partnerId, t.createdAt),
    index().on(t.institutionId, t.createdAt),
    check('webhook_configurations_one_tenant', sql`num_nonnulls(${t.partnerId}, ${t.institutionId}) = 1`),
  ],
);

/** One event to one configuration; the body is kept as the exact bytes every attempt sends. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    configurationId: uuid()
      .notNull()
      .references(() => webhookConfigurations.id, { onDelete: 'cascade' }),
    /** The configuration's tenant, one of the two. */
    partnerId: uuid(),
    institutionId: uuid(),
    eventId: uuid().notNull(),
    eventName: text().notNull(),
    /** The tenant's event sequence; 0 for test events. */
    sequence: integer().notNull().default(0),
    body: text().notNull(),
    test: boolean().notNull().default(false),
    /** The delivery this one repeats (`POST /webhooks/deliveries/{id}/redeliver`). */
    redeliveryOf: uuid(),
    /** `pending`, `succeeded`, `failed`, or `paused` while its configuration is inactive. */
    status: text().notNull().default('pending'),
    attemptsMade: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    check('webhook_deliveries_status', sql`${t.status} in ('pending', 'paused', 'succeeded', 'failed')`),
    check('webhook_deliveries_one_tenant', sql`num_nonnulls(${t.partnerId}, ${t.institutionId}) = 1`),
    // A fan-out that runs twice for one event creates nothing twice; redeliveries are extra rows.
    uniqueIndex('webhook_deliveries_event_key')
      .on(t.configurationId, t.eventId)
      .where(sql`${t.redeliveryOf} is null`),
    index().on(t.configurationId, t.createdAt),
    // A sale's timeline in the panel reads the deliveries of its events, redeliveries included.
    index('webhook_deliveries_event').on(t.eventId),
  ],
);

/** One finished attempt of a delivery, recorded only after it completed. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: uuid()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    attemptedAt: timestamp({ withTimezone: true }).notNull(),
    statusCode: integer(),
    error: text(),
    durationMs: integer().notNull(),
    /** The receiver's answer, cut at 4 KB. */
    responseBody: text(),
    /**
     * The request's headers as sent, the `authorization` value masked to its last 4 characters;
     * null for attempts recorded before headers were kept.
     */
    requestHeaders: jsonb().$type<Record<string, string>>(),
  },
  (t) => [uniqueIndex('webhook_attempts_number_key').on(t.deliveryId, t.number)],
);

/** Deprecated legacy configurations (`/webhook/configurations`), versions 1.0 and 2.0. */
export const legacyWebhookConfigurations = pgTable(
  'legacy_webhook_configurations',
  {
    id: uuid().primaryKey().defaultRandom(),
    partnerId: uuid()
      .notNull()
      .references(() => partners.id),
    version: text().notNull(),
    url: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [check('legacy_webhook_configurations_version', sql`${t.version} in ('1.0', '2.0')`), index().on(t.partnerId)],
);

/** One legacy notification to one URL; one automatic attempt, then manual retries only. */
export const legacyWebhookDispatches = pgTable(
  'legacy_webhook_dispatches',
  {
    id: text().primaryKey(),
    partnerId: uuid().notNull(),
    /** Null for a sale's own `notification_url`. */
    configurationId: uuid().references(() => legacyWebhookConfigurations.id, { onDelete: 'set null' }),
    version: text().notNull(),
    url: text().notNull(),
    body: text().notNull(),
    /** Status of the last answer; null before the first answer or after a connection error. */
    lastStatusCode: integer(),
    lastError: text(),
    sends: integer().notNull().default(0),
    manualRetries: integer().notNull().default(0),
    lastAttemptAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.partnerId)],
);

/**
 * Each tenant's budget of webhook sends (a partner's or an institution's, by its id), a token
 * bucket shared by every worker process: `tokens` as of `refilledAt`, below zero while sends are
 * booked ahead (see `delivery-budget.ts`).
 */
export const webhookSendBudgets = pgTable('webhook_send_budgets', {
  tenantId: uuid().primaryKey(),
  tokens: doublePrecision().notNull(),
  refilledAt: timestamp({ withTimezone: true }).notNull(),
});
