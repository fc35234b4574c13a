import { timestamp } from 'drizzle-orm/pg-core';

/** A timestamptz column set to now() on insert: `created_at`, and `updated_at` until the row changes. */
export const timestampNow = () => timestamp({ withTimezone: true }).notNull().defaultNow();
