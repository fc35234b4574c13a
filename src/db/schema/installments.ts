import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';

const money = () => numeric({ precision: 14, scale: 2 });

/**
 * Original installments (parcelas originais): one per institution + `idParcela`, or one per
 * submitted item when the institution sends no `idParcela`. Columns hold what the listing filters
 * on; the submission itself stays in `batch_item_blocks`. Pages are filled to 70% (migration 0021), so a
 * re-sent installment's new version usually fits beside the old one and writes no index entry.
 */
export const installments = pgTable(
  'installments',
  {
    // Time-ordered (PostgreSQL 18's uuidv7): new keys land at the right edge of the primary key,
    // where random ones touched a page of their own each. Older servers keep gen_random_uuid()
    // (migration 0021).
    id: uuid()
      .primaryKey()
      .default(sql`uuidv7()`),
    /** Creation order: the keyset of the listing. */
    seq: bigint({ mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    // No foreign key: the institution comes from the batch (which has one), and a per-row key check
    // is a large share of the cost of ingesting a large batch (bench/RESULTS.md).
    institutionId: uuid().notNull(),
    /** `ext:<idParcela>`, or `item:<batch id>:<index>` without one: reprocessing an item never duplicates it. */
    upsertKey: text().notNull(),
    /** The institution's `idParcela`, when sent. */
    externalId: text(),
    /** Batch and item of the submission applied last; (batchSeq, itemIndex) only ever grows. */
    batchId: uuid().notNull(),
    batchSeq: bigint({ mode: 'number' }).notNull(),
    itemIndex: integer().notNull(),
    studentCpf: text().notNull(),
    studentRa: text(),
    /** `alunoNome` of the first invoice item, used when the student was never submitted. */
    studentName: text(),
    guarantorDocument: text().notNull(),
    guarantorDocumentType: text().notNull(),
    contractNumber: text(),
    number: text(),
    /** Canonical `tipoParcela`: Matricula, Rematricula, Mensalidade, Negociacao or Taxa_outros. */
    type: text().notNull(),
    courseName: text(),
    campusName: text(),
    dueDate: date({ mode: 'string' }).notNull(),
    principal: money().notNull(),
    /** Principal less the best on-time discount. */
    onTimeValue: money().notNull(),
    /** `descontosAdimplencia` as sent: [{percentual, dias_desconto}]. */
    onTimeDiscounts: jsonb().notNull().default([]),
    product: text().notNull(),
    /** ABERTO, PARCIALMENTE_PAGO, PAGO or CANCELADO_IES. */
    status: text().notNull(),
    /** Pago na Plataforma, Pago na IES or Cancelado na IES. */
    paymentType: text(),
    paidOn: date({ mode: 'string' }),
    /** Principal still owed. */
    balance: money().notNull(),
    settledFine: money().notNull().default('0'),
    settledInterest: money().notNull().default('0'),
    settledDiscount: money().notNull().default('0'),
    settledReceived: money().notNull().default('0'),
    /**
     * The last day a platform payment charged interest for: a bank slip is priced for its due date,
     * which may come after the day it was paid, and the interest of those days is not charged twice.
     */
    interestSettledThrough: date({ mode: 'string' }),
    /**
     * True while a payment through the platform stands (a refund in full or a dispute takes it back):
     * meanwhile re-sends no longer change the installment.
     */
    paidOnPlatform: boolean().notNull().default(false),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.institutionId, t.upsertKey),
    index().on(t.institutionId, t.seq),
    // Listing filters (GET /v1/parcela/originais). An equality filter followed by `seq` walks its
    // matches already in page order, so a page reads 101 entries however many rows match; range
    // filters read the range and sort it. Every index here is paid by each ingested row in
    // PostgreSQL's CPU (`npm run bench:index-cost`, bench/RESULTS.md): one per filter a large institution is
    // expected to use, nothing for the rare ones, and no row in two where one serves both.
    index('installments_student_cpf_seq_idx').on(t.institutionId, t.studentCpf, t.seq),
    // A student paying their own tuition is found through the student index (`guarantorIs`).
    index('installments_guarantor_seq_idx')
      .on(t.institutionId, t.guarantorDocument, t.seq)
      .where(sql`guarantor_document <> student_cpf`),
    // Status and type: a page of one status walks one range per type and merges them, and the
    // other way round (`originalsPageSets`); both filters together are a single range.
    index('installments_status_type_seq_idx').on(t.institutionId, t.status, t.type, t.seq),
    index('installments_due_date_idx').on(t.institutionId, t.dueDate),
    index('installments_paid_on_idx')
      .on(t.institutionId, t.paidOn)
      .where(sql`paid_on is not null`),
    // `dias_atraso` of a paid installment does not move with the clock: payment day less business
    // due day (`business_day_on_or_after`, migration `business_days`). Both days are in the index
    // too: a condition on an expression is answered from the index alone only when the columns it
    // reads are there, so counting the paid ones reads no heap.
    index('installments_paid_days_late_idx')
      .on(t.institutionId, sql`(paid_on - business_day_on_or_after(due_date))`, t.paidOn, t.dueDate)
      .where(sql`status = 'PAGO'`),
  ],
);

/**
 * Changes to the number of installments per institution, status and type, one row per statement
 * and group: written by statement triggers on `installments` (migration 0015), so every path that
 * creates, changes or removes an installment counts, in its own transaction. Summing the rows of
 * an institution gives its exact counts as of the reader's snapshot; the rows are only ever added,
 * so concurrent writers never wait on each other, and `compact-installment-counts` folds them
 * into one row per group now and then.
 */
export const installmentCounts = pgTable(
  'installment_counts',
  {
    institutionId: uuid().notNull(),
    status: text().notNull(),
    type: text().notNull(),
    n: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [index().on(t.institutionId, t.status, t.type, t.n)],
);
