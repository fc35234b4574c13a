import type Stripe from 'stripe';

import { localDate } from '../../core/local-date.js';
import type { ProviderFee } from '../provider-books.js';

/** Stripe's balance transactions: where its fees are stated, and when money moved. */

/** A fee as a balance transaction states it: its amount, its Brasília day and the transaction itself. */
export type StatedFee = Pick<ProviderFee, 'feeCents' | 'movedOn' | 'source'>;

/** The Brasília day of a balance transaction (`created`). */
export const balanceDay = (balance: Stripe.BalanceTransaction): string => localDate(new Date(balance.created * 1000));

export const feeOf = (balance: Stripe.BalanceTransaction): StatedFee => ({
  feeCents: balance.fee,
  movedOn: balanceDay(balance),
  source: balance.id,
});

/** The balance transaction when Stripe answered it expanded; an id alone (not asked) or null (none yet) is none. */
export const expandedBalance = (
  value: string | Stripe.BalanceTransaction | null | undefined,
): Stripe.BalanceTransaction | undefined => (typeof value === 'object' && value !== null ? value : undefined);

/** A dispute's fee of one of its balance transactions: the withdrawal's is the dispute's own, a later one (money back) is told apart. */
export const disputeFeeOf = (disputeRef: string, balance: Stripe.BalanceTransaction): ProviderFee => ({
  ...feeOf(balance),
  disputeRef,
  ...(balance.amount < 0 ? {} : { part: balance.id }),
});
