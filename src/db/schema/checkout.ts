import { index, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';

import { sales } from './sales.js';

/**
 * The buyer's last action at the hosted checkout of a sale (a page opened, a form sent): cart
 * abandonment is measured from it. One row per sale that the buyer ever opened.
 */
export const checkoutActivity = pgTable(
  'checkout_activity',
  {
    saleId: integer()
      .primaryKey()
      .references(() => sales.id),
    lastActivityAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('checkout_activity_last').on(t.lastActivityAt)],
);
