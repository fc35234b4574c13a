import { bigint, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';
import { institutions } from './tenants.js';

/** Last `sequence` given to an event of an institution; the row lock orders concurrent events. */
export const institutionEventCounters = pgTable('institution_event_counters', {
  institutionId: uuid()
    .primaryKey()
    .references(() => institutions.id),
  lastSequence: bigint({ mode: 'number' }).notNull(),
});

/**
 * The outbox of the Institution API's events: one immutable row per event, written in the
 * transaction of the change that causes it; the webhook deliveries and `GET /v1/eventos` read here.
 */
export const institutionEvents = pgTable(
  'institution_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    institutionId: uuid()
      .notNull()
      .references(() => institutions.id),
    name: text().notNull(),
    sequence: bigint({ mode: 'number' }).notNull(),
    /**
     * What the event is about, once per event name: a batch, a payment's charge, an installment on
     * its due date, a month. A second event of the same name and subject is never stored.
     */
    subject: text().notNull(),
    payload: jsonb().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex('institution_events_sequence').on(t.institutionId, t.sequence),
    uniqueIndex('institution_events_once').on(t.institutionId, t.name, t.subject),
  ],
);
