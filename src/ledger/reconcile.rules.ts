import { equalShares } from '../core/shares.js';
import type { BookedMove, CashMoveKind } from './cash.js';

/**
 * The day's cash of the books against the provider's, per payment, refund and dispute. Only the
 * rules live here: the books' side is `cash.ts`, the provider's is its own (`PaymentProvider`
 * `balanceOfDay`), and the operator's command puts them side by side.
 */

/** What the provider moved for one payment, refund or dispute on the day (a `ProviderMove`). */
export interface ProviderSide {
  kind: CashMoveKind;
  chargeId: string;
  refundId: string | null;
  disputeRef: string | null;
  /** The provider's own id of what moved, when ours is not known (a refund not recorded here). */
  providerRef?: string | null;
  amountCents: number;
  /** Of `amountCents`, what was never applied to what the charge pays for: no tenant books it. */
  unappliedCents: number;
  feeCents: number;
  /** Card installments of a payment (1 for anything else). */
  cardInstallments: number;
  sources: string[];
}

/** One payment, refund or dispute whose books and provider disagree. */
export interface Difference {
  kind: CashMoveKind;
  chargeId: string | null;
  refundId: string | null;
  disputeRef: string | null;
  /** Whose books hold it (absent when they hold nothing of it). */
  tenant: { kind: string; id: string } | null;
  books: { amountCents: number; feeCents: number } | null;
  /** `expectedCents`: what the books should hold of `amountCents` (less what was never applied; a card's first installment). */
  provider: { amountCents: number; expectedCents: number; feeCents: number; sources: string[] } | null;
}

export interface DayComparison {
  /** Payments, refunds and disputes found on either side. */
  compared: number;
  missingInBooks: Difference[];
  missingAtProvider: Difference[];
  amountsDiffer: Difference[];
  feesDiffer: Difference[];
}

const keyOf = (m: {
  kind: CashMoveKind;
  chargeId: string | null;
  refundId: string | null;
  disputeRef: string | null;
}) => `${m.kind}:${m.refundId ?? m.disputeRef ?? m.chargeId}`;
const providerKeyOf = (m: ProviderSide) =>
  m.kind === 'refund' && !m.refundId ? `refund:provider:${m.providerRef ?? m.sources[0]}` : keyOf(m);

/**
 * What the books should hold of a provider's move: what was applied (less money kept out, paid
 * twice or above the debt), and of a card in installments the acquirer's first share, the one of
 * the day of the payment (equal shares, the odd cents on the first, as the books split it).
 */
export function expectedInBooks(move: ProviderSide, tenantKind?: string): number {
  const applied = move.amountCents - move.unappliedCents;
  // A partner's receipt books a card sale's installments on the day of the sale.
  if (move.kind !== 'charge' || move.cardInstallments <= 1 || tenantKind === 'partner') return applied;
  return equalShares(applied, move.cardInstallments)[0]!;
}

/** Compares a day of the books with the same day of the provider. */
export function compareDay(books: readonly BookedMove[], provider: readonly ProviderSide[]): DayComparison {
  const booked = new Map<string, BookedMove>();
  for (const m of books) {
    const key = keyOf(m);
    const seen = booked.get(key);
    // A move is one tenant's: should two tenants have booked it, both count.
    booked.set(
      key,
      seen ? { ...seen, amountCents: seen.amountCents + m.amountCents, feeCents: seen.feeCents + m.feeCents } : m,
    );
  }
  const result: DayComparison = {
    compared: 0,
    missingInBooks: [],
    missingAtProvider: [],
    amountsDiffer: [],
    feesDiffer: [],
  };
  const keys = new Set<string>();
  for (const move of provider) {
    const key = providerKeyOf(move);
    keys.add(key);
    const mine = booked.get(key);
    const expectedCents = expectedInBooks(move, mine?.tenantKind);
    const difference: Difference = {
      kind: move.kind,
      chargeId: move.chargeId,
      refundId: move.refundId,
      disputeRef: move.disputeRef,
      tenant: mine ? { kind: mine.tenantKind, id: mine.tenantId } : null,
      books: mine ? { amountCents: mine.amountCents, feeCents: mine.feeCents } : null,
      provider: { amountCents: move.amountCents, expectedCents, feeCents: move.feeCents, sources: move.sources },
    };
    result.compared++;
    if (!mine) {
      // Nothing to book (money never applied, and free): nothing missing.
      if (expectedCents !== 0 || move.feeCents !== 0) result.missingInBooks.push(difference);
      continue;
    }
    if (mine.amountCents !== expectedCents) result.amountsDiffer.push(difference);
    if (mine.feeCents !== move.feeCents) result.feesDiffer.push(difference);
  }
  for (const [key, mine] of booked) {
    if (keys.has(key)) continue;
    result.compared++;
    if (mine.amountCents === 0 && mine.feeCents === 0) continue;
    result.missingAtProvider.push({
      kind: mine.kind,
      chargeId: mine.chargeId,
      refundId: mine.refundId,
      disputeRef: mine.disputeRef,
      tenant: { kind: mine.tenantKind, id: mine.tenantId },
      books: { amountCents: mine.amountCents, feeCents: mine.feeCents },
      provider: null,
    });
  }
  return result;
}

/** How many payments, refunds and disputes differ. */
export const differencesOf = (c: DayComparison): number =>
  c.missingInBooks.length + c.missingAtProvider.length + new Set([...c.amountsDiffer, ...c.feesDiffer]).size;
