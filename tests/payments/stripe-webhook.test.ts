import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentCharges, paymentProviderEvents, paymentRefunds } from '../../src/db/schema/index.js';
import { operateSale } from '../../src/partner/sales/checkout/operator.js';
import { withLockedSale } from '../../src/partner/sales/state/unit-of-work.js';
import { BUYER_FORM, CHECKOUT_SALE, eventsOf, givenCheckoutSale, post } from '../support/checkout.js';
import {
  expectDelivered,
  PREVIOUS_WEBHOOK_SECRET,
  saleCharges,
  saleLookup,
  STRIPE_TEST_KEYS,
  useStripeContext,
} from '../support/stripe.js';
import { signedDelivery } from '../support/stripe-double.js';
import { givenPartner } from '../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('Stripe events at POST /psp/stripe/webhook', () => {
  const s = useStripeContext();
  const { t } = s;
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const lookup = (saleId: number) => saleLookup(t, partner.headers, saleId);
  const chargeOf = async (saleId: number) => (await saleCharges(t, saleId))[0]!;
  const storedEvents = async () =>
    (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from payment_provider_events`))[0]!.n;

  /** A sale waiting for its Pix at Stripe; answers the sale and the PaymentIntent's id. */
  async function pixSale(externalSaleId: string, priceInCents = CHECKOUT_SALE.checkoutPriceInCents) {
    const products = CHECKOUT_SALE.products.map((p) => ({ ...p, variantPriceInCents: priceInCents }));
    const sale = await givenCheckoutSale(t, partner.headers, {
      externalSaleId,
      checkoutPriceInCents: priceInCents,
      products,
    });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    return { ...sale, intentId: (await chargeOf(sale.saleId)).providerRef! };
  }

  async function paidSale(externalSaleId: string) {
    const sale = await pixSale(externalSaleId);
    await expectDelivered(s, s.stripe.succeed(sale.intentId), 'applied');
    return sale;
  }

  /** What a refused delivery must leave as it was: the charge, the sale and the stored events. */
  async function snapshot(saleId: number) {
    return {
      charge: await chargeOf(saleId),
      sale: await lookup(saleId),
      events: await eventsOf(t, saleId),
      stored: await storedEvents(),
    };
  }

  it('refuses a missing, forged, tampered, other-secret or stale signature with 400 PSP-001 and changes nothing', async () => {
    const sale = await pixSale('SIG');
    const event = s.stripe.succeed(sale.intentId);
    const before = await snapshot(sale.saleId);
    const good = signedDelivery(event, STRIPE_TEST_KEYS.webhookSecret, t.clock.now());
    const noMatch = "Stripe-Signature does not sign this body: no signature matches the endpoint's secret";
    const attempts: [string, string | undefined, string, string][] = [
      ['missing', undefined, good.body, 'Stripe-Signature does not sign this body: the header is missing'],
      ['forged', 't=1768478400,v1=' + 'ab'.repeat(32), good.body, noMatch],
      ['tampered body', good.signature, good.body.replace('"amount":359000', '"amount":1'), noMatch],
      ['other secret', signedDelivery(event, 'whsec_someoneElse', t.clock.now()).signature, good.body, noMatch],
      [
        'six minutes old',
        signedDelivery(event, STRIPE_TEST_KEYS.webhookSecret, new Date(t.clock.now().getTime() - 360_000)).signature,
        good.body,
        'Stripe-Signature does not sign this body: signed more than 300 s ago',
      ],
      ['not JSON', good.signature, 'not json', noMatch],
    ];
    for (const [label, signature, body, message] of attempts) {
      const req = request(t.app).post('/psp/stripe/webhook').set('Content-Type', 'application/json');
      const res = await (signature ? req.set('Stripe-Signature', signature) : req).send(body);
      expect(res.status, label).toBe(400);
      expect(res.body, label).toEqual({ code: 'PSP-001', message });
    }
    expect(await snapshot(sale.saleId)).toEqual(before);
    expect(before.charge.status).toBe('PENDING');
  });

  it('applies an event id once: a redelivery is answered 200 duplicate and changes nothing', async () => {
    const sale = await pixSale('DUP');
    const event = s.stripe.succeed(sale.intentId);
    await expectDelivered(s, event, 'applied');
    const after = await snapshot(sale.saleId);
    await expectDelivered(s, event, 'duplicate');
    await expectDelivered(s, event, 'duplicate');
    expect(await snapshot(sale.saleId)).toEqual(after);
    expect(after.events.map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    const [stored] = await t.ctx.db
      .select()
      .from(paymentProviderEvents)
      .where(eq(paymentProviderEvents.eventId, event.id));
    expect(stored).toMatchObject({
      provider: 'stripe',
      type: 'payment_intent.succeeded',
      chargeId: after.charge.id,
      outcome: 'applied',
    });
  });

  it('acknowledges an event of a PaymentIntent that is no charge of ours without changing anything; one carrying our chargeId is kept as orphaned', async () => {
    const sale = await pixSale('FOREIGN');
    const event = s.stripe.succeed(sale.intentId);
    const object = { ...event.data.object, id: 'pi_notOurs', metadata: {} };
    await expectDelivered(s, { ...event, id: 'evt_foreign1', data: { object } }, 'ignored');
    // Our metadata on an intent with no row here: a charge whose transaction rolled back after Stripe made it.
    const orphan = {
      ...event,
      id: 'evt_orphan1',
      data: { object: { ...object, metadata: event.data.object.metadata } },
    };
    await expectDelivered(s, orphan, 'ignored');
    expect((await chargeOf(sale.saleId)).status).toBe('PENDING');
    const stored = await t.ctx.db
      .select({ eventId: paymentProviderEvents.eventId, outcome: paymentProviderEvents.outcome })
      .from(paymentProviderEvents)
      .where(sql`${paymentProviderEvents.eventId} in ('evt_foreign1', 'evt_orphan1')`)
      .orderBy(paymentProviderEvents.eventId);
    expect(stored).toEqual([
      { eventId: 'evt_foreign1', outcome: 'ignored' },
      { eventId: 'evt_orphan1', outcome: 'orphaned' },
    ]);
    const metrics = (await request(t.app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('edufin_payment_events_attention{kind="orphaned"} 1');
  });

  it('expiry: payment_intent.canceled sends invoiceExpired and the buyer is back at the checkout', async () => {
    const sale = await pixSale('EXPIRED');
    await expectDelivered(s, s.stripe.expire(sale.intentId), 'applied');
    expect((await chargeOf(sale.saleId)).status).toBe('EXPIRED');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated', 'invoiceExpired']);
    expect((await lookup(sale.saleId)).status).toBe('Em andamento');
  });

  it('a refund made in Stripe’s dashboard cancels the confirmed sale with purchaseCancelled once; a redelivery or a later dispute changes nothing', async () => {
    const sale = await paidSale('REFUND');
    const refunded = s.stripe.refundInDashboard(sale.intentId);
    await expectDelivered(s, refunded, 'applied');
    await expectDelivered(s, refunded, 'duplicate');
    await expectDelivered(s, s.stripe.disputeCharge(sale.intentId), 'unchanged');
    expect((await chargeOf(sale.saleId)).status).toBe('REFUNDED');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual([
      'invoiceCreated',
      'purchaseConfirmed',
      'purchaseCancelled',
    ]);
    const receipt = await request(t.app).get(`/receipts/detail/${sale.saleId}`).set(partner.headers).expect(200);
    expect(receipt.body.cancellation).toMatchObject({ isCancellation: true, data: [{ value: 359000 }] });
  });

  it('a partial refund records Stripe’s running total and leaves the sale confirmed; a redelivery changes nothing; the rest refunded cancels the sale', async () => {
    const price = 44990;
    const sale = await pixSale('PARTIAL-REFUND', price);
    await expectDelivered(s, s.stripe.succeed(sale.intentId), 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({
      status: 'PAID',
      paidAmountCents: price,
      refundedAmountCents: 0,
    });
    const first = s.stripe.refundInDashboard(sale.intentId, 10000);
    await expectDelivered(s, first, 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', refundedAmountCents: 10000 });
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    const second = s.stripe.refundInDashboard(sale.intentId, 5000);
    expect(second.data.object).toMatchObject({ amount_refunded: 15000, refunded: false });
    await expectDelivered(s, second, 'applied');
    await expectDelivered(s, second, 'duplicate');
    // The first event, delivered again under a new id (or late), cannot lower the running total.
    await expectDelivered(s, { ...first, id: 'evt_olderPartialRefund' }, 'unchanged');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', refundedAmountCents: 15000 });
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    await expectDelivered(s, s.stripe.refundInDashboard(sale.intentId), 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'REFUNDED', refundedAmountCents: price });
    expect((await lookup(sale.saleId)).status).toBe('Cancelado');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual([
      'invoiceCreated',
      'purchaseConfirmed',
      'purchaseCancelled',
    ]);
  });

  it('a refund delivered before its payment’s own event applies the payment (read from Stripe) and then the refund; the payment’s event then changes nothing', async () => {
    const sale = await pixSale('OUT-OF-ORDER');
    const paid = s.stripe.succeed(sale.intentId);
    await expectDelivered(s, s.stripe.refundInDashboard(sale.intentId), 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({
      status: 'REFUNDED',
      paidAmountCents: 359000,
      refundedAmountCents: 359000,
    });
    await expectDelivered(s, paid, 'unchanged');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual([
      'invoiceCreated',
      'purchaseConfirmed',
      'purchaseCancelled',
    ]);
  });

  it('a refund of a charge of no sale of ours is acknowledged and changes nothing', async () => {
    const sale = await paidSale('FOREIGN-REFUND');
    const refunded = s.stripe.refundInDashboard(sale.intentId);
    const before = await snapshot(sale.saleId);
    const object = { ...refunded.data.object, payment_intent: 'pi_notOurs' };
    await expectDelivered(s, { ...refunded, id: 'evt_foreignRefund', data: { object } }, 'ignored');
    expect({ ...(await snapshot(sale.saleId)), stored: before.stored }).toEqual(before);
  });

  it('sale:refund asks Stripe for the refund from a job, keyed by the refund; the sale is cancelled and its receipt records the refund when Stripe says it succeeded', async () => {
    const sale = await paidSale('OPERATOR');
    const charge = await chargeOf(sale.saleId);
    const asking = await withLockedSale(t.ctx.db, sale.saleId, (tx, locked) =>
      operateSale(tx, t.ctx, locked, 'refund'),
    );
    expect(asking.status).toBe('made_effective');
    expect((await eventsOf(t, sale.saleId)).filter((e) => e.name === 'purchaseCancelled')).toHaveLength(0);
    expect(s.stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds')).toEqual([]);
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', refundedAmountCents: 0 });
    const [asked] = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, charge.id));
    expect(asked).toMatchObject({ reason: 'OPERATOR', amountCents: 359000, status: 'REQUESTED' });

    await t.runJobs();
    expect(s.stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds')).toEqual([
      expect.objectContaining({
        idempotencyKey: `edufin-refund-${asked!.id}`,
        params: {
          payment_intent: sale.intentId,
          amount: '359000',
          reason: 'requested_by_customer',
          metadata: { chargeId: charge.id, refundId: asked!.id, reason: 'OPERATOR' },
          // Its balance transaction states Stripe's fee of it.
          expand: ['balance_transaction'],
        },
      }),
    ]);
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'REFUNDED', refundedAmountCents: 359000 });
    const [done] = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, charge.id));
    expect(done).toMatchObject({ status: 'SUCCEEDED', providerRef: s.stripe.refunds(sale.intentId)[0]!.id });
    await expectDelivered(s, s.stripe.eventsOfType('charge.refunded').at(-1)!, 'unchanged');
    expect((await eventsOf(t, sale.saleId)).filter((e) => e.name === 'purchaseCancelled')).toHaveLength(1);
  });

  it('sale:chargeback is refused with Stripe (PAYMENT-010): disputes come from Stripe, and nothing changes', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'NO-CB' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await request(t.app).post(`${sale.path}/cartao`).type('form').send({}).expect(303);
    const card = await chargeOf(sale.saleId);
    s.stripe.succeed(card.providerRef!, { brand: 'visa', last4: '4242' });
    await request(t.app).get(`${sale.path}/cartao/${card.id}/retorno`).expect(303);
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    await expect(
      withLockedSale(t.ctx.db, sale.saleId, (tx, locked) => operateSale(tx, t.ctx, locked, 'chargeback')),
    ).rejects.toMatchObject({ code: 'PAYMENT-010' });
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    expect((await chargeOf(sale.saleId)).status).toBe('PAID');
  });

  it('a Pix of a sale already confirmed by its bank slip, paid too, stays paid with the reason it was not applied; its refund leaves the sale confirmed', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'TWICE' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    await post(t, `${sale.path}/boleto`);
    const [older, newer] = await t.ctx.db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.saleId, sale.saleId))
      .orderBy(paymentCharges.createdAt, paymentCharges.providerRef);
    await expectDelivered(s, s.stripe.succeed(newer!.providerRef!), 'applied');
    await expectDelivered(s, s.stripe.succeed(older!.providerRef!), 'applied');
    const [kept] = await t.ctx.db.select().from(paymentCharges).where(eq(paymentCharges.id, older!.id));
    expect(kept).toMatchObject({ status: 'PAID', unappliedReason: expect.stringMatching(/^SALE-011: /) });
    expect((await eventsOf(t, sale.saleId)).filter((e) => e.name === 'purchaseConfirmed')).toHaveLength(1);
    await expectDelivered(s, s.stripe.refundInDashboard(older!.providerRef!), 'applied');
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).not.toContain('purchaseCancelled');
  });

  it('answers 405 to anything but POST', async () => {
    const res = await request(t.app).get('/psp/stripe/webhook');
    expect(res.status).toBe(405);
  });
});

describe('a webhook secret rotation (STRIPE_WEBHOOK_SECRET_PREVIOUS)', () => {
  const s = useStripeContext({}, { webhookSecretPrevious: PREVIOUS_WEBHOOK_SECRET });
  const { t } = s;

  async function pixIntent(externalSaleId: string) {
    const partner = await givenPartner(t.ctx);
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    return { ...sale, intentId: (await saleCharges(t, sale.saleId))[0]!.providerRef! };
  }
  const send = (body: string, signature: string) =>
    request(t.app)
      .post('/psp/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(body);

  it('applies once an event signed with the previous secret, the current one, or both as Stripe signs during the overlap', async () => {
    const sale = await pixIntent('ROTATION');
    const event = s.stripe.succeed(sale.intentId);
    const old = signedDelivery(event, PREVIOUS_WEBHOOK_SECRET, t.clock.now());
    const current = signedDelivery(event, STRIPE_TEST_KEYS.webhookSecret, t.clock.now());
    expect((await send(old.body, old.signature).expect(200)).body.outcome).toBe('applied');
    expect((await send(current.body, current.signature).expect(200)).body.outcome).toBe('duplicate');
    const both = `${current.signature},${old.signature.split(',')[1]}`;
    expect((await send(current.body, both).expect(200)).body.outcome).toBe('duplicate');
    expect((await saleCharges(t, sale.saleId))[0]).toMatchObject({ status: 'PAID', paidAmountCents: 359000 });
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
  });

  it('still refuses a third secret, and a stale signature of the previous one, with 400 PSP-001, and changes nothing', async () => {
    const sale = await pixIntent('ROTATION-REFUSED');
    const event = s.stripe.succeed(sale.intentId);
    const other = signedDelivery(event, 'whsec_neitherOfThem', t.clock.now());
    const stale = signedDelivery(event, PREVIOUS_WEBHOOK_SECRET, new Date(t.clock.now().getTime() - 360_000));
    expect((await send(other.body, other.signature).expect(400)).body).toEqual({
      code: 'PSP-001',
      message: "Stripe-Signature does not sign this body: no signature matches the endpoint's secret",
    });
    expect((await send(stale.body, stale.signature).expect(400)).body).toEqual({
      code: 'PSP-001',
      message: 'Stripe-Signature does not sign this body: signed more than 300 s ago',
    });
    expect((await saleCharges(t, sale.saleId))[0]!.status).toBe('PENDING');
    expect(await eventsOf(t, sale.saleId)).toEqual([expect.objectContaining({ name: 'invoiceCreated' })]);
  });
});
