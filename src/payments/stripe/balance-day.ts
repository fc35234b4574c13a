import type Stripe from 'stripe';

import { addDays, startOfLocalDay } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { addUp, overpaidOf, unappliedCentsOf } from '../day-balance.js';
import type { DayBalance, ProviderMove } from '../provider-books.js';
import { ourBalances } from './balance-sources.js';
import { callStripe } from './client.js';

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * Stripe's balance transactions created on a Brasília day (all of them, page after page), those of
 * our charges as moves of their payment, refund or dispute; the others (payouts, Stripe's own
 * fees, other integrations on the account) only counted.
 */
export async function stripeBalanceOfDay(db: Queryable, stripe: Stripe, day: string): Promise<DayBalance> {
  const created = { gte: seconds(startOfLocalDay(day)), lt: seconds(startOfLocalDay(addDays(day, 1))) };
  const balances: Stripe.BalanceTransaction[] = [];
  await callStripe('balanceTransactions.list', async () => {
    for await (const balance of stripe.balanceTransactions.list({ created, limit: 100, expand: ['data.source'] }))
      balances.push(balance);
  });
  const ours = await ourBalances(db, balances);
  const paid = [...ours.values()].filter((o) => o.kind === 'charge').map((o) => o.charge.id);
  const overpaid = await overpaidOf(db, [...new Set(paid)]);
  const moves: ProviderMove[] = [];
  for (const balance of balances) {
    const our = ours.get(balance.id);
    if (!our) continue;
    const charge = our.charge;
    const move = { kind: our.kind, amountCents: balance.amount };
    const refund = our.kind === 'refund' ? our.refund : undefined;
    moves.push({
      kind: our.kind,
      chargeId: charge.id,
      refundId: refund?.id ?? null,
      disputeRef: our.kind === 'dispute' ? our.disputeRef : null,
      providerRef: our.kind === 'refund' ? our.refundRef : charge.providerRef,
      amountCents: balance.amount,
      unappliedCents: unappliedCentsOf(move, charge, overpaid.get(charge.id) ?? 0, refund?.reason),
      feeCents: balance.fee,
      cardInstallments: our.kind === 'charge' ? (charge.cardInstallments ?? 1) : 1,
      sources: [balance.id],
    });
  }
  return { moves: addUp(moves), ignored: balances.length - ours.size };
}
