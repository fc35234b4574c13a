import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { findChargeRow } from '../charges.js';
import { ProviderRefused } from '../errors.js';
import type { Charge } from '../provider.js';
import { applyRefunds, findRefundRow, refuseRefund } from '../refunds.js';
import type { ApplyDeps } from './apply.js';
import { callStripe, idempotencyKey, refundIdempotencyKey } from './client.js';
import { providerRefundOf } from './refunds.js';

/**
 * The calls to Stripe that a state change decides and a job makes, once the change has committed:
 * no row lock is held while Stripe answers, and the job's retries repeat nothing at Stripe (each
 * call is keyed by the row it stands for).
 */

export interface ProviderJobDeps extends ApplyDeps {
  stripe: Stripe;
  /** Reads one charge's intent and applies it, exactly as its webhook event would. */
  refresh(db: Queryable, id: string): Promise<Charge | undefined>;
}

/**
 * Asks Stripe for a refund decided earlier, then records what Stripe answers (a card refund has
 * usually succeeded, a bank slip's waits for the payer's bank details). Stripe refusing it (the
 * payment was refunded or disputed meanwhile) marks it `FAILED` for the operator; Stripe
 * unreachable throws, and the job tries again.
 */
export async function refundAtStripe(db: Queryable, refundId: string, deps: ProviderJobDeps): Promise<void> {
  const refund = await findRefundRow(db, refundId);
  if (!refund || refund.status !== 'REQUESTED') return;
  const charge = (await findChargeRow(db, refund.chargeId))!;
  let made: Stripe.Refund;
  try {
    made = await callStripe('refunds.create', () =>
      deps.stripe.refunds.create(
        {
          payment_intent: charge.providerRef!,
          amount: refund.amountCents,
          reason: 'requested_by_customer',
          metadata: { chargeId: charge.id, refundId: refund.id, reason: refund.reason },
          expand: ['balance_transaction'],
        },
        { idempotencyKey: refundIdempotencyKey(refund.id) },
      ),
    );
  } catch (error) {
    if (!(error instanceof ProviderRefused)) throw error;
    deps.logger.error({ refundId, chargeId: charge.id, err: error }, 'Stripe refused a refund: the operator must act');
    await refuseRefund(db, refundId, error.message, deps.clock.now());
    return;
  }
  await db.transaction(async (tx) => {
    await applyRefunds(tx, (await findChargeRow(tx, charge.id, true))!, [providerRefundOf(made)], deps);
  });
}

/**
 * Cancels a charge at Stripe, then reads it back and applies what it is: cancelled (a card
 * session past its day ends `EXPIRED`), or paid after all (the payment is taken, or refunded when
 * it can no longer be applied). A charge paid or ended here already is left alone; one still
 * open before its end by the service clock is `not-due`.
 */
export async function cancelAtStripe(
  db: Queryable,
  chargeId: string,
  deps: ProviderJobDeps,
): Promise<'done' | 'not-due'> {
  const row = await findChargeRow(db, chargeId);
  const ref = row?.providerRef;
  if (!ref || !['PENDING', 'EXPIRED'].includes(row.status)) return 'done';
  if (row.status === 'PENDING' && (!row.expiresAt || row.expiresAt > deps.clock.now())) return 'not-due';
  try {
    await callStripe('paymentIntents.cancel', () =>
      deps.stripe.paymentIntents.cancel(
        ref,
        { cancellation_reason: 'abandoned' },
        { idempotencyKey: idempotencyKey(chargeId, 'cancel') },
      ),
    );
  } catch (error) {
    if (!(error instanceof ProviderRefused)) throw error;
    // Paid or cancelled in the meantime: Stripe refuses, and reading it again tells which.
    deps.logger.info({ err: error, chargeId }, 'charge could not be cancelled at Stripe');
  }
  await deps.refresh(db, chargeId);
  return 'done';
}
