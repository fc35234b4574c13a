import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  BUYER_FORM,
  eventsOf,
  expectContractPayloads,
  givenCheckoutSale,
  payButtons,
  post,
} from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
const CARD = { holderName: 'ANA B SOUZA', expiryMonth: '12', expiryYear: '2030', cvv: '123', installments: '3' };

describe('the buyer journey at the hosted checkout', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
  });

  const lookup = async (saleId: number, who: Partner = partner) =>
    (await request(t.app).get(`/sales/purchase/${saleId}`).set(who.headers)).body;

  it('walks create → page → buyer data → Pix → pay to made_effective, with invoiceCreated then purchaseConfirmed matching the contract', async () => {
    const sale = await givenCheckoutSale(t, partner.headers);
    const page = await request(t.app).get(sale.path).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.text).toContain('R$ 3.590,00');
    expect(page.text).toContain('<label for="comprador-email">E-mail</label>');

    const filled = await post(t, `${sale.path}/dados`, BUYER_FORM);
    expect(filled.status).toBe(200);
    expect(filled.text).toContain('Pagar com Pix');
    expect((await lookup(sale.saleId))[0]).toMatchObject({
      status: 'Em andamento',
      buyer: { name: 'Ana Beatriz Souza', phone: '11987654321', zipCode: '01310100', city: 'São Paulo' },
    });

    const pix = await post(t, `${sale.path}/pix`);
    expect(pix.text).toContain('Pix copia e cola');
    const [chargeId] = payButtons(pix.text);
    expect((await lookup(sale.saleId))[0].status).toBe('Aguardando pagamento');

    const paid = await post(t, `${sale.path}/cobrancas/${chargeId}/pagar`);
    expect(paid.text).toContain('Pagamento confirmado');
    expect((await lookup(sale.saleId))[0].status).toBe('Efetivado');

    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    expect(events[0]!.payload).toMatchObject({
      payment: { paymentMethod: 'pix', pix: { pixQrCodeText: expect.stringMatching(/^000201/) } },
      guarantor: null,
    });
    expect(events[1]!.payload).toMatchObject({
      checkout: { saleId: sale.saleId, price: '3590.00', madeEffectiveAt: expect.any(String) },
      payment: { paymentMethod: 'pix' },
    });
    await expectContractPayloads(events);
  });

  it('declines a card with one message for every reason and paymentDeclined with the reason at every attempt, then approves a retry keeping brand and last four', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'CARD' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    for (const number of ['4000000000000002', '4000000000009995']) {
      const declined = await post(t, `${sale.path}/cartao`, { ...CARD, number });
      expect(declined.text).toContain(
        '<p class="notice error" role="alert">Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.</p>',
      );
      expect(declined.text).not.toMatch(/Saldo insuficiente|Cartão recusado pelo emissor/);
    }
    const approved = await post(t, `${sale.path}/cartao`, { ...CARD, number: '5555555555554444' });
    expect(approved.text).toContain('Pagamento confirmado');
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['paymentDeclined', 'paymentDeclined', 'purchaseConfirmed']);
    expect(events[0]!.payload).toMatchObject({
      payment: {
        declinedReason: 'Cartão recusado pelo emissor',
        creditCard: { cardBrand: 'Visa', lastFourDigits: '0002' },
      },
    });
    expect(events[0]!.payload).not.toHaveProperty('guarantor');
    expect(events[2]!.payload).toMatchObject({
      payment: {
        paymentMethod: 'creditCard',
        creditCard: { cardBrand: 'Mastercard', lastFourDigits: '4444', numberOfInstallments: 3 },
      },
    });
    await expectContractPayloads(events);
  });

  it('finances with a guarantor: CPF ending 6 asks one, the approved guarantor gives guarantorNeeded, the entry invoice paid confirms with the financing', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { cpf: '39053344616', externalSaleId: 'FIN' });
    await post(t, `${sale.path}/dados`, { ...BUYER_FORM, cpf: '390.533.446-16' });
    const asked = await post(t, `${sale.path}/financiamento`);
    expect(asked.text).toContain('indique um avalista');
    expect(asked.text).toContain('Taxa de cadastro');
    expect(asked.text).toContain('12 parcelas de');
    const bad = await post(t, `${sale.path}/financiamento/avalista`, {
      ...BUYER_FORM,
      cpf: '390.533.446-16',
      email: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('O avalista deve ser outra pessoa.');
    expect(bad.text).toContain('Informe um e-mail válido');
    expect(bad.text).toContain('value="Avenida Paulista"');
    const named = await post(t, `${sale.path}/financiamento/avalista`, {
      ...BUYER_FORM,
      name: 'Carlos Souza',
      cpf: '111.444.777-35',
      email: 'carlos@example.com',
    });
    expect(named.text).toContain('aguardando o avalista');
    const signed = await post(t, `${sale.path}/financiamento/avalista/aceite`);
    expect(signed.text).toContain('Boleto de entrada do financiamento');
    const [entry] = payButtons(signed.text);
    await post(t, `${sale.path}/cobrancas/${entry}/pagar`);
    expect((await lookup(sale.saleId))[0].status).toBe('Efetivado');

    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['guarantorNeeded', 'invoiceCreated', 'purchaseConfirmed']);
    expect(events[0]!.payload).toMatchObject({
      guarantor: { name: 'Carlos Souza', personalDocument: '11144477735' },
      checkout: { financingDetails: { currentStep: 'Documentos do avalista' } },
    });
    expect(events[1]!.payload).toMatchObject({
      payment: { paymentMethod: 'creditAsAService', digitableLine: expect.any(String) },
      checkout: { financingDetails: { currentStep: 'Pagamento da entrada' } },
    });
    expect(events[2]!.payload).toMatchObject({
      payment: {
        financing: {
          upfrontAmount: '408.90',
          userRegistrationFee: '49.90',
          monthlyInterest: '1.99',
          numberOfInstallments: 12,
        },
      },
    });
    await expectContractPayloads(events);
  });

  it('a guarantor refused by the analysis: financingDenied carries the guarantor named, not null', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { cpf: '39053344616', externalSaleId: 'FIN-REFUSED' });
    await post(t, `${sale.path}/dados`, { ...BUYER_FORM, cpf: '390.533.446-16' });
    await post(t, `${sale.path}/financiamento`);
    await post(t, `${sale.path}/financiamento/avalista`, {
      ...BUYER_FORM,
      name: 'Paulo Recusado',
      cpf: '123.456.789-09',
      email: 'paulo@example.com',
    });
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['financingDenied']);
    expect(events[0]!.payload).toMatchObject({
      guarantor: { name: 'Paulo Recusado', personalDocument: '12345678909' },
    });
    await expectContractPayloads(events);
  });

  it("the upfrontValue of a financed sale in GET /sales is the entry paid, the receipt's installment 0", async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'FIN-UPFRONT' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/financiamento`);
    const accepted = await post(t, `${sale.path}/financiamento/aceite`);
    const [entry] = payButtons(accepted.text);
    await post(t, `${sale.path}/cobrancas/${entry}/pagar`);
    const listed = await request(t.app)
      .get('/sales')
      .query({ CreditRequestId: sale.saleId })
      .set(partner.headers)
      .expect(200);
    // 10% of 3590.00 plus the registration fee of 49.90.
    expect(listed.body.content[0]).toMatchObject({ id: sale.saleId, upfrontValue: 40890 });
    const receipt = await request(t.app).get(`/receipts/detail/${sale.saleId}`).set(partner.headers).expect(200);
    expect(receipt.body.hasUpFront).toBe(true);
    expect(receipt.body.installments[0]).toMatchObject({ count: 0, originalValue: 40890 });
  });

  it('denies the financing of a CPF ending 8 or 9 with financingDenied once, and the buyer can still pay by Pix', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { cpf: '12345678909', externalSaleId: 'DENY' });
    await post(t, `${sale.path}/dados`, { ...BUYER_FORM, cpf: '12345678909' });
    const denied = await post(t, `${sale.path}/financiamento`);
    expect(denied.text).toContain('Financiamento negado');
    expect((await lookup(sale.saleId))[0].status).toBe('Negado');
    const again = await post(t, `${sale.path}/financiamento`);
    expect(again.status).toBe(400);
    const pix = await post(t, `${sale.path}/pix`);
    expect(pix.text).toContain('Pix copia e cola');
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['financingDenied', 'invoiceCreated']);
    // Denied at the credit analysis of the buyer's basic data: the step the buyer was on.
    expect(events[0]!.payload).toMatchObject({
      checkout: {
        financingDetails: {
          currentStep: 'Informações básicas do aluno',
          deniedReason: 'Crédito não aprovado na análise de risco',
        },
      },
    });
    expect(events[0]!.payload).not.toHaveProperty('payment');
    await expectContractPayloads(events);
  });

  it('expires a bank slip with invoiceExpired and brings the buyer back to choose again', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'SLIP' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const slip = await post(t, `${sale.path}/boleto`);
    expect(slip.text).toContain('Linha digitável');
    const [chargeId] = payButtons(slip.text);
    const expired = await post(t, `${sale.path}/cobrancas/${chargeId}/expirar`);
    expect(expired.text).toContain('A cobrança expirou');
    expect(expired.text).toContain('Pagar com boleto à vista');
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['invoiceCreated', 'invoiceExpired']);
    expect(events[1]!.payload).toMatchObject({
      payment: { paymentMethod: 'bankSlip', digitableLine: expect.any(String) },
    });
    await expectContractPayloads(events);
  });

  it('keeps the values and shows a message next to each wrong field, escaping what the buyer typed', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'FORM' });
    const res = await post(t, `${sale.path}/dados`, {
      ...BUYER_FORM,
      name: '<script>alert(1)</script>',
      cpf: '111.111.111-11',
      zipCode: '123',
    });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(res.text).toMatch(/id="comprador-cpf-error">CPF inválido/);
    expect(res.text).toMatch(/id="comprador-zipCode-error">Informe os 8 dígitos do CEP/);
    expect((await lookup(sale.saleId))[0].status).toBe('Não iniciado');
  });

  it('refuses to pay before the buyer data with a page, not a 500', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'EARLY' });
    const res = await post(t, `${sale.path}/pix`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Preencha seus dados');
    expect(await eventsOf(t, sale.saleId)).toEqual([]);
  });

  it('answers an unknown or garbage token with a 404 page, never a 500', async () => {
    for (const path of [
      '/checkout/c_AAAAAAAAAAAAAAAAAAAAAAAA',
      '/checkout/garbage',
      `/checkout/${'x'.repeat(500)}`,
      '/checkout/%3Cscript%3E',
      '/checkout/c_AAAAAAAAAAAAAAAAAAAAAAAA/pix',
    ]) {
      const res = path.endsWith('/pix')
        ? await request(t.app).post(path).type('form').send({})
        : await request(t.app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain('Este link de compra não existe');
    }
  });

  it('does not show the sale to another partner through the API', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'PRIVATE' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    expect(await lookup(sale.saleId, stranger)).toEqual({ code: 'SALE-001', message: 'Sale not found' });
  });
});
