import { apportion, proportion } from '../core/shares.js';

/** The money of an entry, in cents: amount = principal + fine + interest − discount. */
export interface Amounts {
  amount: number;
  commission: number;
  net: number;
  principal: number;
  fine: number;
  interest: number;
  discount: number;
}

export const ZERO: Amounts = { amount: 0, commission: 0, net: 0, principal: 0, fine: 0, interest: 0, discount: 0 };

export const negate = (a: Amounts): Amounts => ({
  amount: -a.amount,
  commission: -a.commission,
  net: -a.net,
  principal: -a.principal,
  fine: -a.fine,
  interest: -a.interest,
  discount: -a.discount,
});

export const add = (a: Amounts, b: Amounts): Amounts => ({
  amount: a.amount + b.amount,
  commission: a.commission + b.commission,
  net: a.net + b.net,
  principal: a.principal + b.principal,
  fine: a.fine + b.fine,
  interest: a.interest + b.interest,
  discount: a.discount + b.discount,
});

/**
 * `take` cents (0 < take ≤ what is left) of what is left of a record (all non-negative), with its
 * share of every figure: the commission and the discount in proportion, rounded half up; the
 * principal, fine and interest in proportion to what is left of each, largest remainders first.
 * Taking what is left takes exactly it, so a record taken back in several steps is taken back to
 * the cent, and no figure of a step ever goes below zero.
 */
export function shareOf(left: Amounts, take: number): Amounts {
  if (take === left.amount) return left;
  if (take <= 0 || take > left.amount) throw new Error(`cannot take ${take} of ${left.amount} cents`);
  const commission = proportion(left.commission, take, left.amount);
  // What of the amount the platform never held (a settlement the institution collected itself).
  const withheld = left.amount - left.commission - left.net;
  const net = take - commission - proportion(withheld, take, left.amount);
  const discount = proportion(left.discount, take, left.amount);
  const [principal, fine, interest] = apportion(
    BigInt(take + discount),
    [left.principal, left.fine, left.interest].map(BigInt),
  ).map(Number) as [number, number, number];
  return { amount: take, commission, net, principal, fine, interest, discount };
}
