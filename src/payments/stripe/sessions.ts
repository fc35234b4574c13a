import type { Logger } from 'pino';
import type Stripe from 'stripe';

import type { Charge } from '../provider.js';
import { callStripe, idempotencyKey } from './client.js';

/**
 * A declined card session is closed at Stripe. The page never shows a declined session again (the
 * payer opens a new one, which the card limits count), but its client secret would still let
 * anyone holding it confirm card after card with Stripe.js, out of this service's sight. Best
 * effort, after the decline is recorded: a failure is logged, and the limits still count the
 * declines Stripe reports.
 */
export async function closeDeclinedSession(
  deps: { stripe: Stripe; logger: Logger },
  charge: Charge,
  intent: Stripe.PaymentIntent,
): Promise<void> {
  if (charge.method !== 'CARD' || charge.status !== 'DECLINED' || intent.status !== 'requires_payment_method') return;
  try {
    await callStripe('paymentIntents.cancel', () =>
      deps.stripe.paymentIntents.cancel(
        intent.id,
        { cancellation_reason: 'abandoned' },
        { idempotencyKey: idempotencyKey(charge.id, 'cancel') },
      ),
    );
  } catch (error) {
    deps.logger.warn({ err: error, chargeId: charge.id }, 'declined card session could not be closed at Stripe');
  }
}
