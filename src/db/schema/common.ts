import { timestamp } from 'drizzle-orm/pg-core';

/** `created_at`/`updated_at` columns: timestamptz, set on insert. */
export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
