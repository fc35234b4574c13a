import { asc, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';

import type { StripeSettings } from '../../src/config.js';
import { paymentCharges } from '../../src/db/schema/index.js';
import { BUYER_FORM, givenCheckoutSale, post } from './checkout.js';
import { type TestContext, type TestContextOptions, useTestContext } from './context.js';
import { signedDelivery, StripeDouble } from './stripe-double.js';

export const STRIPE_TEST_KEYS = {
  secretKey: 'sk_test_double51H8x',
  publishableKey: 'pk_test_double51H8x',
  webhookSecret: 'whsec_doubleSigningSecret',
} as const;

/** The secret rolled away from, for the contexts that configure a rotation's overlap. */
export const PREVIOUS_WEBHOOK_SECRET = 'whsec_doubleRolledAwayFrom';

export const stripeSettings = (apiBase: string): StripeSettings => ({
  ...STRIPE_TEST_KEYS,
  webhookSecretPrevious: undefined,
  apiBase: new URL(apiBase),
  testMode: true,
});

export interface StripeTestContext {
  t: TestContext;
  /** Stripe, as far as this service can tell: the double on loopback. */
  stripe: StripeDouble;
  /** Posts an event to `POST /psp/stripe/webhook`, signed as Stripe signs it (now, by the service clock). */
  deliver(event: Stripe.Event, options?: { secret?: string; at?: Date }): Promise<request.Response>;
}

/**
 * A test context whose payment provider is Stripe, pointed at a double of its own through
 * `STRIPE_API_BASE`: the same wiring production uses, with no internet. `settings` changes the
 * account's (a previous webhook secret).
 */
export function useStripeContext(
  options: TestContextOptions | (() => TestContextOptions) = {},
  settings: Partial<StripeSettings> = {},
): StripeTestContext {
  let double: StripeDouble | undefined;
  beforeAll(async () => {
    double = await StripeDouble.start(STRIPE_TEST_KEYS.secretKey, () => t.clock.now());
  });
  const t = useTestContext(() => {
    const given = typeof options === 'function' ? options() : options;
    const stripe = { ...stripeSettings(double!.url), ...settings };
    return { ...given, config: { paymentProvider: 'stripe', stripe, ...given.config } };
  });
  afterAll(async () => {
    await double?.close();
  });
  const stripe = new Proxy({} as StripeDouble, {
    get(_target, key) {
      if (!double) throw new Error('the Stripe double is read outside the hooks and tests of its block');
      const value = Reflect.get(double, key);
      return typeof value === 'function' ? value.bind(double) : value;
    },
    set(_target, key, value) {
      return Reflect.set(double!, key, value);
    },
  });
  return {
    t,
    stripe,
    async deliver(event, { secret = STRIPE_TEST_KEYS.webhookSecret, at = t.clock.now() } = {}) {
      const { body, signature } = signedDelivery(event, secret, at);
      return request(t.app)
        .post('/psp/stripe/webhook')
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', signature)
        .send(body);
    },
  };
}

/** Delivers an event and expects it taken with `outcome`. */
export async function expectDelivered(
  s: StripeTestContext,
  event: Stripe.Event,
  outcome: 'applied' | 'unchanged' | 'ignored' | 'duplicate',
) {
  const res = await s.deliver(event);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ received: true, eventId: event.id, type: event.type, outcome });
}

/** A sale as its partner looks it up (`GET /sales/purchase/{saleId}`): `status` in the lookup's words. */
export async function saleLookup(t: TestContext, headers: Record<string, string>, saleId: number) {
  return (await request(t.app).get(`/sales/purchase/${saleId}`).set(headers).expect(200)).body[0] as {
    status: string;
  };
}

/** The charges of a sale, oldest first (charges made in one instant by their Stripe id, which grows). */
export const saleCharges = (t: TestContext, saleId: number) =>
  t.ctx.db
    .select()
    .from(paymentCharges)
    .where(eq(paymentCharges.saleId, saleId))
    .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.providerRef));

/** A checkout sale confirmed by its Pix at Stripe, whose succeeded event arrived; with the PaymentIntent's id. */
export async function paidStripeSale(s: StripeTestContext, headers: Record<string, string>, externalSaleId: string) {
  const sale = await givenCheckoutSale(s.t, headers, { externalSaleId });
  await post(s.t, `${sale.path}/dados`, BUYER_FORM);
  await post(s.t, `${sale.path}/pix`);
  const intentId = (await saleCharges(s.t, sale.saleId))[0]!.providerRef!;
  await expectDelivered(s, s.stripe.succeed(intentId), 'applied');
  return { ...sale, intentId };
}

/** The receipt of a sale as its partner reads it: its reversals. */
export async function receiptReversals(t: TestContext, headers: Record<string, string>, saleId: number) {
  return (await request(t.app).get(`/receipts/detail/${saleId}`).set(headers).expect(200)).body as {
    cancellation: { isCancellation: boolean; data: { value: number; reason: string | null }[] };
    chargeBack: { isChargeBack: boolean; data: { value: number; reason: string | null }[] };
  };
}
