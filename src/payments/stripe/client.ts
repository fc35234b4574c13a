import { SpanKind } from '@opentelemetry/api';
import Stripe from 'stripe';

import { inSpan } from '../../telemetry/tracing.js';
import { ProviderRefused, ProviderUnavailable } from '../errors.js';

export type { Stripe };

/** The Stripe account to charge through (the deployment's `STRIPE_*` settings). */
export interface StripeAccount {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** The secret rolled away from, still accepted during a rotation's overlap. */
  webhookSecretPrevious: string | undefined;
  /** Another origin for Stripe's API: a local double in tests, a proxy in staging. */
  apiBase: URL | undefined;
  testMode: boolean;
}

/**
 * The SDK client. Requests carry the API version the SDK's types describe, so the shapes this
 * service reads are the ones it was type-checked against; every create call carries an
 * idempotency key, so the SDK's retries of a request that timed out never charge twice.
 */
export function createStripeClient(account: StripeAccount): Stripe {
  const base = account.apiBase;
  return new Stripe(account.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'edufin-integration' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/**
 * Stripe.js of the release train of the SDK's API version (`2026-10-28.endive` → `endive`): the
 * browser and the server speak the same version of the PaymentIntent.
 */
export const STRIPE_JS_URL = `https://js.stripe.com/${Stripe.API_VERSION.split('.')[1]}/stripe.js`;

/** Stripe's idempotency key of one call about one of our charges: repeating it repeats nothing. */
export const idempotencyKey = (chargeId: string, action: 'create' | 'cancel') => `edufin-charge-${chargeId}-${action}`;

/** Stripe's idempotency key of the call that makes one of our refunds. */
export const refundIdempotencyKey = (refundId: string) => `edufin-refund-${refundId}`;

/** The calls this service makes to Stripe, as the SDK names them: each one's span is `stripe.<call>`. */
export type StripeCall =
  | 'paymentIntents.create'
  | 'paymentIntents.retrieve'
  | 'paymentIntents.cancel'
  | 'refunds.create'
  | 'refunds.list'
  | 'events.list'
  | 'balanceTransactions.list';

/** Stripe's id of the request that answered, which its support asks for. */
const requestIdOf = (answer: unknown): string | undefined =>
  (answer as { lastResponse?: { requestId?: string } } | null)?.lastResponse?.requestId;

/**
 * Runs a call to Stripe in a span of its own (`stripe.paymentIntents.create`), turning its failures
 * into ours: a refusal (an amount below the minimum, a payer it does not accept) is a 400,
 * anything else (unreachable, rate limited, its own fault, our keys) a 503 to try again.
 */
export function callStripe<T>(name: StripeCall, call: () => Promise<T>): Promise<T> {
  return inSpan(`stripe.${name}`, { kind: SpanKind.CLIENT }, async (span) => {
    try {
      const answer = await call();
      const requestId = requestIdOf(answer);
      if (requestId) span.setAttribute('stripe.request_id', requestId);
      return answer;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      span.setAttribute('stripe.error.type', error.type);
      if (error.requestId) span.setAttribute('stripe.request_id', error.requestId);
      if (error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError)
        throw new ProviderRefused(error.message);
      throw new ProviderUnavailable(`${error.type}: ${error.message}`);
    }
  });
}

/**
 * A PaymentIntent with its latest charge, which names the card and the installments chosen, and
 * that charge's balance transaction, which states Stripe's fee once the payment is in the balance.
 */
export const retrieveIntent = (stripe: Stripe, id: string) =>
  callStripe('paymentIntents.retrieve', () =>
    stripe.paymentIntents.retrieve(id, { expand: ['latest_charge.balance_transaction'] }),
  );
