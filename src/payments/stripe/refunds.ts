import type Stripe from 'stripe';

import type { ProviderRefund, RefundStatus } from '../refunds.js';
import { callStripe } from './client.js';

const STATUSES: Record<string, Exclude<RefundStatus, 'REQUESTED'>> = {
  pending: 'PENDING',
  // A bank slip refund waits for the payer's bank details.
  requires_action: 'PENDING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  canceled: 'CANCELED',
};

/** A Stripe refund in our words. */
export const providerRefundOf = (refund: Stripe.Refund): ProviderRefund => ({
  providerRef: refund.id,
  amountCents: refund.amount,
  status: STATUSES[refund.status ?? 'pending'] ?? 'PENDING',
  failureReason: refund.failure_reason ?? null,
  refundId: refund.metadata?.refundId,
});

/** Every refund of a PaymentIntent, as Stripe states them now. */
export async function listRefunds(stripe: Stripe, intentId: string): Promise<ProviderRefund[]> {
  const refunds: ProviderRefund[] = [];
  await callStripe('refunds.list', async () => {
    for await (const refund of stripe.refunds.list({ payment_intent: intentId, limit: 100 }))
      refunds.push(providerRefundOf(refund));
  });
  return refunds;
}
