import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../support/checkout.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { chargesOfLink, PAYER, paymentPath, submitForm } from '../support/payments.js';
import { expectDelivered, saleCharges, useStripeContext } from '../support/stripe.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

const VISA = { brand: 'visa', last4: '0002' };

describe('card attempts and repeated invoices with Stripe', () => {
  const s = useStripeContext({ config: { trustProxy: ['loopback'] } });
  const { t } = s;
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    inst = await givenInstitution(t.ctx);
    const late = { valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' };
    await submitAndProcess(
      t,
      inst.headers,
      ['reuse', 'pause', 'address'].map((idParcela) => installment({ idParcela, ...late })),
    );
  });

  const open = (idParcela: string) => paymentPath(t, inst.headers, idParcela, CPF.carlos);

  async function readySale(externalSaleId: string) {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    expect((await post(t, `${sale.path}/dados`, BUYER_FORM)).status).toBe(200);
    return sale;
  }

  /** Asks for the card step from `ip`: the redirect to the step, or the refusal. */
  const openCard = (path: string, ip = '203.0.113.20') =>
    request(t.app).post(path).set('X-Forwarded-For', ip).type('form').send({});
  const cancels = () => s.stripe.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel'));
  const installmentCharges = (path: string) => chargesOfLink(t, path);

  it('checkout: every payment_intent.payment_failed counts for the checkout, each declined session is closed at Stripe, and after 3 the card step and new sessions answer the pause', async () => {
    t.clock.set('2026-03-04T13:05:00Z');
    const sale = await readySale('STRIPE-PAUSE');
    expect((await openCard(`${sale.path}/cartao`)).status).toBe(303);
    const [first] = await saleCharges(t, sale.saleId);
    await expectDelivered(s, s.stripe.decline(first!.providerRef!, VISA, 'incorrect_cvc'), 'applied');
    // The declined session takes no other card at Stripe.
    expect(s.stripe.intent(first!.providerRef!).status).toBe('canceled');
    expect(cancels().map((r) => r.idempotencyKey)).toEqual([`edufin-charge-${first!.id}-cancel`]);
    // A tester confirming the same client secret again before it closed: Stripe's decline counts as well.
    await expectDelivered(s, s.stripe.decline(first!.providerRef!, VISA, 'insufficient_funds'), 'unchanged');

    const reopened = await openCard(`${sale.path}/cartao`);
    expect(reopened.status).toBe(303);
    const second = (await saleCharges(t, sale.saleId)).find((c) => c.id !== first!.id)!;
    expect((await request(t.app).get(reopened.headers.location as string)).status).toBe(200);

    await expectDelivered(s, s.stripe.decline(first!.providerRef!, VISA), 'unchanged');
    const step = await request(t.app).get(`${sale.path}/cartao/${second.id}`);
    expect(step.status).toBe(429);
    expect(step.headers['retry-after']).toBe('600');
    expect(step.text).not.toContain('payment-element');
    expect(step.text).toContain('Tente de novo a partir das 10:15 (horário de Brasília), daqui a 10 minutos.');
    expect(step.text).toContain('<time datetime="2026-03-04T13:15:00.000Z">10:15</time>');

    await expectDelivered(s, s.stripe.decline(second.providerRef!, VISA), 'applied');
    const creates = s.stripe.creates().length;
    const refused = await openCard(`${sale.path}/cartao`, '198.51.100.3');
    expect(refused.status).toBe(429);
    expect(s.stripe.creates()).toHaveLength(creates);
    // The issuer's reasons reached the partner's events, never the buyer's page.
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => (e.payload as { payment: { declinedReason: string } }).payment.declinedReason)).toEqual([
      'Código de segurança incorreto',
      'Cartão recusado pelo emissor',
    ]);
    expect(refused.text).not.toMatch(/Código de segurança|Cartão recusado pelo emissor/);

    t.clock.set('2026-03-04T13:15:00Z');
    expect((await openCard(`${sale.path}/cartao`)).status).toBe(303);
  });

  it('a decline read on the buyer’s return closes the session at Stripe too, and the page tells no reason', async () => {
    t.clock.set('2026-03-04T14:00:00Z');
    const sale = await readySale('STRIPE-RETURN');
    await openCard(`${sale.path}/cartao`);
    const [charge] = await saleCharges(t, sale.saleId);
    s.stripe.decline(charge!.providerRef!, VISA, 'insufficient_funds');
    const back = await request(t.app).get(`${sale.path}/cartao/${charge!.id}/retorno`).expect(303);
    expect(s.stripe.intent(charge!.providerRef!).status).toBe('canceled');
    const page = (await request(t.app).get(back.headers.location as string)).text;
    expect(page).toContain('Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.');
    expect(page).not.toContain('Saldo insuficiente');
  });

  it('an address opens at most 10 card sessions an hour, on checkouts and installment pages alike; another address still pays', async () => {
    t.clock.set('2026-03-04T16:00:00Z');
    const ip = '203.0.113.77';
    for (let i = 0; i < 10; i++) {
      const sale = await readySale(`STRIPE-IP-${i}`);
      expect((await openCard(`${sale.path}/cartao`, ip)).status).toBe(303);
    }
    const payPath = await paymentPath(t, inst.headers, 'address', CPF.carlos);
    const page = await request(t.app).get(payPath).set('X-Forwarded-For', ip);
    expect(page.text).toContain('<time datetime="2026-03-04T17:00:00.000Z">14:00</time>');
    const refused = await openCard(`${payPath}/card`, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(await installmentCharges(payPath)).toHaveLength(0);
    expect((await openCard(`${payPath}/card`, '198.51.100.9')).status).toBe(303);
  });

  it('installment page: Stripe’s declines pause the page, the list says Recusado without the reason', async () => {
    t.clock.set('2026-01-22T13:20:00Z');
    const path = await open('pause');
    for (let i = 0; i < 3; i++) {
      expect((await openCard(`${path}/card`)).status).toBe(303);
      const charge = (await installmentCharges(path)).find((c) => c.status === 'PENDING')!;
      await expectDelivered(s, s.stripe.decline(charge.providerRef!, VISA, 'incorrect_cvc'), 'applied');
    }
    const page = (await request(t.app).get(path).set('X-Forwarded-For', '203.0.113.20')).text;
    expect(page.match(/<span class="status DECLINED">Recusado<\/span>/g)).toHaveLength(3);
    expect(page).not.toContain('Código de segurança');
    expect(page).toContain('id="card-pause"');
    const refused = await openCard(`${path}/card`);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Tente de novo a partir das 10:30 (horário de Brasília), daqui a 10 minutos.');
  });

  it('a Pix or bank slip asked again while pending is the same PaymentIntent, on the checkout and the installment page', async () => {
    t.clock.set('2026-03-04T18:00:00Z');
    const sale = await readySale('STRIPE-REUSE');
    const before = s.stripe.creates().length;
    for (let i = 0; i < 3; i++) await post(t, `${sale.path}/pix`);
    for (let i = 0; i < 2; i++) await post(t, `${sale.path}/boleto`);
    expect(s.stripe.creates()).toHaveLength(before + 2);
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated', 'invoiceCreated']);

    const path = await open('reuse');
    for (let i = 0; i < 3; i++) expect((await submitForm(t, `${path}/pix`)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await submitForm(t, `${path}/boleto`, PAYER)).status).toBe(200);
    expect(s.stripe.creates()).toHaveLength(before + 4);
    expect((await installmentCharges(path)).map((c) => c.method).sort()).toEqual(['BOLETO', 'PIX']);
  });
});
