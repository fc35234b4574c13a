import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { chargeIds, paymentPath, submitForm } from '../../support/payments.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenInstitution } from '../../support/tenants.js';

const CARD = { holderName: 'CARLOS E SOUZA', expiryMonth: '12', expiryYear: '2030', cvv: '123' };

describe('hosted payment page and sandbox payments', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const open = (idParcela: string) => paymentPath(t, inst.headers, idParcela, CPF.carlos);
  const original = async (idParcela: string) => (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx, 'Faculdade <script>alert(1)</script> & Cia');
    const late = { valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' };
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'late', ...late }),
      installment({ idParcela: 'partial', ...late }),
      installment({
        idParcela: 'ontime',
        valorBoleto: '1250.00',
        dataVencimento: '2026-03-10T00:00:00',
        descontosAdimplencia: [
          { percentual: 10, dias_desconto: 5 },
          { percentual: 5, dias_desconto: 0 },
        ],
      }),
      installment({ idParcela: 'decline', ...late }),
      installment({ idParcela: 'slip', ...late }),
      installment({ idParcela: 'overnight', ...late }),
      installment({ idParcela: 'withdrawn', ...late }),
    ]);
  });

  it('late: shows the amount owed today and settles a Pix paid by the simulate button with fine 2% and interest 1% a month pro rata', async () => {
    t.clock.set('2026-02-25T15:00:00Z');
    const path = await open('late');
    const page = await request(t.app).get(path).expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    // R$ 1.000,00 due Saturday 10/01, so late from Monday 12/01: 44 days late, fine 20.00,
    // interest 1000 × 1% × 44/30 = 14.67, total 1034.67.
    expect(page.text).toContain('Multa por atraso (2%)</td><td class="amount">R$ 20,00');
    expect(page.text).toContain('Juros de 44 dia(s) (1% ao mês)</td><td class="amount">R$ 14,67');
    expect(page.text).toContain('Total</td><td class="amount">R$ 1.034,67');
    // No student record with a name: the student's CPF, masked, never an empty name.
    expect(page.text).toContain('<dt>Aluno</dt><dd>CPF ***.982.247-**</dd>');

    const withPix = await submitForm(t, `${path}/pix`);
    expect(withPix.text).toContain('Pix gerado');
    expect(withPix.text).toMatch(/Pix copia e cola: <code>000201[\w./ -]+6304[0-9A-F]{4}<\/code>/);
    const [chargeId] = chargeIds(withPix.text);
    const paid = await submitForm(t, `${path}/charges/${chargeId}/simulate-payment`);
    expect(paid.text).toContain('Pagamento confirmado');
    expect(paid.text).toContain('Parcela paga em 25/02/2026: recebido R$ 1.034,67.');

    expect(await original('late')).toMatchObject({
      situacao: 'PAGO',
      tipo_pagamento: 'Pago na Plataforma',
      data_pagamento: '2026-02-25',
      dias_atraso: 44,
      saldo_atual: 0,
      valor_liquidado: { multa: '20.00', juros: '14.67', desconto: '0.00', recebido: '1034.67' },
    });
  });

  it('on time: an approved card pays the principal less the best on-time discount still open', async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    const path = await open('ontime');
    const page = await submitForm(t, `${path}/card`, { number: '4111 1111 1111 1111', ...CARD });
    expect(page.text).toContain('Pagamento confirmado');
    expect(page.text).toContain('Visa final 1111');
    expect(await original('ontime')).toMatchObject({
      situacao: 'PAGO',
      tipo_pagamento: 'Pago na Plataforma',
      data_pagamento: '2026-01-15',
      dias_atraso: 0,
      valor_liquidado: { multa: '0.00', juros: '0.00', desconto: '125.00', recebido: '1125.00' },
    });
  });

  it('a partial payment (sandbox API) leaves PARCIALMENTE_PAGO; the rest later pays interest since then and no second fine', async () => {
    t.clock.set('2026-01-25T15:00:00Z');
    const path = await open('partial');
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    // Owed: 1000.00 + fine 20.00 + interest of the 13 days since Monday 12/01 4.33 = 1024.33; pays 524.33:
    // charges first, 500.00 of principal.
    const partial = await request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({ amountCents: 52_433 })
      .expect(200);
    expect(partial.body).toMatchObject({
      id: chargeId,
      method: 'PIX',
      status: 'PAID',
      amountCents: 102_433,
      paidAmountCents: 52_433,
      paidAt: '2026-01-25T15:00:00.000Z',
    });
    expect(await original('partial')).toMatchObject({
      situacao: 'PARCIALMENTE_PAGO',
      tipo_pagamento: 'Pago na Plataforma',
      data_pagamento: '2026-01-25',
      saldo_atual: 500,
      dias_atraso: 13,
      valor_liquidado: { multa: '20.00', juros: '4.33', desconto: '0.00', recebido: '524.33' },
    });

    t.clock.set('2026-02-24T15:00:00Z');
    const page = await request(t.app).get(path).expect(200);
    // 500.00 owed, 30 days since the partial payment: interest 5.00, no fine: 505.00.
    expect(page.text).not.toContain('Multa por atraso');
    expect(page.text).toContain('Total</td><td class="amount">R$ 505,00');
    await submitForm(t, `${path}/card`, { number: '5555555555554444', ...CARD });
    expect(await original('partial')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-02-24',
      saldo_atual: 0,
      valor_liquidado: { multa: '20.00', juros: '9.33', desconto: '0.00', recebido: '1029.33' },
    });
  });

  it("a declined card changes nothing and the page says it was not approved, never the issuer's reason", async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    const path = await open('decline');
    const page = await submitForm(t, `${path}/card`, { number: '4000000000000002', ...CARD });
    expect(page.text).toContain(
      '<p class="notice error" role="alert">Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.</p>',
    );
    expect(page.text).toContain('<span class="status DECLINED">Recusado</span>');
    expect(page.text).not.toContain('Cartão recusado pelo emissor');
    const insufficient = await submitForm(t, `${path}/card`, { number: '4000000000009995', ...CARD });
    expect(insufficient.text).toContain('Pagamento não aprovado.');
    expect(insufficient.text).not.toContain('Saldo insuficiente');
    expect(await original('decline')).toMatchObject({
      situacao: 'ABERTO',
      tipo_pagamento: null,
      valor_liquidado: { recebido: '0.00' },
    });
  });

  it('a malformed card answers 400 with the page, and no charge', async () => {
    const path = await open('decline');
    const before = chargeIds((await request(t.app).get(path)).text).length;
    const res = await request(t.app)
      .post(`${path}/card`)
      .type('form')
      .send({ number: '4111111111111112', ...CARD });
    expect(res.status).toBe(400);
    expect(res.text).toContain(
      '<p class="field-error" id="card-number-error">Número de cartão inválido: confira os dígitos.</p>',
    );
    expect(chargeIds(res.text)).toHaveLength(before);
  });

  it('card fields refused by the server: each message tied to its input, name and expiry kept, number and CVV never echoed', async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    const path = await open('decline');
    const res = await request(t.app).post(`${path}/card`).type('form').send({
      number: '4111111111111112',
      holderName: 'CARLOS <E> SOUZA',
      expiryMonth: '13',
      expiryYear: '2031',
      cvv: '12a',
      installments: '3',
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(
      /<input id="card-month" name="expiryMonth" value="13"[^>]* aria-invalid="true" aria-describedby="card-month-error">/,
    );
    expect(res.text).toContain(
      '<p class="field-error" id="card-month-error">Informe o mês de validade, de 01 a 12.</p>',
    );
    expect(res.text).toContain(
      '<p class="field-error" id="card-cvv-error">O CVV tem 3 ou 4 dígitos e fica no verso do cartão.</p>',
    );
    expect(res.text).toContain('value="CARLOS &lt;E&gt; SOUZA"');
    expect(res.text).toContain('value="2031"');
    expect(res.text).toContain('<option value="3" selected>3x</option>');
    expect(res.text).not.toContain('4111111111111112');
    expect(res.text).not.toContain('12a');
    // The summary at the top links to each field, in the form's order, and says why number and CVV are empty.
    expect([...res.text.matchAll(/<li><a href="#(card-[a-z]+)">/g)].map((m) => m[1])).toEqual([
      'card-number',
      'card-month',
      'card-cvv',
    ]);
    expect(res.text).toContain('digite-os de novo');
    expect(await original('decline')).toMatchObject({ situacao: 'ABERTO', valor_liquidado: { recebido: '0.00' } });
  });

  it('an expired card is refused on the expiry field that is past', async () => {
    t.clock.set('2026-05-15T12:00:00Z');
    const path = await open('decline');
    const lastYear = await request(t.app)
      .post(`${path}/card`)
      .type('form')
      .send({ number: '4111111111111111', ...CARD, expiryYear: '2025' });
    expect(lastYear.text).toContain(
      '<p class="field-error" id="card-year-error">Cartão vencido: confira o ano de validade.</p>',
    );
    const lastMonth = await request(t.app)
      .post(`${path}/card`)
      .type('form')
      .send({ number: '4111111111111111', ...CARD, expiryMonth: '04', expiryYear: '2026' });
    expect(lastMonth.text).toContain(
      '<p class="field-error" id="card-month-error">Cartão vencido: confira o mês de validade.</p>',
    );
    expect(lastMonth.text).not.toContain('card-year-error');
  });

  it('a bank slip can be let expire; an expired charge cannot be paid', async () => {
    const path = await open('slip');
    const withSlip = await submitForm(t, `${path}/boleto`);
    expect(withSlip.text).toMatch(/Linha digitável: <code>\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}<\/code>/);
    const [chargeId] = chargeIds(withSlip.text);
    const expired = await submitForm(t, `${path}/charges/${chargeId}/simulate-expiry`);
    expect(expired.text).toContain('A cobrança expirou sem pagamento.');
    const late = await request(t.app).post(`${path}/charges/${chargeId}/simulate-payment`);
    expect(late.status).toBe(400);
    expect(late.text).toContain('Esta cobrança não está mais pendente.');
    expect((await original('slip')).situacao).toBe('ABERTO');
  });

  it('a Pix quotes the amount of its day and expires when the day ends (Brasília)', async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    const path = await open('overnight');
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    t.clock.set('2026-01-16T03:00:00Z'); // midnight in Brasília
    const res = await request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'PAYMENT-003',
      message: `Charge ${chargeId} is EXPIRED; only a pending Pix or bank slip can be paid or expired`,
    });
  });

  it('a pending Pix of an installment cancelled meanwhile was closed with it and cannot be paid', async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    const path = await open('withdrawn');
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    await submitAndProcess(t, inst.headers, [
      installment({
        idParcela: 'withdrawn',
        valorBoleto: '1000.00',
        dataVencimento: '2026-01-10T00:00:00',
        situacaoBaixa: 'CANCELADA',
      }),
    ]);
    const res = await request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PAYMENT-003');
    expect(
      (
        await request(t.app)
          .get(`/sandbox/charges/${chargeId}`)
          .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}`))
          .expect(200)
      ).body.status,
    ).toBe('EXPIRED');
    const page = await request(t.app).get(path).expect(200);
    expect(page.text).toContain('Esta parcela foi cancelada pela instituição e não pode ser paga.');
    expect(page.text).not.toContain('Gerar Pix');
  });

  it('a paid installment takes no new payment and gets no new link', async () => {
    const path = await open('ontime').catch(() => undefined);
    expect(path).toBeUndefined(); // LINK-004 through the API
    const res = await request(t.app)
      .post('/v1/parcela/link_pagamento')
      .set(inst.headers)
      .send({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: 'ontime' });
    expect(res.body.code).toBe('LINK-004');
  });

  it('escapes every value it shows', async () => {
    const path = await open('slip');
    const page = await request(t.app).get(path).expect(200);
    expect(page.text).toContain('Faculdade &lt;script&gt;alert(1)&lt;/script&gt; &amp; Cia');
    expect(page.text).not.toContain('<script>');
  });

  it('answers an unknown link with a 404 page', async () => {
    const res = await request(t.app).get('/pay/pl_nao-existe');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Este link de pagamento não existe');
  });
});
