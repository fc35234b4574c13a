import { customType, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

import { batches } from './batches.js';

/** How a block's items are compressed: Brotli. */
export type BlockEncoding = 'br';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The items of a batch exactly as received, a block of consecutive items per row: a JSON array,
 * compressed (JSON of similar records compresses well, and the bytes a database must write are
 * what limits taking in large batches).
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
    /** `br` (Brotli), the one encoding this version writes and reads. */
    encoding: text().$type<BlockEncoding>().notNull(),
    /** The JSON array of the items, compressed as `encoding` says. */
    data: bytea().notNull(),
    /**
     * Where each item is in the decompressed array: start and end byte offsets, in pairs, so that
     * reading some items parses those only.
     */
    itemSpans: integer().array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.firstIndex] })],
);

/**
 * Every installment item of every `POST /v1/parcela` once its batch is processed: its problems
 * (the contract's schema and the item rules) and the sent values the submitted-installments
 * listing filters on (the item itself stays in `batch_item_blocks`). Written with one COPY per
 * chunk, replacing the chunk's rows, so a redone chunk writes no item twice (`writeSubmissions`).
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
  (t) => [
    primaryKey({ columns: [t.batchId, t.index] }),
    // `aluno_cpf`, the filter of the listing that is selective across all batches.
    index('installment_submissions_student_cpf_idx').on(t.sentStudentCpf),
  ],
);
