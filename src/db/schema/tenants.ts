import { sql } from 'drizzle-orm';
import { check, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestampNow } from './common.js';

export const institutions = pgTable('institutions', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  createdAt: timestampNow(),
});

export const partners = pgTable('partners', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  createdAt: timestampNow(),
});

/** An institution `apikey` or a partner `Api-Token`: only its SHA-256 and a visible prefix are kept. */
export const credentials = pgTable(
  'credentials',
  {
    id: uuid().primaryKey().defaultRandom(),
    institutionId: uuid().references(() => institutions.id),
    partnerId: uuid().references(() => partners.id),
    prefix: text().notNull(),
    secretHash: text().notNull(),
    createdAt: timestampNow(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex().on(t.prefix),
    uniqueIndex().on(t.secretHash),
    check('credentials_one_tenant', sql`num_nonnulls(${t.institutionId}, ${t.partnerId}) = 1`),
  ],
);
