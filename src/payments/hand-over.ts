import type { Logger } from 'pino';

import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Queryable } from '../db/client.js';
import { paidCentsOf, toCharge, updateCharge } from './charges.js';
import type { Charge, ChargeListeners } from './provider.js';
import { requestRefund } from './refunds.js';
import { closeSiblings } from './siblings.js';

export interface HandOverDeps {
  clock: Clock;
  listeners: ChargeListeners;
  logger: Logger;
}

/**
 * What the listener's refusal of a payment does: the sandbox, which has not taken the money, undoes
 * the payment with the caller's transaction (`throw`); a provider that has it already keeps the
 * charge paid with `unappliedReason` and refunds it (`refund`).
 */
export type OnRefusal = 'throw' | 'refund';

/**
 * Hands a paid charge to what it pays for, in the transaction of the move. What the listener does
 * not keep (paid more than owed) is refunded; a refused payment is refunded whole (`refund`); an
 * applied one closes the charge's open siblings. The listener works inside a savepoint, so that a
 * refusal leaves nothing of its partial work behind.
 */
export async function handOverPayment(
  tx: Queryable,
  charge: Charge,
  deps: HandOverDeps,
  onRefusal: OnRefusal,
): Promise<Charge> {
  const listener = deps.listeners[charge.reference.kind];
  if (!listener) throw new Error(`no listener for charges of ${charge.reference.kind}`);
  const paidCents = charge.paidAmountCents ?? charge.amountCents;
  const now = deps.clock.now();
  let keptCents: number;
  try {
    keptCents = (await tx.transaction((savepoint) => listener.paid(savepoint, charge)))?.keptCents ?? paidCents;
  } catch (error) {
    if (!(error instanceof ApiError) || onRefusal === 'throw') throw error;
    deps.logger.warn(
      { chargeId: charge.id, reference: charge.reference, code: error.code },
      `paid at the provider but not applied (${error.message}): refunding it`,
    );
    const row = await updateCharge(tx, charge.id, { unappliedReason: `${error.code}: ${error.message}` });
    await requestRefund(tx, charge, 'UNAPPLIED', paidCentsOf(row), now);
    return toCharge(row);
  }
  if (keptCents < paidCents) {
    deps.logger.warn(
      { chargeId: charge.id, reference: charge.reference, paidCents, keptCents },
      'paid more than was owed: refunding the excess',
    );
    await requestRefund(tx, charge, 'OVERPAYMENT', paidCents - keptCents, now);
  }
  await closeSiblings(tx, charge, now);
  return charge;
}
