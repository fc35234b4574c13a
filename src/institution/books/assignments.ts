import { and, eq, sql } from 'drizzle-orm';

import { parseCents } from '../../core/money.js';
import type { Queryable } from '../../db/client.js';
import { installmentAssignments, ledgerEntries } from '../../db/schema/index.js';
import { book, type LedgerEntry, type NewEntry } from '../../ledger/book.js';

/**
 * The guaranteed revenue of a closing in the books: each installment it assigned owes the
 * institution its guaranteed value in two transfers, one entry each (the commission on the first),
 * booked in the closed month itself as the closing writes it. A reopening (before any transfer)
 * books the reversal of the closing's entries before booking the new ones.
 */

const cents = (decimal: string) => {
  const negative = decimal.startsWith('-');
  const value = parseCents(negative ? decimal.slice(1) : decimal) ?? 0;
  return negative ? -value : value;
};

/** Books the assignments of `closingId` not booked yet. */
export async function bookAssignments(db: Queryable, institutionId: string, closingId: string): Promise<LedgerEntry[]> {
  const rows = await db
    .select()
    .from(installmentAssignments)
    .where(and(eq(installmentAssignments.closingId, closingId), eq(installmentAssignments.assigned, true)));
  const entries = rows.flatMap((a): NewEntry[] => {
    const transfer = (n: 1 | 2, value: string, on: string | null, commission: number): NewEntry => ({
      tenantKind: 'institution',
      tenantId: institutionId,
      kind: 'ASSIGNMENT',
      recordId: `${a.id}:${n}`,
      amountCents: 0,
      principalCents: 0,
      commissionCents: commission,
      netCents: cents(value),
      movedOn: a.month,
      period: a.month,
      transferOn: on,
      commissionPercent: a.commissionPercent,
      allocation: a.allocation,
      managementType: a.guaranteeType,
      product: 'Receita Garantida',
      externalId: a.externalId,
      installmentPrincipalCents: cents(a.principal),
      cause: `closing:${closingId}`,
      installmentId: a.installmentId,
      closingId,
    });
    return [
      transfer(1, a.firstTransferValue, a.firstTransferOn, cents(a.commissionValue)),
      transfer(2, a.secondTransferValue, a.secondTransferOn, 0),
    ];
  });
  return book(db, entries);
}

/** Books the reversal of a closing's assignment entries not reversed yet (a reopening, `cause` names it). */
export async function reverseAssignments(
  db: Queryable,
  institutionId: string,
  closingId: string,
  cause: string,
): Promise<LedgerEntry[]> {
  const standing = await db
    .select()
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.closingId, closingId),
        eq(ledgerEntries.kind, 'ASSIGNMENT'),
        sql`${ledgerEntries.reversesId} is null`,
        sql`not exists (select 1 from ledger_entries r where r.reverses_id = ${ledgerEntries.id})`,
      ),
    );
  return book(
    db,
    standing.map(({ id, createdAt: _, period, ...e }) => ({
      ...e,
      kind: 'ASSIGNMENT' as const,
      tenantKind: 'institution' as const,
      tenantId: institutionId,
      recordId: `${e.recordId}/${cause}`,
      period,
      amountCents: -e.amountCents,
      principalCents: -e.principalCents,
      fineCents: -e.fineCents,
      interestCents: -e.interestCents,
      discountCents: -e.discountCents,
      commissionCents: -e.commissionCents,
      netCents: -e.netCents,
      reversesId: id,
      cause,
    })),
  );
}
