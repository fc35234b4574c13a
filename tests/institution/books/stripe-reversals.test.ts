/* eslint-disable @typescript-eslint/no-explicit-any -- statement records are read by field name */
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentCharges, paymentRefunds } from '../../../src/db/schema/index.js';
import { givenContract } from '../../support/contracts.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { paymentPath, submitForm } from '../../support/payments.js';
import { expectDelivered, useStripeContext } from '../../support/stripe.js';
import { givenInstitution } from '../../support/tenants.js';
import { statement } from './support.js';

/** Money that Stripe takes back, or gives back, after a payment: each move a record of the books, for its amount only. */
describe('disputes and refunds at Stripe are records of their own amount', () => {
  const s = useStripeContext();
  const { t } = s;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const original = async (idParcela: string) => (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;
  const chargesOf = async (idParcela: string) =>
    t.ctx.db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.referenceId, (await original(idParcela)).id))
      .orderBy(asc(paymentCharges.createdAt));
  const records = async (idParcela: string) =>
    (await statement(t, inst))
      .filter((r) => r.parcela_id_externo === idParcela)
      .map((r: any) => [r.tipo_liquidacao, r.liquidacao.valor_recebido_total, r.comissao_valor, r.valor_repasse]);

  async function paidByPix(idParcela: string) {
    const path = await paymentPath(t, inst.headers, idParcela, CPF.carlos);
    await submitForm(t, `${path}/pix`);
    const pix = (await chargesOf(idParcela)).at(-1)!;
    await expectDelivered(s, s.stripe.succeed(pix.providerRef!), 'applied');
    return pix;
  }
  const refund = async (chargeId: string) => {
    await t.ctx.db.transaction((tx) => t.ctx.payments.reverse(tx, chargeId, 'REFUNDED'));
    await t.runJobs();
  };

  beforeAll(async () => {
    t.clock.set('2026-04-01T15:00:00Z');
    inst = await givenInstitution(t.ctx, 'Universidade Contestada');
    await givenContract(t.ctx, inst.id, { product: 'Gestão', commission: '10' });
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'part', valorBoleto: '1000.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'failed', valorBoleto: '500.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'again', valorBoleto: '800.00', dataVencimento: '2026-06-10T00:00:00' }),
      installment({ idParcela: 'in-part', valorBoleto: '1000.00', dataVencimento: '2026-06-10T00:00:00' }),
    ]);
  });

  it('a dispute of 100.00 of a 1000.00 Pix reopens 100.00 only, and a record of −100.00; won, +100.00 and the installment is paid again', async () => {
    const pix = await paidByPix('part');
    t.clock.set('2026-04-10T15:00:00Z');
    await expectDelivered(s, s.stripe.disputeCharge(pix.providerRef!, { amount: 10_000 }), 'applied');
    expect(await original('part')).toMatchObject({ situacao: 'PARCIALMENTE_PAGO', saldo_atual: 100 });
    expect(await records('part')).toEqual([
      ['TOTAL', '1000.00', '100.00', '900.00'],
      ['CONTESTACAO', '-100.00', '-10.00', '-90.00'],
    ]);
    t.clock.set('2026-04-20T15:00:00Z');
    await expectDelivered(s, s.stripe.moveDispute(pix.providerRef!, 'won'), 'applied');
    expect(await original('part')).toMatchObject({ situacao: 'PAGO', saldo_atual: 0 });
    expect(await records('part')).toEqual([
      ['TOTAL', '1000.00', '100.00', '900.00'],
      ['CONTESTACAO', '-100.00', '-10.00', '-90.00'],
      ['RESTABELECIMENTO', '100.00', '10.00', '90.00'],
    ]);
  });

  it('a dispute closed lost but won in part (its balance transactions gave 400.00 back): −1000.00, then +400.00, and 600.00 owed', async () => {
    t.clock.set('2026-04-06T15:00:00Z');
    const pix = await paidByPix('in-part');
    await expectDelivered(s, s.stripe.disputeCharge(pix.providerRef!), 'applied');
    t.clock.set('2026-04-28T15:00:00Z');
    const closed = s.stripe.moveDispute(pix.providerRef!, 'lost', 'charge.dispute.closed', { reinstatedCents: 40_000 });
    await expectDelivered(s, closed, 'applied');
    expect(await records('in-part')).toEqual([
      ['TOTAL', '1000.00', '100.00', '900.00'],
      ['CONTESTACAO', '-1000.00', '-100.00', '-900.00'],
      ['RESTABELECIMENTO', '400.00', '40.00', '360.00'],
    ]);
    expect(await original('in-part')).toMatchObject({ situacao: 'PARCIALMENTE_PAGO', saldo_atual: 600 });
    expect((await chargesOf('in-part'))[0]).toMatchObject({ status: 'CHARGED_BACK', disputedAmountCents: 60_000 });
  });

  it('a refund that succeeded and then failed at the bank: the money is back, a record of +500.00, and the installment is paid again', async () => {
    t.clock.set('2026-04-02T15:00:00Z');
    const pix = await paidByPix('failed');
    s.stripe.refundStatus = 'pending';
    try {
      await refund(pix.id);
    } finally {
      s.stripe.refundStatus = 'succeeded';
    }
    const [made] = s.stripe.refunds(pix.providerRef!);
    await expectDelivered(s, s.stripe.settleRefund(made!.id, 'succeeded'), 'applied');
    expect(await original('failed')).toMatchObject({ situacao: 'ABERTO', saldo_atual: 500 });
    t.clock.set('2026-04-08T15:00:00Z');
    await expectDelivered(s, s.stripe.settleRefund(made!.id, 'failed'), 'applied');
    expect(await original('failed')).toMatchObject({ situacao: 'PAGO', saldo_atual: 0 });
    expect(await records('failed')).toEqual([
      ['TOTAL', '500.00', '50.00', '450.00'],
      ['ESTORNO', '-500.00', '-50.00', '-450.00'],
      ['RESTABELECIMENTO', '500.00', '50.00', '450.00'],
    ]);
  });

  it('a dispute won after the family paid again: the money that came back cannot be applied, and goes back to the payer by a refund', async () => {
    t.clock.set('2026-04-03T15:00:00Z');
    const first = await paidByPix('again');
    await expectDelivered(s, s.stripe.disputeCharge(first.providerRef!), 'applied');
    expect(await original('again')).toMatchObject({ situacao: 'ABERTO', saldo_atual: 800 });
    t.clock.set('2026-04-05T15:00:00Z');
    await paidByPix('again');
    expect(await original('again')).toMatchObject({ situacao: 'PAGO' });
    t.clock.set('2026-04-25T15:00:00Z');
    await expectDelivered(s, s.stripe.moveDispute(first.providerRef!, 'won'), 'applied');
    const [back] = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, first.id));
    expect(back).toMatchObject({ reason: 'UNAPPLIED', amountCents: 80_000, status: 'REQUESTED' });
    await t.runJobs();
    expect(await original('again')).toMatchObject({ situacao: 'PAGO', valor_liquidado: { recebido: '800.00' } });
    expect(await records('again')).toEqual([
      ['TOTAL', '800.00', '80.00', '720.00'],
      ['CONTESTACAO', '-800.00', '-80.00', '-720.00'],
      ['TOTAL', '800.00', '80.00', '720.00'],
      ['RESTABELECIMENTO', '800.00', '80.00', '720.00'],
      ['ESTORNO', '-800.00', '-80.00', '-720.00'],
    ]);
  });
});
