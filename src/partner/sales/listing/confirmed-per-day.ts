import { sql } from 'drizzle-orm';

import { BUSINESS_TIME_ZONE, lastDayOfMonth } from '../../../core/local-date.js';
import type { Queryable } from '../../../db/client.js';
import { sales } from '../../../db/schema/index.js';
import { salesListWhere } from './list.js';

/** The sales made effective (confirmed) on one day, and their value in cents. */
export interface DayConfirmed {
  day: string;
  count: number;
  totalValue: number;
}

/**
 * The partner's sales made effective on each day of the month `YYYY-MM-01` (Brasília days), days
 * without one left out: the rows the sales list shows for `startEffectiveDate`/`endEffectiveDate`
 * set to that day (its own WHERE, a sale cancelled afterwards included), of `creators` only when
 * given. The value is `checkoutPriceInCents`, as `salesBySellers.totalValue` sums it.
 */
export async function confirmedPerDay(
  db: Queryable,
  partnerId: string,
  month: string,
  creators?: string[],
): Promise<DayConfirmed[]> {
  const where = salesListWhere(partnerId, {
    effective: { from: month, to: lastDayOfMonth(month) },
    creators,
    useNewStatusTranslation: false,
  });
  const day = sql<string>`((${sales.madeEffectiveAt} at time zone ${BUSINESS_TIME_ZONE})::date)::text`;
  const rows = await db
    .select({
      day,
      count: sql<number>`count(*)::int`,
      totalValue: sql<string>`sum(${sales.checkoutPriceInCents})::bigint`,
    })
    .from(sales)
    .where(where)
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((r) => ({ day: r.day, count: r.count, totalValue: Number(r.totalValue) }));
}
