import Stripe from 'stripe';

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

/**
 * Runs a call to Stripe, turning its failures into ours: a refusal (an amount below the minimum,
 * a payer it does not accept) is a 400, anything else (unreachable, rate limited, its own
 * fault, our keys) a 503 to try again.
 */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError)
      throw new ProviderRefused(error.message);
    if (error instanceof Stripe.errors.StripeError) throw new ProviderUnavailable(`${error.type}: ${error.message}`);
    throw error;
  }
}

/** A PaymentIntent with its latest charge, which names the card and the installments chosen. */
export const retrieveIntent = (stripe: Stripe, id: string) =>
  callStripe(() => stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));
