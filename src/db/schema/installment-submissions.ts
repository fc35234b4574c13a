import { boolean, customType, date, integer, jsonb, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { batches } from './batches.js';

const money = () => numeric({ precision: 14, scale: 2 });

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The items of a batch exactly as received, a block of consecutive items per row: a JSON array,
 * deflate-compressed (JSON of similar records shrinks about tenfold, and the bytes a database
 * must write are what limits taking in large batches).
 */
export const batchItemBlocks = pgTable(
  'batch_item_blocks',
  {
    batchId: uuid()
      .notNull()
      .references(() => batches.id),
    /** Position in the batch of the block's first item; the block holds `itemCount` items from there. */
    firstIndex: integer().notNull(),
    itemCount: integer().notNull(),
    /** Raw deflate of the JSON array of the items. */
    data: bytea().notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.firstIndex] })],
);

/**
 * Every installment item of every `POST /v1/parcela` once its batch is processed: its problems
 * under the item rules (or the installment row it makes) and the sent values the
 * submitted-installments listing filters on (the item itself stays in `batch_item_blocks`).
 * Written with one COPY per chunk, then applied to `installments` with one
 * INSERT … SELECT … ON CONFLICT: the staging table of the set-based ingestion.
 */
export const installmentSubmissions = pgTable(
  'installment_submissions',
  {
    // No foreign key: only the batch's own job writes these rows, and a per-row key check is a
    // large share of the cost of staging them.
    batchId: uuid().notNull(),
    index: integer().notNull(),
    /** Problems under the item rules, [{field, message}]; null for a valid item. */
    errors: jsonb(),
    /** Valid and the last item of its installment in its chunk: the rows the chunk applies. */
    applies: boolean().notNull(),

    // The installment a valid item makes (null for an invalid one); see `installments`.
    upsertKey: text(),
    externalId: text(),
    studentCpf: text(),
    studentRa: text(),
    studentName: text(),
    guarantorDocument: text(),
    guarantorDocumentType: text(),
    contractNumber: text(),
    number: text(),
    type: text(),
    courseName: text(),
    campusName: text(),
    dueDate: date({ mode: 'string' }),
    principal: money(),
    onTimeValue: money(),
    onTimeDiscounts: jsonb(),
    status: text(),
    paymentType: text(),
    paidOn: date({ mode: 'string' }),
    balance: money(),
    settledFine: money(),
    settledInterest: money(),
    settledDiscount: money(),
    settledReceived: money(),

    // Sent values (as strings, valid or not) for the filters of GET /importacao/enviados/parcelas.
    sentStudentCpf: text(),
    sentGuarantorDocument: text(),
    sentExternalId: text(),
    /** `tipoParcela` and `situacaoBaixa` in lower case: those filters ignore case. */
    sentTypeLower: text(),
    sentSettlementLower: text(),
    /** First 10 characters of `dataVencimento` (its date). */
    sentDueDay: text(),
    sentCourseCode: text(),
    sentCourseName: text(),
    sentCourseDegree: text(),
    sentCourseModality: text(),
    sentOrganizationName: text(),
    sentCampusName: text(),
    sentCampusId: text(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.index] })],
);
