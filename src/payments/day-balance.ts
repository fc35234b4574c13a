import { and, eq, inArray, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { paymentRefunds } from '../db/schema/index.js';
import type { ProviderMove } from './provider-books.js';

/** What every provider's day of money shares: the money never applied, and moves added up per payment, refund or dispute. */

/** What each charge brought above its debt (its `OVERPAYMENT` refund, decided with the payment), by charge. */
export async function overpaidOf(db: Queryable, chargeIds: readonly string[]): Promise<Map<string, number>> {
  if (chargeIds.length === 0) return new Map();
  const rows = await db
    .select({ chargeId: paymentRefunds.chargeId, cents: sql<number>`sum(${paymentRefunds.amountCents})::bigint` })
    .from(paymentRefunds)
    .where(and(inArray(paymentRefunds.chargeId, [...chargeIds]), eq(paymentRefunds.reason, 'OVERPAYMENT')))
    .groupBy(paymentRefunds.chargeId);
  return new Map(rows.map((r) => [r.chargeId, Number(r.cents)]));
}

/**
 * Of a move's `amountCents`, what what the charge pays for never took: all of a payment kept
 * unapplied (paid twice, paid after its debt ended) and of its refunds and disputes; of another
 * payment what it brought above the debt, and the refund that gives that back.
 */
export function unappliedCentsOf(
  move: Pick<ProviderMove, 'kind' | 'amountCents'>,
  charge: { unappliedReason: string | null },
  overpaidCents: number,
  refundReason?: string,
): number {
  if (charge.unappliedReason) return move.amountCents;
  if (move.kind === 'charge') return Math.min(overpaidCents, move.amountCents);
  if (move.kind === 'refund' && refundReason === 'OVERPAYMENT') return move.amountCents;
  return 0;
}

const keyOf = (m: ProviderMove) => `${m.kind}:${m.refundId ?? m.disputeRef ?? m.providerRef ?? m.chargeId}`;

/** The moves of one payment, refund or dispute (a refund and its failure, a dispute's transactions) added up. */
export function addUp(moves: readonly ProviderMove[]): ProviderMove[] {
  const byKey = new Map<string, ProviderMove>();
  for (const m of moves) {
    const seen = byKey.get(keyOf(m));
    byKey.set(
      keyOf(m),
      seen
        ? {
            ...seen,
            amountCents: seen.amountCents + m.amountCents,
            unappliedCents: seen.unappliedCents + m.unappliedCents,
            feeCents: seen.feeCents + m.feeCents,
            sources: [...seen.sources, ...m.sources],
          }
        : m,
    );
  }
  return [...byKey.values()];
}
