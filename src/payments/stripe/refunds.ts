import type Stripe from 'stripe';

import type { ProviderRefund, RefundStatus } from '../refunds.js';
import { expandedBalance, feeOf } from './balance.js';
import { callStripe } from './client.js';

const STATUSES: Record<string, Exclude<RefundStatus, 'REQUESTED'>> = {
  pending: 'PENDING',
  // A bank slip refund waits for the payer's bank details.
  requires_action: 'PENDING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  canceled: 'CANCELED',
};

/** A Stripe refund in our words, with its fee when it came with its balance transaction expanded. */
export function providerRefundOf(refund: Stripe.Refund): ProviderRefund {
  const balance = expandedBalance(refund.balance_transaction);
  return {
    providerRef: refund.id,
    amountCents: refund.amount,
    status: STATUSES[refund.status ?? 'pending'] ?? 'PENDING',
    failureReason: refund.failure_reason ?? null,
    refundId: refund.metadata?.refundId,
    ...(balance ? { fee: feeOf(balance) } : {}),
  };
}

/** Every refund of a PaymentIntent, as Stripe states them now, with their balance transactions. */
export async function listRefunds(stripe: Stripe, intentId: string): Promise<ProviderRefund[]> {
  const refunds: ProviderRefund[] = [];
  const params = { payment_intent: intentId, limit: 100, expand: ['data.balance_transaction'] };
  await callStripe('refunds.list', async () => {
    for await (const refund of stripe.refunds.list(params)) refunds.push(providerRefundOf(refund));
  });
  return refunds;
}
