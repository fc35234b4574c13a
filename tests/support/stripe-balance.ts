import type Stripe from 'stripe';

import { type BalanceSeed, balanceTransaction } from './stripe-objects.js';

/**
 * Fees as Stripe publishes them for a Brazilian account, and as the double charges them: cards
 * 3.99 % + R$ 0.39, Pix 1.19 %, bank slips R$ 3.45 each, a dispute R$ 15.00; a refund costs nothing
 * unless a test says otherwise (`StripeDouble.refundFee`). Rounded to the cent. They differ from the
 * sandbox's table on purpose: what the books hold is what the balance transaction says.
 */
export const DOUBLE_FEES = {
  cardBasisPoints: 399,
  cardFixedCents: 39,
  pixBasisPoints: 119,
  boletoCents: 345,
  disputeCents: 1500,
} as const;

/** Stripe's fee of a payment of `amount` cents by `method` (`card`, `pix`, `boleto`). */
export function paymentFee(method: string, amount: number): number {
  if (method === 'boleto') return DOUBLE_FEES.boletoCents;
  if (method === 'pix') return Math.round((amount * DOUBLE_FEES.pixBasisPoints) / 10_000);
  return Math.round((amount * DOUBLE_FEES.cardBasisPoints) / 10_000) + DOUBLE_FEES.cardFixedCents;
}

type Nested = Record<string, unknown>;

/**
 * The account's balance: every balance transaction the double made, oldest first, which
 * `GET /v1/balance_transactions` lists (newest first, by `created`, in pages) and the objects that
 * name one answer expanded when asked.
 */
export class StripeBalance {
  readonly transactions: Stripe.BalanceTransaction[] = [];
  private sequence = 0;

  add(seed: BalanceSeed): Stripe.BalanceTransaction {
    const made = balanceTransaction(`txn_double${String(++this.sequence).padStart(6, '0')}`, seed);
    this.transactions.push(made);
    return made;
  }

  get(id: string): Stripe.BalanceTransaction | undefined {
    return this.transactions.find((t) => t.id === id);
  }

  /** `value` expanded when it names one of the account's transactions. */
  expanded(value: string | Stripe.BalanceTransaction | null): string | Stripe.BalanceTransaction | null {
    return typeof value === 'string' ? (this.get(value) ?? value) : value;
  }

  /** The list Stripe answers, each source expanded through `sourceOf` when `expand[]=data.source` is asked. */
  list(params: Nested, sourceOf: (id: string) => object | undefined): Stripe.ApiList<Stripe.BalanceTransaction> {
    const created = (params.created ?? {}) as Record<'gt' | 'gte' | 'lt' | 'lte', string | undefined>;
    const within = (at: number) =>
      (created.gt === undefined || at > Number(created.gt)) &&
      (created.gte === undefined || at >= Number(created.gte)) &&
      (created.lt === undefined || at < Number(created.lt)) &&
      (created.lte === undefined || at <= Number(created.lte));
    const matching = [...this.transactions]
      .reverse()
      .filter((t) => within(t.created) && (params.type === undefined || t.type === params.type))
      .sort((a, b) => b.created - a.created);
    const after = params.starting_after ? matching.findIndex((t) => t.id === params.starting_after) + 1 : 0;
    const limit = Number(params.limit ?? 10);
    const expand = ((params.expand ?? []) as string[]).includes('data.source');
    const data = matching.slice(after, after + limit).map((t) => {
      const source = expand && typeof t.source === 'string' ? sourceOf(t.source) : undefined;
      return source ? ({ ...t, source } as Stripe.BalanceTransaction) : t;
    });
    return { object: 'list', data, has_more: after + limit < matching.length, url: '/v1/balance_transactions' };
  }
}
