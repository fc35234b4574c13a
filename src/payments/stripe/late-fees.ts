import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { paymentProviderCursors } from '../../db/schema/index.js';
import { toCharge } from '../charges.js';
import type { ProviderFee } from '../provider-books.js';
import type { ApplyDeps } from './apply.js';
import { disputeFeeOf, feeOf } from './balance.js';
import { type OurBalance, ourBalances } from './balance-sources.js';
import { callStripe } from './client.js';

/** The row of `payment_provider_cursors` of this walk (the walk over Stripe's events is `stripe`'s). */
export const FEES_CURSOR = 'stripe-fees';

/** The first run reads this far back, as the walk over events does. */
const FIRST_LOOKBACK_MS = 3 * 86_400_000;
/** Each run lists again this much before where the last one stopped: Stripe's list can show a transaction late. */
const OVERLAP_MS = 10 * 60_000;

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** What a balance transaction of ours costs, in the words of the books; none for a refund not recorded here yet. */
function feeOfBalance(balance: Stripe.BalanceTransaction, ours: OurBalance): ProviderFee | undefined {
  if (ours.kind === 'charge') return feeOf(balance);
  if (ours.kind === 'dispute') return disputeFeeOf(ours.disputeRef, balance);
  // Recorded later (its event, or the walk over events), from a list of refunds that states this fee.
  return ours.refund && { ...feeOf(balance), refundId: ours.refund.id };
}

/**
 * Fees are booked with the move whose balance transaction states them; a move applied before
 * Stripe put its money in the balance (the transaction not there yet) has its fee booked here:
 * Stripe's balance transactions created since the last run (up to `until`) are listed with their
 * source, and the fee of each of our payments, refunds and disputes is booked, once (one booked
 * already changes nothing). The cursor moves once every transaction listed was read; a run Stripe
 * cannot answer lists them again next time. Answers how many fees it booked.
 */
export async function bookLateFees(db: Queryable, deps: ApplyDeps & { stripe: Stripe }, until: Date): Promise<number> {
  const [cursor] = await db
    .select()
    .from(paymentProviderCursors)
    .where(eq(paymentProviderCursors.provider, FEES_CURSOR));
  const from = cursor
    ? new Date(cursor.listedUntil.getTime() - OVERLAP_MS)
    : new Date(deps.clock.now().getTime() - FIRST_LOOKBACK_MS);
  if (from >= until) return 0;
  const params = { created: { gt: seconds(from), lte: seconds(until) }, limit: 100, expand: ['data.source'] };
  const costly: Stripe.BalanceTransaction[] = [];
  await callStripe('balanceTransactions.list', async () => {
    for await (const balance of deps.stripe.balanceTransactions.list(params))
      if (balance.fee !== 0) costly.push(balance);
  });
  const ours = await ourBalances(db, costly);
  let booked = 0;
  for (const balance of costly) {
    const our = ours.get(balance.id);
    const fee = our && feeOfBalance(balance, our);
    if (fee && (await db.transaction((tx) => deps.books.fee(tx, toCharge(our.charge), fee)))) booked++;
  }
  if (booked > 0) deps.logger.warn({ booked }, 'Stripe fees stated after their move were booked');
  await db
    .insert(paymentProviderCursors)
    .values({ provider: FEES_CURSOR, listedUntil: until, updatedAt: deps.clock.now() })
    .onConflictDoUpdate({
      target: paymentProviderCursors.provider,
      set: {
        listedUntil: sql`greatest(${paymentProviderCursors.listedUntil}, excluded.listed_until)`,
        updatedAt: deps.clock.now(),
      },
    });
  return booked;
}
