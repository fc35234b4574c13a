import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentProviderEvents } from '../../src/db/schema/index.js';
import { renderCardStep } from '../../src/payments/card-step.js';
import { createStripeClient } from '../../src/payments/stripe/client.js';
import { LivemodeMismatch, verifyStripeEvent } from '../../src/payments/stripe/signature.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../support/checkout.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { paymentPath, submitForm } from '../support/payments.js';
import { expectDelivered, saleCharges, saleLookup, STRIPE_TEST_KEYS, useStripeContext } from '../support/stripe.js';
import { signedDelivery } from '../support/stripe-double.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

const TEST_MODE_BANNER = 'Modo de teste do Stripe: nenhum valor real é cobrado.';
const SANDBOX_TEXT = /sandbox|Simular|Cartões de teste|Ambiente de testes/i;

describe('Stripe with test keys: events of live mode are refused, and the pages say no real money moves', () => {
  const s = useStripeContext();
  const { t } = s;
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  /** A sale waiting for its Pix at Stripe, and the PaymentIntent's id. */
  async function pixSale(externalSaleId: string) {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    return { ...sale, intentId: (await saleCharges(t, sale.saleId))[0]!.providerRef! };
  }

  it('answers a signed event of live mode 400 PSP-002 and changes nothing; the same event of test mode is then applied', async () => {
    const sale = await pixSale('LIVEMODE');
    const event = s.stripe.succeed(sale.intentId);
    const snapshot = async () => ({
      charges: await saleCharges(t, sale.saleId),
      sale: await saleLookup(t, partner.headers, sale.saleId),
      events: await eventsOf(t, sale.saleId),
      stored: (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from payment_provider_events`))[0]!
        .n,
    });
    const before = await snapshot();
    const res = await s.deliver({ ...event, livemode: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'PSP-002',
      message: 'Stripe event of live mode (livemode true), but this service runs with test-mode keys',
    });
    expect(await snapshot()).toEqual(before);
    expect(before.charges[0]!.status).toBe('PENDING');
    // The refusal recorded no event id: Stripe's own test-mode delivery is applied, not a duplicate.
    await expectDelivered(s, event, 'applied');
    expect((await saleCharges(t, sale.saleId))[0]!.status).toBe('PAID');
    expect(
      await t.ctx.db.select().from(paymentProviderEvents).where(eq(paymentProviderEvents.eventId, event.id)),
    ).toHaveLength(1);
  });

  it('live keys refuse a test-mode event the same way', async () => {
    const sale = await pixSale('TESTMODE');
    const event = s.stripe.succeed(sale.intentId);
    const live = {
      ...STRIPE_TEST_KEYS,
      secretKey: 'sk_live_51H8xAbc',
      publishableKey: 'pk_live_51H8xAbc',
      webhookSecretPrevious: undefined,
      apiBase: undefined,
      testMode: false,
    };
    const { body, signature } = signedDelivery(event, live.webhookSecret, t.clock.now());
    const verify = () => verifyStripeEvent(createStripeClient(live), live, t.clock, Buffer.from(body), signature);
    expect(verify).toThrow(LivemodeMismatch);
    expect(verify).toThrow('Stripe event of test mode (livemode false), but this service runs with live-mode keys');
  });

  it('the checkout and its card step show the test-mode banner, worded apart from the sandbox', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'BANNER' });
    const start = await request(t.app).get(sale.path).expect(200);
    expect(start.text).toContain(TEST_MODE_BANNER);
    expect(start.text).not.toMatch(SANDBOX_TEXT);
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const card = await request(t.app).post(`${sale.path}/cartao`).type('form').send({}).expect(303);
    const step = await request(t.app)
      .get(card.headers.location as string)
      .expect(200);
    expect(step.text).toContain(TEST_MODE_BANNER);
    expect(step.text).not.toMatch(SANDBOX_TEXT);
  });

  it('the installment payment page shows the test-mode banner', async () => {
    const inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'banner' })]);
    const path = await paymentPath(t, inst.headers, 'banner', CPF.carlos);
    const page = await submitForm(t, `${path}/pix`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(TEST_MODE_BANNER);
    expect(page.text).not.toMatch(SANDBOX_TEXT);
  });

  it('a card step with a live key has no banner', () => {
    const page = renderCardStep({
      brand: 'Escola',
      charge: {
        description: 'Parcela 1',
        amountCents: 1000,
      } as Parameters<typeof renderCardStep>[0]['charge'],
      session: { publishableKey: 'pk_live_51H8xAbc', clientSecret: 'pi_1_secret_2' },
      returnUrl: 'https://pagamentos.example.com/retorno',
      backUrl: '/pay/x',
    });
    expect(page).toContain('Pagamento com cartão de crédito');
    expect(page).not.toContain(TEST_MODE_BANNER);
  });
});
