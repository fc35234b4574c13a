import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { operateSale } from '../../../src/partner/sales/checkout/operator.js';
import { withLockedSale } from '../../../src/partner/sales/state/unit-of-work.js';
import { BUYER_FORM, eventsOf, expectContractPayloads, givenCheckoutSale, post } from '../../support/checkout.js';
import { expectDelivered, saleCharges, saleLookup, STRIPE_TEST_KEYS, useStripeContext } from '../../support/stripe.js';
import { givenPartner } from '../../support/tenants.js';
import { deliverDue, givenConfiguration, useReceivers } from '../webhooks/support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

const SANDBOX_TEXT = /sandbox|Simular|Cartões de teste|Ambiente de testes|4111/i;

describe('the checkout paid through Stripe', () => {
  const s = useStripeContext();
  const { t } = s;
  const receiver = useReceivers();
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const lookup = (saleId: number) => saleLookup(t, partner.headers, saleId);
  const chargesOf = (saleId: number) => saleCharges(t, saleId);

  /** A sale with the buyer's data, its receiver of purchaseConfirmed and purchaseCancelled. */
  async function readySale(externalSaleId: string, overrides: Record<string, unknown> = {}) {
    const hook = await receiver();
    await givenConfiguration(t, partner.headers, hook.url, {
      enabledEvents: [{ name: 'purchaseConfirmed' }, { name: 'purchaseCancelled' }],
    });
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId, ...overrides });
    expect((await post(t, `${sale.path}/dados`, BUYER_FORM)).status).toBe(200);
    return { ...sale, hook };
  }

  /** Runs the deliveries due and answers the events the receiver got, by name. */
  async function delivered(hook: { received: { body: string }[] }) {
    t.clock.advance(20_000);
    await deliverDue(t);
    return hook.received.map((r) => JSON.parse(r.body) as { event: string; payment?: Record<string, unknown> });
  }

  it('Pix: a PaymentIntent of the price in BRL cents, the page shows Stripe’s QR code and its expiry, the signed event makes the sale Efetivado, purchaseConfirmed reaches the partner and the receipt opens', async () => {
    const sale = await readySale('STRIPE-PIX');
    const page = await post(t, `${sale.path}/pix`);
    expect(page.status).toBe(200);
    const [charge] = await chargesOf(sale.saleId);
    const [create] = s.stripe.creates();
    expect(create).toMatchObject({
      idempotencyKey: `edufin-charge-${charge!.id}-create`,
      params: {
        amount: '359000',
        currency: 'brl',
        allowed_payment_method_types: ['pix'],
        confirm: 'true',
        metadata: { chargeId: charge!.id, reference: `sale:${sale.saleId}` },
        payment_method_data: { type: 'pix', billing_details: { tax_id: '52998224725', name: 'Ana Beatriz Souza' } },
      },
    });
    // Stripe's Pix lives until the end of the Brasília day of the quote (the clock is 2026-01-15 09:00 there).
    expect(create!.params).toMatchObject({
      payment_method_options: { pix: { expires_at: String(Date.parse('2026-01-16T03:00:00Z') / 1000) } },
    });
    const intent = s.stripe.intent(charge!.providerRef!);
    const qr = intent.next_action!.pix_display_qr_code!;
    expect(page.text).toContain(`<img src="${qr.image_url_svg}"`);
    expect(page.text).toContain(qr.data);
    expect(page.text).toContain('Pague até 23:59 de 15/01/2026');
    expect(page.text).not.toMatch(SANDBOX_TEXT);
    expect(page.headers['content-security-policy']).toContain('img-src data: https://*.stripe.com');
    expect((await lookup(sale.saleId)).status).toBe('Aguardando pagamento');

    await expectDelivered(s, s.stripe.succeed(intent.id), 'applied');
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    expect(events[0]!.payload).toMatchObject({
      payment: { paymentMethod: 'pix', pix: { pixQrCode: qr.image_url_svg, pixQrCodeText: qr.data } },
    });
    await expectContractPayloads(events);
    expect((await delivered(sale.hook)).map((e) => e.event)).toEqual(['purchaseConfirmed']);

    const receipt = await request(t.app).get(`/receipts/detail/${sale.saleId}`).set(partner.headers).expect(200);
    expect(receipt.body.installments).toEqual([
      expect.objectContaining({ count: 1, originalValue: 359000, paidValue: 359000 }),
    ]);
    expect((await request(t.app).get(sale.path)).text).toContain('Pagamento confirmado');
  });

  it('boleto: registered with the buyer’s name, CPF, e-mail and address, due at 23:59 of the next business day; the page shows the digitable line and links Stripe’s voucher; paid, the sale is Efetivado', async () => {
    const sale = await readySale('STRIPE-BOLETO');
    const page = await post(t, `${sale.path}/boleto`);
    const [charge] = await chargesOf(sale.saleId);
    const create = s.stripe.creates().at(-1)!;
    expect(create).toMatchObject({
      idempotencyKey: `edufin-charge-${charge!.id}-create`,
      params: {
        amount: '359000',
        currency: 'brl',
        allowed_payment_method_types: ['boleto'],
        metadata: { chargeId: charge!.id, reference: `sale:${sale.saleId}` },
        payment_method_data: {
          type: 'boleto',
          boleto: { tax_id: '52998224725' },
          billing_details: {
            name: 'Ana Beatriz Souza',
            email: 'ana@example.com',
            address: {
              line1: 'Avenida Paulista, 1578',
              line2: 'Apto 42 - Bela Vista',
              city: 'São Paulo',
              state: 'SP',
              postal_code: '01310100',
              country: 'BR',
            },
          },
        },
        // Thursday 15/01: due on Friday, the next business day, within the sale's 7 days.
        payment_method_options: { boleto: { expires_after_days: '1' } },
      },
    });
    const boleto = s.stripe.intent(charge!.providerRef!).next_action!.boleto_display_details!;
    expect(charge!.digitableLine).toBe(boleto.number);
    expect(page.text).toContain(`href="${boleto.hosted_voucher_url}"`);
    expect(page.text).toContain('Linha digitável');
    expect(page.text).toContain('Pague até 23:59 de 16/01/2026');
    expect(page.text).not.toMatch(SANDBOX_TEXT);

    await expectDelivered(s, s.stripe.succeed(charge!.providerRef!), 'applied');
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    expect((await delivered(sale.hook)).map((e) => e.event)).toEqual(['purchaseConfirmed']);
    const receipt = await request(t.app).get(`/receipts/detail/${sale.saleId}`).set(partner.headers).expect(200);
    expect(receipt.body.installments).toHaveLength(1);
  });

  it('card: the card step mounts Stripe’s Payment Element with the client secret and a CSP for Stripe.js only; a decline sends paymentDeclined, the next session paid in 3 installments confirms with brand, last four and installments', async () => {
    const sale = await readySale('STRIPE-CARD');
    const checkout = await request(t.app).get(sale.path);
    expect(checkout.text).toContain('Pagar com cartão');
    expect(checkout.text).not.toContain('autocomplete="cc-number"');
    expect(checkout.text).not.toContain('name="cvv"');

    const opened = await request(t.app).post(`${sale.path}/cartao`).type('form').send({});
    expect(opened.status).toBe(303);
    const [first] = await chargesOf(sale.saleId);
    expect(opened.headers.location).toBe(`${sale.path}/cartao/${first!.id}`);
    expect(s.stripe.creates().at(-1)).toMatchObject({
      idempotencyKey: `edufin-charge-${first!.id}-create`,
      params: {
        amount: '359000',
        currency: 'brl',
        allowed_payment_method_types: ['card'],
        payment_method_options: { card: { installments: { enabled: 'true' } } },
        metadata: { chargeId: first!.id, reference: `sale:${sale.saleId}` },
      },
    });
    expect(s.stripe.creates().at(-1)!.params).not.toHaveProperty('confirm');

    const step = await request(t.app)
      .get(opened.headers.location as string)
      .expect(200);
    const intent = s.stripe.intent(first!.providerRef!);
    expect(step.text).toContain('<div id="payment-element"');
    expect(step.text).toContain(`data-secret="${intent.client_secret}"`);
    expect(step.text).toContain(`data-key="${STRIPE_TEST_KEYS.publishableKey}"`);
    expect(step.text).toContain(`data-return="${t.ctx.config.publicBaseUrl}${sale.path}/cartao/${first!.id}/retorno"`);
    expect(step.text).toMatch(/<script src="https:\/\/js\.stripe\.com\/[a-z]+\/stripe\.js" defer><\/script>/);
    expect(step.text).not.toMatch(SANDBOX_TEXT);
    const csp = step.headers['content-security-policy'] as string;
    expect(csp).toMatch(
      /script-src 'sha256-[^']+' 'sha256-[^']+' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com;/,
    );
    expect(csp).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain('connect-src https://api.stripe.com');
    expect(csp).toContain("form-action 'self'");
    // Asking again resumes the open session instead of a new PaymentIntent.
    const again = await request(t.app).post(`${sale.path}/cartao`).type('form').send({});
    expect(again.headers.location).toBe(opened.headers.location);
    expect(
      s.stripe
        .creates()
        .filter(
          (r) => r.params.metadata && (r.params.metadata as { reference: string }).reference === `sale:${sale.saleId}`,
        ),
    ).toHaveLength(1);

    s.stripe.decline(intent.id, { brand: 'visa', last4: '0002' }, 'insufficient_funds');
    const back = await request(t.app).get(
      `${sale.path}/cartao/${first!.id}/retorno?payment_intent=${intent.id}&redirect_status=failed`,
    );
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(`${sale.path}?aviso=recusado`);
    const told = (await request(t.app).get(back.headers.location as string)).text;
    expect(told).toContain('Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.');
    expect(told).not.toContain('Saldo insuficiente');

    const retry = await request(t.app).post(`${sale.path}/cartao`).type('form').send({});
    const second = (await chargesOf(sale.saleId)).find((c) => c.id !== first!.id)!;
    expect(retry.headers.location).toBe(`${sale.path}/cartao/${second.id}`);
    const paid = s.stripe.succeed(second.providerRef!, { brand: 'mastercard', last4: '4444', installments: 3 });
    const returned = await request(t.app).get(`${sale.path}/cartao/${second.id}/retorno`);
    expect(returned.headers.location).toBe(sale.path);
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    // Stripe's own event, arriving after the buyer's return, changes nothing more.
    await expectDelivered(s, paid, 'unchanged');

    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['paymentDeclined', 'purchaseConfirmed']);
    expect(events[0]!.payload).toMatchObject({
      payment: {
        paymentMethod: 'creditCard',
        declinedReason: 'Saldo insuficiente',
        creditCard: { cardBrand: 'Visa', lastFourDigits: '0002', numberOfInstallments: 1 },
      },
    });
    expect(events[1]!.payload).toMatchObject({
      payment: {
        paymentMethod: 'creditCard',
        creditCard: { cardBrand: 'Mastercard', lastFourDigits: '4444', numberOfInstallments: 3 },
      },
    });
    await expectContractPayloads(events);
    expect((await delivered(sale.hook)).map((e) => e.event)).toEqual(['purchaseConfirmed']);
    const receipt = await request(t.app).get(`/receipts/detail/${sale.saleId}`).set(partner.headers).expect(200);
    expect(receipt.body.installments.map((i: { status: string }) => i.status)).toEqual(['paid', 'paid', 'paid']);
  });

  it('financing: the entry is a Stripe boleto of the entry with the fee; paid, the sale is Efetivado with the financing', async () => {
    const sale = await readySale('STRIPE-FIN');
    await post(t, `${sale.path}/financiamento`);
    await post(t, `${sale.path}/financiamento/aceite`);
    const [charge] = await chargesOf(sale.saleId);
    expect(charge).toMatchObject({ method: 'BOLETO', status: 'PENDING' });
    expect(s.stripe.creates().at(-1)!.params).toMatchObject({
      amount: String(charge!.amountCents),
      allowed_payment_method_types: ['boleto'],
    });
    await expectDelivered(s, s.stripe.succeed(charge!.providerRef!), 'applied');
    const confirmed = (await eventsOf(t, sale.saleId)).at(-1)!;
    expect(confirmed).toMatchObject({
      name: 'purchaseConfirmed',
      payload: { payment: { financing: expect.any(Object) } },
    });
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
  });

  it('a sale closed while Stripe makes its Pix never announces it: the charge ends here, is cancelled at Stripe, and the buyer is told the checkout closed', async () => {
    const sale = await readySale('STRIPE-CLOSED-MEANWHILE');
    let release!: () => void;
    s.stripe.createGate = new Promise((resolve) => (release = resolve));
    const creates = s.stripe.creates().length;
    try {
      const asking = request(t.app)
        .post(`${sale.path}/pix`)
        .type('form')
        .send({})
        .then((res) => res);
      while (s.stripe.creates().length === creates) await new Promise((resolve) => setImmediate(resolve));
      // No lock on the sale while Stripe answers: the operator expires it meanwhile.
      await withLockedSale(t.ctx.db, sale.saleId, (tx, locked) => operateSale(tx, t.ctx, locked, 'expire'));
      release();
      expect((await asking).status).toBeGreaterThanOrEqual(400);
    } finally {
      s.stripe.createGate = undefined;
      release();
    }
    const [charge] = await chargesOf(sale.saleId);
    expect(charge).toMatchObject({ status: 'EXPIRED' });
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).not.toContain('invoiceCreated');
    await t.runJobs();
    expect(s.stripe.intent(charge!.providerRef!).status).toBe('canceled');
  });
});
