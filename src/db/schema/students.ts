import { jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { batches } from './batches.js';
import { timestampNow } from './common.js';
import { institutions } from './tenants.js';

export const students = pgTable(
  'students',
  {
    id: uuid().primaryKey().defaultRandom(),
    institutionId: uuid()
      .notNull()
      .references(() => institutions.id),
    cpf: text().notNull(),
    ra: text(),
    fullName: text().notNull(),
    /** The last submitted record as sent (every field of the Student resource). */
    data: jsonb().notNull(),
    lastBatchId: uuid()
      .notNull()
      .references(() => batches.id),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [uniqueIndex().on(t.institutionId, t.cpf)],
);
