import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';

/**
 * The books: one row per movement of money of a tenant (an institution or a partner), written in
 * the transaction of what moved it and never changed afterwards — the database refuses UPDATE,
 * DELETE and TRUNCATE on it (migration 0047), so a correction is always a new entry. Statements,
 * receipts and transfers are reads of it (`src/ledger/`).
 *
 * Money is signed integer cents from the tenant's side: `amount` is what the payer paid (+) or got
 * back (−); `commission` the operator's share of it; `net` what the entry adds to, or takes from,
 * the tenant's transfer on `transferOn`. For a platform payment net = amount − commission; a
 * settlement the institution reports (it holds the money) owes the commission (net = −commission).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    /** Booking order. */
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `institution` or `partner`. */
    tenantKind: text().notNull(),
    tenantId: uuid().notNull(),
    /** See `LedgerKind` (`src/ledger/kinds.ts`). */
    kind: text().notNull(),
    /** The record the statements show for this entry (`liquidacao_gestao_id`): unique per tenant, so booking twice books once. */
    recordId: text().notNull(),
    /** `gestao` when the management statement lists it; null otherwise. */
    statement: text(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    commissionCents: bigint({ mode: 'number' }).notNull(),
    netCents: bigint({ mode: 'number' }).notNull(),
    /** The parts of `amount`: amount = principal + fine + interest − discount. */
    principalCents: bigint({ mode: 'number' }).notNull(),
    fineCents: bigint({ mode: 'number' }).notNull().default(0),
    interestCents: bigint({ mode: 'number' }).notNull().default(0),
    discountCents: bigint({ mode: 'number' }).notNull().default(0),
    /** The Brasília day the money moved (for a card installment, the day the acquirer pays it). */
    movedOn: date({ mode: 'string' }).notNull(),
    /** First day of the month the entry is booked in: the month it moved, or the first one open after it. */
    period: date({ mode: 'string' }).notNull(),
    /** The day of the transfer (repasse, TED) the entry is part of; null when it is no tenant's money. */
    transferOn: date({ mode: 'string' }),
    /** The contract's terms frozen when the entry was booked: the operator's percentage. */
    commissionPercent: numeric({ precision: 5, scale: 2 }),
    /** … `alocacao_instituicao_repasse` (null: the institution's name) and `tipo_gestao`. */
    allocation: text(),
    managementType: text(),
    /** What the institution's installment was when booked: its product, `idParcela`, due date and principal. */
    product: text(),
    externalId: text(),
    dueOn: date({ mode: 'string' }),
    /** First day of the month of `dueOn` (`competencia_vencimento`). */
    dueMonth: date({ mode: 'string' }),
    installmentPrincipalCents: bigint({ mode: 'number' }),
    /** `TOTAL` or `PARCIAL` for a payment; `PIX`, `BOLETO`, `CARTAO_DE_CREDITO` or `NAO_INFORMADO`. */
    settlement: text(),
    means: text(),
    /** Card installment n of m, for a payment by card. */
    cardInstallment: integer(),
    cardInstallments: integer(),
    /** The entry this one takes back (a refund or a dispute) or gives back (a dispute won). */
    reversesId: bigint({ mode: 'number' }).references((): AnyPgColumn => ledgerEntries.id),
    /** What caused it, the same for every entry of one cause: `refund:<id>`, `dispute:<ref>:withdrawn`… */
    cause: text().notNull(),
    installmentId: uuid(),
    paymentId: uuid(),
    chargeId: uuid(),
    refundId: uuid(),
    disputeRef: text(),
    saleId: integer(),
    closingId: uuid(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex('ledger_entries_record').on(t.tenantId, t.recordId),
    index('ledger_entries_period').on(t.tenantId, t.period),
    index('ledger_entries_moved').on(t.movedOn),
    index('ledger_entries_payment')
      .on(t.paymentId)
      .where(sql`${t.paymentId} is not null`),
    index('ledger_entries_installment')
      .on(t.installmentId)
      .where(sql`${t.installmentId} is not null`),
    index('ledger_entries_sale')
      .on(t.saleId)
      .where(sql`${t.saleId} is not null`),
    index('ledger_entries_cause').on(t.cause),
    index('ledger_entries_reverses')
      .on(t.reversesId)
      .where(sql`${t.reversesId} is not null`),
    index('ledger_entries_closing')
      .on(t.closingId)
      .where(sql`${t.closingId} is not null`),
    // The management statement: in order of transfer, then record; by due month too.
    index('ledger_entries_management')
      .on(t.tenantId, t.transferOn, t.recordId)
      .where(sql`${t.statement} = 'gestao'`),
    index('ledger_entries_management_due_month')
      .on(t.tenantId, t.dueMonth, t.transferOn, t.recordId)
      .where(sql`${t.statement} = 'gestao'`),
    check('ledger_entries_tenant_kind', sql`${t.tenantKind} in ('institution', 'partner')`),
    check(
      'ledger_entries_parts',
      sql`${t.amountCents} = ${t.principalCents} + ${t.fineCents} + ${t.interestCents} - ${t.discountCents}`,
    ),
    check('ledger_entries_period_first_day', sql`extract(day from ${t.period}) = 1`),
  ],
);
