import { asc, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentCharges, paymentRefunds } from '../../../src/db/schema/index.js';
import { adminCli } from '../../support/admin-cli.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenStudentWithGuarantor, PAYER, paymentPath, submitForm } from '../../support/payments.js';
import { expectDelivered, STRIPE_TEST_KEYS, useStripeContext } from '../../support/stripe.js';
import { givenInstitution } from '../../support/tenants.js';

/** Money after Stripe reports it: the day a payment counts for, one payment per debt, and what is given back. */
describe('installment payments at Stripe, at their edges', () => {
  const s = useStripeContext();
  const { t } = s;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const open = (idParcela: string) => paymentPath(t, inst.headers, idParcela, CPF.carlos);
  const original = async (idParcela: string) => (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;
  const chargesOf = async (idParcela: string) =>
    t.ctx.db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.referenceId, (await original(idParcela)).id))
      .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.providerRef));
  const refundsOf = (chargeId: string) =>
    t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, chargeId));
  const cancelCalls = () => s.stripe.requests.filter((r) => r.path.endsWith('/cancel'));

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await givenStudentWithGuarantor(t, inst.headers);
    await submitAndProcess(t, inst.headers, [
      // Due on a Friday: its bank slip is confirmed on Monday.
      installment({ idParcela: 'friday', valorBoleto: '1000.00', dataVencimento: '2026-03-13T00:00:00' }),
      installment({
        idParcela: 'discount',
        valorBoleto: '1250.00',
        dataVencimento: '2026-03-10T00:00:00',
        descontosAdimplencia: [{ percentual: 10, dias_desconto: 5 }],
      }),
      installment({ idParcela: 'midnight', valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' }),
      installment({ idParcela: 'resent', valorBoleto: '1000.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'twice', valorBoleto: '1000.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'refunded', valorBoleto: '800.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'disputed', valorBoleto: '700.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'slow', valorBoleto: '600.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'lost-answer', valorBoleto: '500.00', dataVencimento: '2026-06-10T00:00:00' }),
    ]);
  });

  it('a bank slip paid on its due date and confirmed on the next business day settles in full with no fine: paid that day, Stripe’s time kept', async () => {
    t.clock.set('2026-03-13T14:00:00Z'); // Friday 11:00 in Brasília, the due date
    const path = await open('friday');
    await submitForm(t, `${path}/boleto`, PAYER);
    const [slip] = await chargesOf('friday');
    expect(slip).toMatchObject({ method: 'BOLETO', amountCents: 100000, pricedFor: '2026-03-13' });
    // The fine would start tomorrow: the slip is due today, at the amount of today.
    expect(s.stripe.creates().at(-1)!.params).toMatchObject({
      payment_method_options: { boleto: { expires_after_days: '0' } },
    });

    t.clock.set('2026-03-16T13:30:00Z'); // the bank confirms on Monday
    await expectDelivered(s, s.stripe.succeed(slip!.providerRef!), 'applied');
    expect(await original('friday')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-03-13',
      valor_liquidado: { multa: '0.00', juros: '0.00', desconto: '0.00', recebido: '1000.00' },
      saldo_atual: 0,
    });
    const [paid] = await chargesOf('friday');
    expect(paid!.paidAt).toEqual(new Date('2026-03-16T13:30:00Z'));
  });

  it('a bank slip issued on the last day of a discount keeps the discount when the bank confirms it the next day', async () => {
    t.clock.set('2026-03-05T18:00:00Z'); // the discount holds until 05/03 (5 days before 10/03)
    const path = await open('discount');
    await submitForm(t, `${path}/boleto`, PAYER);
    const [slip] = await chargesOf('discount');
    expect(slip).toMatchObject({ amountCents: 112500, pricedFor: '2026-03-05' });
    t.clock.set('2026-03-06T12:00:00Z');
    await expectDelivered(s, s.stripe.succeed(slip!.providerRef!), 'applied');
    expect(await original('discount')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-03-05',
      valor_liquidado: { desconto: '125.00', recebido: '1125.00' },
    });
  });

  it('a Pix made at 23:59 lives half an hour and, paid after midnight, settles what it asked (the day before’s interest)', async () => {
    t.clock.set('2026-02-25T02:59:00Z'); // 23:59 of 24/02 in Brasília
    const path = await open('midnight');
    const page = await submitForm(t, `${path}/pix`);
    expect(page.text).toContain('Pague até 00:29 de 25/02/2026');
    const [pix] = await chargesOf('midnight');
    // 1000.00 due Saturday 10/01, late since Monday 12/01: fine 20.00, interest of 43 days 14.33.
    expect(pix).toMatchObject({ amountCents: 103433, pricedFor: '2026-02-24' });
    expect(pix!.expiresAt).toEqual(new Date('2026-02-25T03:29:00Z'));

    t.clock.set('2026-02-25T03:10:00Z');
    await expectDelivered(s, s.stripe.succeed(pix!.providerRef!), 'applied');
    expect(await original('midnight')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-02-24',
      valor_liquidado: { multa: '20.00', juros: '14.33', recebido: '1034.33' },
    });
  });

  it('a payment above what is owed (re-sent lower meanwhile) settles the debt and refunds the excess through a job, keyed by the refund', async () => {
    t.clock.set('2026-04-01T15:00:00Z');
    const path = await open('resent');
    await submitForm(t, `${path}/pix`);
    const [pix] = await chargesOf('resent');
    expect(pix!.amountCents).toBe(100000);
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'resent', valorBoleto: '900.00', dataVencimento: '2026-06-10T00:00:00' }),
    ]);
    await expectDelivered(s, s.stripe.succeed(pix!.providerRef!), 'applied');
    expect(await original('resent')).toMatchObject({
      situacao: 'PAGO',
      valor_liquidado: { recebido: '900.00' },
      saldo_atual: 0,
    });
    const [excess] = await refundsOf(pix!.id);
    expect(excess).toMatchObject({ reason: 'OVERPAYMENT', amountCents: 10000, status: 'REQUESTED' });

    await t.runJobs();
    const refund = s.stripe.refunds(pix!.providerRef!)[0]!;
    expect(refund).toMatchObject({ amount: 10000, metadata: { refundId: excess!.id, reason: 'OVERPAYMENT' } });
    expect((await refundsOf(pix!.id))[0]).toMatchObject({ status: 'SUCCEEDED', providerRef: refund.id });
    expect((await chargesOf('resent'))[0]).toMatchObject({ status: 'PAID', refundedAmountCents: 10000 });
    expect((await original('resent')).situacao).toBe('PAGO');
  });

  it('one payment per debt: paying the Pix closes the bank slip and the card session, cancelled at Stripe by a job; a slip paid all the same is refunded whole', async () => {
    t.clock.set('2026-04-02T15:00:00Z');
    const path = await open('twice');
    await submitForm(t, `${path}/boleto`, PAYER);
    await request(t.app).post(`${path}/card`).type('form').send({}).expect(303);
    await submitForm(t, `${path}/pix`);
    const [slip, card, pix] = await chargesOf('twice');
    expect([slip!.method, card!.method, pix!.method]).toEqual(['BOLETO', 'CARD', 'PIX']);

    await expectDelivered(s, s.stripe.succeed(pix!.providerRef!), 'applied');
    expect((await chargesOf('twice')).map((c) => [c.method, c.status])).toEqual([
      ['BOLETO', 'EXPIRED'],
      ['CARD', 'EXPIRED'],
      ['PIX', 'PAID'],
    ]);
    const page = await request(t.app).get(path);
    expect(page.text).not.toContain(slip!.digitableLine!);
    const step = await request(t.app).get(`${path}/card/${card!.id}`);
    expect(step.text).not.toContain('data-secret=');

    // The payer was at the bank already: the slip is paid before its cancel reaches Stripe.
    await expectDelivered(s, s.stripe.succeed(slip!.providerRef!), 'applied');
    await t.runJobs();
    // The card session is cancelled; the slip, paid by then, is not asked to be.
    const ours = [slip, card, pix].map((c) => `/v1/payment_intents/${c!.providerRef}/cancel`);
    expect(
      cancelCalls()
        .filter((r) => ours.includes(r.path))
        .map((r) => [r.path, r.idempotencyKey]),
    ).toEqual([[`/v1/payment_intents/${card!.providerRef}/cancel`, `edufin-charge-${card!.id}-cancel`]]);
    expect(s.stripe.intent(card!.providerRef!).status).toBe('canceled');
    const [kept] = await chargesOf('twice');
    expect(kept).toMatchObject({
      status: 'REFUNDED',
      refundedAmountCents: 100000,
      unappliedReason: expect.stringMatching(/^LINK-004: /),
    });
    expect(await refundsOf(slip!.id)).toEqual([
      expect.objectContaining({ reason: 'UNAPPLIED', amountCents: 100000, status: 'SUCCEEDED' }),
    ]);
    expect(await original('twice')).toMatchObject({ situacao: 'PAGO', valor_liquidado: { recebido: '1000.00' } });
  });

  /** The management statement's records of one installment. */
  const statementOf = async (idParcela: string) =>
    (
      (await request(t.app).get('/v1/extrato/gestao').set(inst.headers).expect(200)).body.data as {
        id_externo?: string;
        parcela_original_id_externo?: string;
        liquidacao: { valor_recebido_total: string };
        tipo_liquidacao: string;
        liquidacao_gestao_id: string;
        data_recebimento: string;
        valor_repasse: string;
      }[]
    ).filter((r) => JSON.stringify(r).includes(`"${idParcela}"`));

  async function paidByPix(idParcela: string) {
    const path = await open(idParcela);
    await submitForm(t, `${path}/pix`);
    const [pix] = await chargesOf(idParcela);
    await expectDelivered(s, s.stripe.succeed(pix!.providerRef!), 'applied');
    return pix!;
  }

  it('a payment refunded in full (payment:refund, done when Stripe says so) reopens the installment, owing it again, and is a record of its own in the management statement', async () => {
    t.clock.set('2026-04-03T15:00:00Z');
    const pix = await paidByPix('refunded');
    const [paid] = await statementOf('refunded');
    const cli = adminCli(t, {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: STRIPE_TEST_KEYS.secretKey,
      STRIPE_PUBLISHABLE_KEY: STRIPE_TEST_KEYS.publishableKey,
      STRIPE_WEBHOOK_SECRET: STRIPE_TEST_KEYS.webhookSecret,
      STRIPE_API_BASE: s.stripe.url,
    });
    const asked = await cli('payment:refund', '--charge', pix.id, '--json');
    expect(asked.code, asked.stderr).toBe(0);
    expect(JSON.parse(asked.stdout)).toMatchObject({ chargeId: pix.id, status: 'PAID' });
    expect((await original('refunded')).situacao).toBe('PAGO');
    const listed = JSON.parse((await cli('payment:refunds', '--json')).stdout);
    expect(listed.refunds).toContainEqual(
      expect.objectContaining({ chargeId: pix.id, reason: 'OPERATOR', amountCents: 80000, status: 'REQUESTED' }),
    );
    await t.runJobs();
    expect(await original('refunded')).toMatchObject({
      situacao: 'ABERTO',
      saldo_atual: 800,
      valor_liquidado: { recebido: '0.00' },
    });
    const [kept, refund] = await statementOf('refunded');
    expect(kept).toEqual(paid);
    expect(refund).toMatchObject({
      tipo_liquidacao: 'ESTORNO',
      liquidacao_gestao_id: `${paid!.liquidacao_gestao_id}/refund:${listed.refunds[0].id}`,
      data_recebimento: '2026-04-03',
      liquidacao: { valor_recebido_total: '-800.00' },
    });
    const after = JSON.parse((await cli('payment:refunds', '--json')).stdout);
    expect(after.refunds.filter((r: { chargeId: string }) => r.chargeId === pix.id)).toEqual([]);
    // Owing again, it can be paid again.
    const page = await submitForm(t, `${await open('refunded')}/pix`);
    expect(page.text).toContain('Pix gerado');
    // It runs the operator's CLI three times.
  }, 120_000);

  it('a dispute takes the payment back while the funds are away (ABERTO); won, the installment is PAGO again as of its payment day', async () => {
    t.clock.set('2026-04-04T15:00:00Z');
    const pix = await paidByPix('disputed');
    await expectDelivered(s, s.stripe.disputeCharge(pix.providerRef!), 'applied');
    expect(await original('disputed')).toMatchObject({ situacao: 'ABERTO', saldo_atual: 700 });
    expect((await statementOf('disputed')).map((r) => [r.tipo_liquidacao, r.liquidacao.valor_recebido_total])).toEqual([
      ['TOTAL', '700.00'],
      ['CONTESTACAO', '-700.00'],
    ]);
    await expectDelivered(s, s.stripe.moveDispute(pix.providerRef!, 'won'), 'applied');
    expect(await original('disputed')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-04-04',
      valor_liquidado: { recebido: '700.00' },
    });
    expect((await statementOf('disputed')).map((r) => [r.tipo_liquidacao, r.liquidacao.valor_recebido_total])).toEqual([
      ['TOTAL', '700.00'],
      ['CONTESTACAO', '-700.00'],
      ['RESTABELECIMENTO', '700.00'],
    ]);
  });

  it('no lock is held while Stripe answers: the charge is recorded and committed first, then made at Stripe', async () => {
    t.clock.set('2026-04-05T15:00:00Z');
    const path = await open('slow');
    const id = (await original('slow')).id;
    let release!: () => void;
    s.stripe.createGate = new Promise((resolve) => (release = resolve));
    const creates = s.stripe.creates().length;
    const paying = request(t.app).post(`${path}/pix`).type('form').send({});
    try {
      const waiting = paying.then((res) => res);
      while (s.stripe.creates().length === creates) await new Promise((resolve) => setImmediate(resolve));
      // Stripe has the create call and has not answered: the installment's row is free.
      const locked = await t.ctx.db.transaction((tx) =>
        tx.execute(sql`select id from installments where id = ${id}::uuid for update nowait`),
      );
      expect(locked).toHaveLength(1);
      const [opened] = await chargesOf('slow');
      expect(opened).toMatchObject({ status: 'PENDING', providerRef: null });
      release();
      expect((await waiting).status).toBe(303);
    } finally {
      s.stripe.createGate = undefined;
      release();
    }
    const [made] = await chargesOf('slow');
    expect(made!.providerRef).toBe(s.stripe.intentOfCharge(made!.id)!.id);
    expect(made!.pixCode).toBeTruthy();
  });

  it('a PaymentIntent made at Stripe whose answer was lost is found again by its metadata when it is paid', async () => {
    t.clock.set('2026-04-06T15:00:00Z');
    const path = await open('lost-answer');
    s.stripe.loseCreateAnswers = true;
    try {
      expect((await request(t.app).post(`${path}/pix`).type('form').send({})).status).toBe(503);
    } finally {
      s.stripe.loseCreateAnswers = false;
    }
    const [ended] = await chargesOf('lost-answer');
    expect(ended).toMatchObject({ status: 'EXPIRED', providerRef: null });
    const intent = s.stripe.intentOfCharge(ended!.id)!;
    await expectDelivered(s, s.stripe.succeed(intent.id), 'applied');
    expect((await chargesOf('lost-answer'))[0]).toMatchObject({ status: 'PAID', providerRef: intent.id });
    expect(await original('lost-answer')).toMatchObject({ situacao: 'PAGO', valor_liquidado: { recebido: '500.00' } });
  });
});
