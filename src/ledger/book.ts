import { sql } from 'drizzle-orm';

import { firstDayOfMonth } from '../core/local-date.js';
import type { Queryable } from '../db/client.js';
import { ledgerEntries } from '../db/schema/index.js';
import type { LedgerKind, TenantKind } from './kinds.js';
import { closedMonthsFrom, holdOpenPeriods, periodOf } from './periods.js';

export type LedgerEntry = typeof ledgerEntries.$inferSelect;
type Row = typeof ledgerEntries.$inferInsert;

/** An entry to book: everything but its id, its period (decided here) and when it was written. */
export type NewEntry = Omit<Row, 'id' | 'period' | 'createdAt' | 'kind' | 'tenantKind'> & {
  kind: LedgerKind;
  tenantKind: TenantKind;
  /** Book in this month whatever its day (a closing's own entries); default: the period of `movedOn`. */
  period?: string;
};

/**
 * Books entries of one tenant in the caller's transaction: each in the month it moved, or the first
 * one open after it. A record already booked (same tenant and `recordId`) is left as it was, so a
 * cause applied twice books once. Answers the entries written now.
 */
export async function book(tx: Queryable, entries: readonly NewEntry[]): Promise<LedgerEntry[]> {
  if (entries.length === 0) return [];
  const { tenantKind, tenantId } = entries[0]!;
  if (entries.some((e) => e.tenantId !== tenantId)) throw new Error('book() takes the entries of one tenant');
  await holdOpenPeriods(tx, tenantId);
  const earliest = entries.reduce((min, e) => (e.movedOn < min ? e.movedOn : min), entries[0]!.movedOn);
  const closed = await closedMonthsFrom(tx, tenantKind, tenantId, firstDayOfMonth(earliest));
  const rows: Row[] = entries.map((e) => ({ ...e, period: e.period ?? periodOf(e.movedOn, closed) }));
  return tx
    .insert(ledgerEntries)
    .values(rows)
    .onConflictDoNothing({ target: [ledgerEntries.tenantId, ledgerEntries.recordId] })
    .returning();
}

/** The entries of one cause (a refund, a dispute's withdrawal…), in booking order. */
export function entriesOfCause(db: Queryable, tenantId: string, cause: string): Promise<LedgerEntry[]> {
  return db
    .select()
    .from(ledgerEntries)
    .where(sql`${ledgerEntries.tenantId} = ${tenantId} and ${ledgerEntries.cause} = ${cause}`)
    .orderBy(ledgerEntries.id);
}
