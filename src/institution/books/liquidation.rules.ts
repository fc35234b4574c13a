import { apportion, equalShares } from '../../core/shares.js';

/**
 * How one payment splits into the records of the management statement, in cents. A card payment
 * in M installments gives M records; every other payment one.
 *
 * Every record adds up: received = principal + interest + fine − discount. The records of one
 * payment sum exactly to it, part by part. The received amount and the discount split into equal
 * shares with the odd cents on the first record (the acquirer pays equal installments); each
 * record's gross (received + discount) is then shared among principal, fine and interest in
 * proportion to what is left of each, largest remainders first, so no part is ever rounded apart
 * from the others and none goes below zero.
 */

export interface LiquidationAmounts {
  received: number;
  principal: number;
  fine: number;
  interest: number;
  discount: number;
}

/** A payment as recorded: what was received and its late charges and discount. */
export type PaymentAmounts = Omit<LiquidationAmounts, 'principal'>;

/**
 * The `m` records of one payment. Its principal part is what the received amount leaves after the
 * late charges, plus the discount, so the payment itself always adds up.
 */
export function liquidationRecords(payment: PaymentAmounts, m: number): LiquidationAmounts[] {
  const principal = payment.received - payment.fine - payment.interest + payment.discount;
  if (m <= 1) return [{ ...payment, principal }];
  const received = equalShares(payment.received, m);
  const discount = equalShares(payment.discount, m);
  // [principal, fine, interest] still to share among the records that follow.
  let left = [principal, payment.fine, payment.interest].map(BigInt);
  if (left.some((v) => v < 0n)) {
    // Not a platform payment (reported amounts that do not add up): fine and interest in equal shares.
    const fine = equalShares(payment.fine, m);
    const interest = equalShares(payment.interest, m);
    return received.map((r, i) => ({
      received: r,
      fine: fine[i]!,
      interest: interest[i]!,
      discount: discount[i]!,
      principal: r - fine[i]! - interest[i]! + discount[i]!,
    }));
  }
  return received.map((r, i) => {
    const [p, f, n] = apportion(BigInt(r + discount[i]!), left);
    left = left.map((v, k) => v - [p!, f!, n!][k]!);
    return { received: r, principal: Number(p), fine: Number(f), interest: Number(n), discount: discount[i]! };
  });
}
