import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { institutions } from './tenants.js';

const money = () => numeric({ precision: 14, scale: 2 });
const percent = () => numeric({ precision: 5, scale: 2 });

/** One monthly closing (`fechamento`) of an institution: at most one per month. */
export const statementClosings = pgTable(
  'statement_closings',
  {
    id: uuid().primaryKey().defaultRandom(),
    institutionId: uuid()
      .notNull()
      .references(() => institutions.id),
    /** First day of the closed month. */
    month: date({ mode: 'string' }).notNull(),
    /** FECHADO; REPASSADO once both transfer dates have passed. */
    status: text().notNull(),
    /** When the closing (or its last reopening) ran. */
    closedAt: timestamp({ withTimezone: true }).notNull(),
    /** How many times an operator reopened and recomputed it. */
    reopenings: integer().notNull().default(0),
    createdAt: timestampNow(),
  },
  (t) => [uniqueIndex().on(t.institutionId, t.month)],
);

/** What happened to a closing, for the record: closed, reopened (by whom and why). */
export const statementClosingEvents = pgTable(
  'statement_closing_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    closingId: uuid()
      .notNull()
      .references(() => statementClosings.id),
    /** CLOSED or REOPENED. */
    action: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    /** Who asked (`cron`, `cli`). */
    actor: text().notNull(),
    /** Assignments written by this run. */
    assignments: integer().notNull(),
  },
  (t) => [index().on(t.closingId)],
);

/**
 * An installment of guaranteed revenue in a closing (`cessão`), with the values the closing fixed:
 * later payments, re-sends or contract changes never alter them. Assigned by one closing at most
 * (an earlier closing may have listed it as not assigned: cancelled or settled then).
 */
export const installmentAssignments = pgTable(
  'installment_assignments',
  {
    id: uuid().primaryKey().defaultRandom(),
    closingId: uuid()
      .notNull()
      .references(() => statementClosings.id),
    institutionId: uuid().notNull(),
    installmentId: uuid()
      .notNull()
      .references(() => installments.id),
    /** The closed month (copied from the closing for the statement's keyset). */
    month: date({ mode: 'string' }).notNull(),
    /** The institution's `idParcela`, or the installment id when none was sent. */
    externalId: text().notNull(),
    /** False for an installment the institution settled or cancelled before the closing. */
    assigned: boolean().notNull(),
    guaranteeType: text().notNull(),
    allocation: text().notNull(),
    principal: money().notNull(),
    onTimeValue: money().notNull(),
    commissionPercent: percent().notNull(),
    commissionValue: money().notNull(),
    guaranteedValue: money().notNull(),
    firstTransferValue: money().notNull(),
    secondTransferValue: money().notNull(),
    /** Null for an installment not assigned: nothing is transferred. */
    firstTransferOn: date({ mode: 'string' }),
    secondTransferOn: date({ mode: 'string' }),
  },
  (t) => [
    uniqueIndex().on(t.closingId, t.installmentId),
    // An installment is guaranteed once: by the first closing that assigned it (migration 0046).
    uniqueIndex('installment_assignments_assigned_once')
      .on(t.installmentId)
      .where(sql`assigned`),
    index().on(t.institutionId, t.month, t.externalId, t.installmentId),
  ],
);
