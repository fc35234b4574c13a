import { date, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/**
 * The contract as a series of versions, each in force from the first day of a month until the next
 * one. Statements read the version in force in the month they account for, so a change from a
 * later month never alters an earlier one, and a closed month cannot receive a version.
 */
export const institutionContractVersions = pgTable(
  'institution_contract_versions',
  {
    institutionId: uuid()
      .notNull()
      .references(() => institutions.id),
    /** First day of the first month this version applies to. */
    effectiveFrom: date({ mode: 'string' }).notNull(),
    product: text().notNull(),
    commissionPercent: numeric({ precision: 5, scale: 2 }).notNull(),
    /** Guaranteed revenue: share of the on-time value the operator guarantees, in percent. */
    guaranteedPercent: numeric({ precision: 5, scale: 2 }),
    /** Guaranteed revenue: share of the guaranteed value paid by the first transfer, in percent. */
    firstTransferPercent: numeric({ precision: 5, scale: 2 }),
    /** Guaranteed revenue: day of the month after the closed one when the first transfer is made. */
    firstTransferDay: integer(),
    /** Guaranteed revenue: day of the second month after the closed one when the second transfer is made. */
    secondTransferDay: integer(),
    /** Management: days from receiving a payment to transferring it to the institution. */
    transferDelayDays: integer().notNull().default(0),
    /** Who receives the transfers (`alocacao_instituicao_repasse`); the institution's name when null. */
    transferAllocation: text(),
    /** `tipo_garantia` of guaranteed revenue, `tipo_gestao` of management. */
    guaranteeType: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.effectiveFrom] })],
);
