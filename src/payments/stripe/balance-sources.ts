import { and, eq, inArray, or } from 'drizzle-orm';
import type Stripe from 'stripe';

import { isUuid } from '../../core/stable-id.js';
import type { Queryable } from '../../db/client.js';
import { paymentCharges, paymentRefunds } from '../../db/schema/index.js';
import type { ChargeRow } from '../charges.js';
import type { RefundRow } from '../refunds.js';

/**
 * Which of our charges a balance transaction of Stripe's moved money of, read from its source
 * (listed with `expand: ['data.source']`): a charge (our payment), a refund (a refund of ours, or
 * one made at Stripe and not recorded here yet), or a dispute.
 */
export type OurBalance =
  | { kind: 'charge'; charge: ChargeRow }
  | { kind: 'refund'; charge: ChargeRow; refund: RefundRow | undefined; refundRef: string }
  | { kind: 'dispute'; charge: ChargeRow; disputeRef: string };

type Source = {
  object: string;
  id: string;
  payment_intent?: string | { id: string } | null;
  metadata?: Record<string, string> | null;
};

const sourceOf = (balance: Stripe.BalanceTransaction): Source | undefined => {
  const source = balance.source as Source | string | null;
  return typeof source === 'object' && source !== null ? source : undefined;
};

const intentOf = (source: Source | undefined) =>
  typeof source?.payment_intent === 'string' ? source.payment_intent : source?.payment_intent?.id;

/** The balance transactions of our charges, by their id; one of no charge of ours (a payout, a fee of Stripe's, another integration) is absent. */
export async function ourBalances(
  db: Queryable,
  balances: readonly Stripe.BalanceTransaction[],
): Promise<Map<string, OurBalance>> {
  const sources = balances.map((b) => [b, sourceOf(b)] as const);
  const intents = [...new Set(sources.map(([, s]) => intentOf(s)).filter((id): id is string => id !== undefined))];
  const refundSources = sources.map(([, s]) => s).filter((s): s is Source => s?.object === 'refund');
  const refundRefs = refundSources.map((s) => s.id);
  // A refund we asked for names our row, which knows its Stripe id only once Stripe's answer was recorded.
  const refundIds = refundSources.map((s) => s.metadata?.refundId).filter((id): id is string => isUuid(id ?? ''));
  const [charges, refunds] = await Promise.all([
    intents.length === 0
      ? []
      : db
          .select()
          .from(paymentCharges)
          .where(and(eq(paymentCharges.provider, 'stripe'), inArray(paymentCharges.providerRef, intents))),
    refundRefs.length === 0
      ? []
      : db
          .select()
          .from(paymentRefunds)
          .where(
            or(
              inArray(paymentRefunds.providerRef, refundRefs),
              ...(refundIds.length > 0 ? [inArray(paymentRefunds.id, refundIds)] : []),
            ),
          ),
  ]);
  const chargeOfIntent = new Map(charges.map((c) => [c.providerRef!, c]));
  const byRef = new Map(refunds.map((r) => [r.providerRef, r]));
  const byId = new Map(refunds.map((r) => [r.id, r]));
  const refundOf = (source: Source) => byRef.get(source.id) ?? byId.get(source.metadata?.refundId ?? '');
  const ours = new Map<string, OurBalance>();
  for (const [balance, source] of sources) {
    const charge = chargeOfIntent.get(intentOf(source) ?? '');
    if (!charge || !source) continue;
    if (source.object === 'charge') ours.set(balance.id, { kind: 'charge', charge });
    else if (source.object === 'refund')
      ours.set(balance.id, { kind: 'refund', charge, refund: refundOf(source), refundRef: source.id });
    else if (source.object === 'dispute') ours.set(balance.id, { kind: 'dispute', charge, disputeRef: source.id });
  }
  return ours;
}
