import { sql } from 'drizzle-orm';

import { addDays, firstDayOfMonth } from '../core/local-date.js';
import type { Queryable } from '../db/client.js';
import type { TenantKind } from './kinds.js';

/**
 * Months of the books. A month is open until the institution's closing of it; a closed month
 * takes no entry, so what moves money later is booked in the first month open after it (a partner
 * has no closings: its entries are booked in the month they moved).
 *
 * Booking and closing meet on one advisory lock per tenant: every booking holds it shared, a
 * closing (and a contract change) holds it alone, so no entry lands in a month while it closes.
 */

const lockKey = (tenantId: string) => sql`hashtext(${`statements:${tenantId}`})`;

/** Held by every booking until its transaction ends. */
export async function holdOpenPeriods(tx: Queryable, tenantId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${lockKey(tenantId)})`);
}

/** Held by a closing or a contract change until its transaction ends: bookings of the tenant wait. */
export async function lockPeriods(tx: Queryable, tenantId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(tenantId)})`);
}

/** The months of the tenant closed on or after `from` (`YYYY-MM-01`), ascending. */
export async function closedMonthsFrom(db: Queryable, tenantKind: TenantKind, tenantId: string, from: string) {
  if (tenantKind !== 'institution') return [];
  const rows = await db.execute<{ month: string }>(sql`
    select month::text as month from statement_closings
     where institution_id = ${tenantId}::uuid and month >= ${from}::date order by month`);
  return rows.map((r) => r.month);
}

const nextMonth = (month: string) => firstDayOfMonth(addDays(month, 32));

/** The month an entry that moved on `movedOn` is booked in, given the closed months (ascending). */
export function periodOf(movedOn: string, closed: readonly string[]): string {
  let month = firstDayOfMonth(movedOn);
  for (const c of closed) if (c === month) month = nextMonth(month);
  return month;
}
