import { integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { institutions } from './tenants.js';

/**
 * The commercial contract of an institution with the operator (kept apart from `institutions`,
 * which holds identity only). An institution without a row has the default contract: `Gestão`.
 */
export const institutionContracts = pgTable('institution_contracts', {
  institutionId: uuid()
    .primaryKey()
    .references(() => institutions.id),
  /** `Gestão` (management) or `Receita Garantida` (guaranteed revenue); stamped on new installments. */
  product: text().notNull().default('Gestão'),
  /** Operator commission over what is received, in percent. */
  commissionPercent: numeric({ precision: 5, scale: 2 }).notNull().default('0'),
  /** Guaranteed revenue only: share of the principal the operator guarantees, in percent. */
  guaranteedPercent: numeric({ precision: 5, scale: 2 }),
  /** Guaranteed revenue only: share of the guaranteed value paid in the first transfer, in percent. */
  firstTransferPercent: numeric({ precision: 5, scale: 2 }),
  /** Guaranteed revenue only: days after the closing when each transfer is due. */
  firstTransferDays: integer(),
  secondTransferDays: integer(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
