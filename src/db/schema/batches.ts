import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';
import { credentials, institutions } from './tenants.js';

export const batches = pgTable(
  'batches',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Submission order across all batches: later submissions win when they touch the same record. */
    seq: bigint({ mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    institutionId: uuid()
      .notNull()
      .references(() => institutions.id),
    /** `aluno` or `parcela`. */
    kind: text().notNull(),
    /** RECEBIDO, PROCESSANDO, PROCESSADO or PROCESSADO_COM_ERROS. */
    status: text().notNull().default('RECEBIDO'),
    itemCount: integer().notNull(),
    processedCount: integer().notNull().default(0),
    errorCount: integer().notNull().default(0),
    createdAt: timestampNow(),
    finishedAt: timestamp({ withTimezone: true }),
    /** The client's `Idempotency-Key`: a repeated key answers the batch it first created. */
    idempotencyKey: text(),
    /** SHA-256 of the submitted items, to refuse a reused key with a different body. */
    requestHash: text(),
    /** The `apikey` that sent it: the institution's staff see who sent each batch by its prefix. */
    credentialId: uuid().references(() => credentials.id, { onDelete: 'set null' }),
  },
  (t) => [
    index().on(t.institutionId, t.createdAt),
    index().on(t.institutionId, t.kind, t.seq),
    uniqueIndex().on(t.institutionId, t.idempotencyKey),
  ],
);

/** Each submitted record exactly as sent, addressed by its position in the batch. */
export const batchItems = pgTable(
  'batch_items',
  {
    batchId: uuid()
      .notNull()
      .references(() => batches.id),
    index: integer().notNull(),
    payload: jsonb().notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.index] })],
);

export const batchItemErrors = pgTable(
  'batch_item_errors',
  {
    batchId: uuid()
      .notNull()
      .references(() => batches.id),
    itemIndex: integer().notNull(),
    field: text().notNull(),
    message: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.itemIndex, t.field] })],
);
