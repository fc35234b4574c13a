import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentCharges } from '../../../src/db/schema/index.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenStudentWithGuarantor, PAYER, paymentPath, submitForm } from '../../support/payments.js';
import { expectDelivered, useStripeContext } from '../../support/stripe.js';
import { givenInstitution } from '../../support/tenants.js';

const SANDBOX_TEXT = /sandbox|Simular|Cartões de teste|Ambiente de testes/i;

describe('the installment payment page paid through Stripe', () => {
  const s = useStripeContext();
  const { t } = s;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const open = (idParcela: string) => paymentPath(t, inst.headers, idParcela, CPF.carlos);
  const original = async (idParcela: string) => (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;
  const lastCharge = async (installmentId: string) =>
    (await t.ctx.db.select().from(paymentCharges).where(eq(paymentCharges.referenceId, installmentId)))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.providerRef!.localeCompare(b.providerRef!))
      .at(-1)!;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await givenStudentWithGuarantor(t, inst.headers);
    const late = { valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' };
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'late', ...late }),
      installment({ idParcela: 'partial', ...late }),
      installment({
        idParcela: 'ontime',
        valorBoleto: '1250.00',
        dataVencimento: '2026-03-10T00:00:00',
        descontosAdimplencia: [{ percentual: 10, dias_desconto: 5 }],
      }),
      installment({ idParcela: 'slip', ...late }),
      installment({ idParcela: 'refused', ...late }),
      installment({ idParcela: 'tiny', valorBoleto: '0.30', dataVencimento: '2026-03-10T00:00:00' }),
    ]);
  });

  it('late Pix: the PaymentIntent asks what is owed today (fine and interest), keyed by the charge; the signed event settles the installment PAGO with the split', async () => {
    t.clock.set('2026-02-25T15:00:00Z');
    const path = await open('late');
    const page = await submitForm(t, `${path}/pix`);
    expect(page.text).toContain('Pix gerado');
    const id = (await original('late')).id;
    const charge = await lastCharge(id);
    expect(s.stripe.creates().at(-1)).toMatchObject({
      idempotencyKey: `edufin-charge-${charge.id}-create`,
      params: {
        amount: '103467',
        currency: 'brl',
        allowed_payment_method_types: ['pix'],
        metadata: { chargeId: charge.id, reference: `installment:${id}` },
      },
    });
    const qr = s.stripe.intent(charge.providerRef!).next_action!.pix_display_qr_code!;
    expect(page.text).toContain(`<img src="${qr.image_url_svg}"`);
    expect(page.text).toContain('Pague até 23:59 de 25/02/2026');
    expect(page.text).not.toMatch(SANDBOX_TEXT);

    await expectDelivered(s, s.stripe.succeed(charge.providerRef!), 'applied');
    expect(await original('late')).toMatchObject({
      situacao: 'PAGO',
      tipo_pagamento: 'Pago na Plataforma',
      data_pagamento: '2026-02-25',
      valor_liquidado: { multa: '20.00', juros: '14.67', desconto: '0.00', recebido: '1034.67' },
    });
    expect((await request(t.app).get(path)).text).toContain('Parcela paga em 25/02/2026: recebido R$ 1.034,67.');
  });

  it('on-time card: the card step opens a session of the principal less the discount; paid in 2 installments, Stripe’s signed event settles the installment PAGO and the payer’s return shows it', async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    const path = await open('ontime');
    const page = await request(t.app).get(path);
    expect(page.text).not.toContain('autocomplete="cc-number"');
    expect(page.text).not.toMatch(SANDBOX_TEXT);
    const opened = await request(t.app).post(`${path}/card`).type('form').send({}).expect(303);
    const charge = await lastCharge((await original('ontime')).id);
    expect(opened.headers.location).toBe(`${path}/card/${charge.id}`);
    expect(s.stripe.creates().at(-1)).toMatchObject({
      idempotencyKey: `edufin-charge-${charge.id}-create`,
      params: { amount: '112500', currency: 'brl', allowed_payment_method_types: ['card'] },
    });
    const step = await request(t.app)
      .get(opened.headers.location as string)
      .expect(200);
    expect(step.text).toContain(`data-secret="${s.stripe.intent(charge.providerRef!).client_secret}"`);
    expect(step.headers['content-security-policy']).toContain('frame-src https://js.stripe.com');

    await expectDelivered(
      s,
      s.stripe.succeed(charge.providerRef!, { brand: 'visa', last4: '4242', installments: 2 }),
      'applied',
    );
    expect(await original('ontime')).toMatchObject({
      situacao: 'PAGO',
      valor_liquidado: { desconto: '125.00', recebido: '1125.00' },
    });
    const back = await request(t.app).get(`${path}/card/${charge.id}/retorno`).expect(303);
    expect(back.headers.location).toBe(`${path}?aviso=pago`);
    const shown = await request(t.app).get(back.headers.location as string);
    expect(shown.text).toContain('Pagamento confirmado');
    expect(shown.text).toContain('Visa final 4242');
  });

  it('boleto: the form starts with the guarantor the institution sent; a refused form keeps the values with each message; the boleto is registered with them', async () => {
    t.clock.set('2026-02-25T15:00:00Z');
    const path = await open('slip');
    const page = await request(t.app).get(path);
    expect(page.text).toContain('value="carlos@example.com"');
    expect(page.text).toContain('value="Avenida Paulista"');

    const refused = await request(t.app)
      .post(`${path}/boleto`)
      .type('form')
      .send({ ...PAYER, email: 'carlos', zipCode: '123' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Informe um e-mail válido');
    expect(refused.text).toContain('Informe os 8 dígitos do CEP.');
    expect(refused.text).toContain('value="Avenida Paulista"');
    expect(
      s.stripe.creates().filter((r) => r.params.allowed_payment_method_types?.toString() === 'boleto'),
    ).toHaveLength(0);

    const generated = await submitForm(t, `${path}/boleto`, PAYER);
    expect(generated.text).toContain('Boleto gerado');
    const charge = await lastCharge((await original('slip')).id);
    // Due tomorrow, the next business day: it asks the interest of one more day.
    expect(s.stripe.creates().at(-1)!.params).toMatchObject({
      amount: '103500',
      payment_method_options: { boleto: { expires_after_days: '1' } },
      payment_method_data: {
        boleto: { tax_id: CPF.carlos },
        billing_details: {
          name: 'Carlos Eduardo Souza',
          email: 'carlos@example.com',
          address: { line1: 'Avenida Paulista, 900', postal_code: '01310100', state: 'SP', country: 'BR' },
        },
      },
    });
    expect(generated.text).toContain(
      s.stripe.intent(charge.providerRef!).next_action!.boleto_display_details!.hosted_voucher_url!,
    );
    await expectDelivered(s, s.stripe.succeed(charge.providerRef!), 'applied');
    expect((await original('slip')).situacao).toBe('PAGO');
  });

  it('partial: Stripe reporting less than asked settles part of it, late charges first; the next PaymentIntent asks for what remains that day', async () => {
    t.clock.set('2026-02-25T15:00:00Z');
    const path = await open('partial');
    await submitForm(t, `${path}/pix`);
    const id = (await original('partial')).id;
    const first = await lastCharge(id);
    await expectDelivered(s, s.stripe.succeed(first.providerRef!, undefined, 50000), 'applied');
    expect(await original('partial')).toMatchObject({
      situacao: 'PARCIALMENTE_PAGO',
      valor_liquidado: { multa: '20.00', juros: '14.67', recebido: '500.00' },
      saldo_atual: 534.67,
    });
    await submitForm(t, `${path}/pix`);
    const second = await lastCharge(id);
    expect(second.id).not.toBe(first.id);
    expect(s.stripe.creates().at(-1)!.params).toMatchObject({ amount: '53467' });
    await expectDelivered(s, s.stripe.succeed(second.providerRef!), 'applied');
    expect(await original('partial')).toMatchObject({ situacao: 'PAGO', saldo_atual: 0 });
  });

  it('Stripe down is a 503 page to try again, and the charge it never made ends with why; an amount below Stripe’s minimum is refused on the page', async () => {
    t.clock.set('2026-02-25T15:00:00Z');
    const path = await open('refused');
    s.stripe.unavailable = true;
    try {
      const down = await request(t.app).post(`${path}/pix`).type('form').send({});
      expect(down.status).toBe(503);
      expect(down.text).toContain('O provedor de pagamentos não respondeu agora');
    } finally {
      s.stripe.unavailable = false;
    }
    const id = (await original('refused')).id;
    const ended = await t.ctx.db.select().from(paymentCharges).where(eq(paymentCharges.referenceId, id));
    expect(ended).toEqual([
      expect.objectContaining({
        status: 'EXPIRED',
        providerRef: null,
        declinedReason: expect.stringMatching(/^not made at Stripe: /),
      }),
    ]);
    expect((await request(t.app).get(path)).text).not.toContain('Pix gerado');

    const tiny = await open('tiny');
    const refused = await request(t.app).post(`${tiny}/pix`).type('form').send({});
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('O provedor de pagamentos recusou esta cobrança');
    expect(
      await t.ctx.db
        .select({ status: paymentCharges.status })
        .from(paymentCharges)
        .where(eq(paymentCharges.referenceId, (await original('tiny')).id)),
    ).toEqual([{ status: 'EXPIRED' }]);
  });
});
