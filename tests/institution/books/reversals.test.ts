import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { payByCard, payByInvoice } from '../statements/fixture.js';
import {
  closeMonthOf,
  closingShow,
  events,
  figures,
  givenInstallments,
  givenSchool,
  original,
  paidCharges,
  refund,
  statement,
} from './support.js';

describe('money given back after a closing is a record of the open month, netted from the next transfer', () => {
  const t = useTestContext();

  it('a Pix of 1000.00 paid on 05-08 and refunded on 06-20, after May closed: May stays as mesFechado sent it, June has −900.00 on 06-25', async () => {
    const school = await givenSchool(t, 'Faculdade Maio', { commission: '10', 'transfer-delay-days': '5' });
    await givenInstallments(t, school, '2026-05-02', [{ id: 'MAI-1', due: '2026-05-10' }]);
    await payByInvoice(t, school, 'MAI-1', '2026-05-08', 'PIX');
    const [paid] = await statement(t, school);
    expect(figures(paid!)).toMatchObject({
      tipo_liquidacao: 'TOTAL',
      data_recebimento: '2026-05-08',
      valor_recebido_total: '1000.00',
      comissao_valor: '100.00',
      valor_repasse: '900.00',
      data_repasse: '2026-05-13',
    });
    t.clock.set('2026-06-01T03:00:00Z');
    await closeMonthOf(t, school, '2026-05');
    const mayBefore = await closingShow(t, school, '2026-05');
    const [closed] = await events(t, school, 'mesFechado');
    expect(closed!.dados.totais.gestao).toEqual(mayBefore.gestao);
    expect(mayBefore.gestao).toMatchObject({ rows: 1, valor_recebido_total: '1000.00', valor_repasse: '900.00' });

    t.clock.set('2026-06-20T14:00:00Z');
    const [charge] = await paidCharges(t, school, 'MAI-1');
    await refund(t, charge!);

    expect(await closingShow(t, school, '2026-05')).toEqual(mayBefore);
    expect(await statement(t, school, { data_repasse: '2026-05-13' })).toEqual([paid]);
    const dueInMay = await statement(t, school, { competencia_vencimento: '05/2026' });
    expect(dueInMay[0]).toEqual(paid);
    const reversal = figures(dueInMay[1]!);
    expect(reversal).toEqual({
      liquidacao_gestao_id: `${paid!.liquidacao_gestao_id}/refund:${reversal.liquidacao_gestao_id.split('/refund:')[1]}`,
      tipo_liquidacao: 'ESTORNO',
      data_recebimento: '2026-06-20',
      competencia_recebimento: '06/2026',
      valor_recebido_total: '-1000.00',
      comissao_valor: '-100.00',
      valor_repasse: '-900.00',
      data_repasse: '2026-06-25',
    });
    expect(dueInMay[1]).toMatchObject({ parcela_id_externo: 'MAI-1', competencia_vencimento: '2026-05-01' });
    expect(await closingShow(t, school, '2026-06')).toMatchObject({
      gestao: { rows: 1, valor_recebido_total: '-1000.00', comissao_valor: '-100.00', valor_repasse: '-900.00' },
    });
    const [told] = await events(t, school, 'pagamentoEstornado');
    expect(told!.dados).toMatchObject({
      id_externo: 'MAI-1',
      motivo: 'ESTORNO',
      valor: '1000.00',
      situacao: 'ABERTO',
      saldo_devedor: '1000.00',
      liquidacao_gestao_id: reversal.liquidacao_gestao_id,
      valor_recebido_total: '-1000.00',
      comissao_valor: '-100.00',
      valor_repasse: '-900.00',
      data_repasse: '2026-06-25',
    });
  });

  it('a partial refund of 300.00 of 1000.00 at 8.5 % is a record of exactly −300.00 with its commission, and the installment owes 300.00 again', async () => {
    const school = await givenSchool(t, 'Faculdade Parcial', { commission: '8.5' });
    await givenInstallments(t, school, '2026-03-02', [{ id: 'P-1', due: '2026-03-10' }]);
    await payByInvoice(t, school, 'P-1', '2026-03-05', 'PIX');
    t.clock.set('2026-03-09T14:00:00Z');
    const [charge] = await paidCharges(t, school, 'P-1');
    await refund(t, charge!, 30_000);
    expect((await statement(t, school)).map(figures)).toEqual([
      expect.objectContaining({ valor_recebido_total: '1000.00', comissao_valor: '85.00', valor_repasse: '915.00' }),
      expect.objectContaining({
        tipo_liquidacao: 'ESTORNO',
        data_recebimento: '2026-03-09',
        valor_recebido_total: '-300.00',
        comissao_valor: '-25.50',
        valor_repasse: '-274.50',
        data_repasse: '2026-03-09',
      }),
    ]);
    expect(await original(t, school, 'P-1')).toMatchObject({
      situacao: 'PARCIALMENTE_PAGO',
      saldo_atual: 300,
      tipo_pagamento: 'Pago na Plataforma',
      valor_liquidado: { recebido: '700.00' },
    });
    // The rest, later: the two reversals add up to the payment, to the cent.
    await refund(t, charge!);
    // Records of one transfer day are in the order of their ids.
    const records = (await statement(t, school)).map((r) => [r.liquidacao.valor_recebido_total, r.comissao_valor]);
    expect(records.sort()).toEqual([
      ['-300.00', '-25.50'],
      ['-700.00', '-59.50'],
      ['1000.00', '85.00'],
    ]);
    expect(await original(t, school, 'P-1')).toMatchObject({ situacao: 'ABERTO', saldo_atual: 1000 });
  });

  it('an operator refund above what the charge holds, or while another waits for the provider, is refused', async () => {
    const school = await givenSchool(t, 'Faculdade Recusa', { commission: '10' });
    await givenInstallments(t, school, '2026-03-02', [{ id: 'R-1', due: '2026-03-10' }]);
    await payByInvoice(t, school, 'R-1', '2026-03-05', 'PIX');
    const [charge] = await paidCharges(t, school, 'R-1');
    await expect(refund(t, charge!, 100_001)).rejects.toThrow(
      'PAYMENT-004: The amount must be between 1 and 100000 cents',
    );
    await expect(refund(t, charge!, 0)).rejects.toThrow('--amount-cents takes a whole number of cents above 0');
    const { paymentCommands } = await import('../../../src/cli/commands/payments.js');
    await paymentCommands['payment:refund']!.run(t.ctx.db, { charge: charge!, 'amount-cents': '100' }, []);
    await expect(refund(t, charge!, 100)).rejects.toThrow('PAYMENT-013');
    await t.runJobs();
    expect((await statement(t, school)).map((r) => r.liquidacao.valor_recebido_total)).toEqual(['1000.00', '-1.00']);
  });

  it('a card in 6 refunded after three transfer dates: the three records passed on are reversed (−270.00 net) and the three to come are never made', async () => {
    const school = await givenSchool(t, 'Faculdade Cartão', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [{ id: 'C-6', valor: '600.00', due: '2026-05-10' }]);
    await payByCard(t, school, 'C-6', '2026-05-08', 6);
    for (const day of ['2026-06-07', '2026-07-07']) {
      t.clock.set(`${day}T15:00:00Z`);
      await statement(t, school);
    }
    t.clock.set('2026-07-20T15:00:00Z');
    const [charge] = await paidCharges(t, school, 'C-6');
    await refund(t, charge!);
    t.clock.set('2026-12-01T15:00:00Z');
    const records = (await statement(t, school)).map((r) => [
      r.cartao_de_credito_parcelamento,
      r.tipo_liquidacao,
      r.data_recebimento,
      r.valor_repasse,
      r.data_repasse,
    ]);
    expect(records).toEqual([
      ['1/6', 'PARCIAL', '2026-05-08', '90.00', '2026-05-08'],
      ['2/6', 'PARCIAL', '2026-06-07', '90.00', '2026-06-07'],
      ['3/6', 'PARCIAL', '2026-07-07', '90.00', '2026-07-07'],
      ['1/6', 'ESTORNO', '2026-07-20', '-90.00', '2026-07-20'],
      ['2/6', 'ESTORNO', '2026-07-20', '-90.00', '2026-07-20'],
      ['3/6', 'ESTORNO', '2026-07-20', '-90.00', '2026-07-20'],
    ]);
    expect(await original(t, school, 'C-6')).toMatchObject({ situacao: 'ABERTO', saldo_atual: 600 });
  });

  it('a Pix opened at 23:59 on 05-31 and paid at 00:10 on 06-01, after May closed, is June’s money; the payer paid on 05-31', async () => {
    const school = await givenSchool(t, 'Faculdade Meia-noite', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [{ id: 'N-1', due: '2026-05-31' }]);
    t.clock.set('2026-06-01T02:59:00Z');
    const { startPayment } = await import('../../../src/institution/payments/payment-page.js');
    const { paymentPath } = await import('../../support/payments.js');
    const { CPF } = await import('../../support/installments.js');
    const token = (await paymentPath(t, school.headers, 'N-1', CPF.carlos)).replace('/pay/', '');
    const pix = await startPayment(t.ctx, token, 'PIX');
    t.clock.set('2026-06-01T03:05:00Z');
    await closeMonthOf(t, school, '2026-05');
    const may = await closingShow(t, school, '2026-05');
    t.clock.set('2026-06-01T03:10:00Z');
    await t.ctx.payments.sandbox!.simulatePayment(t.ctx.db, pix.id);
    const [record] = await statement(t, school);
    expect(figures(record!)).toMatchObject({ data_recebimento: '2026-06-01', competencia_recebimento: '06/2026' });
    expect(await original(t, school, 'N-1')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-05-31',
      dias_atraso: 0,
    });
    expect(await closingShow(t, school, '2026-05')).toEqual(may);
    expect((await closingShow(t, school, '2026-06')).gestao).toMatchObject({
      rows: 1,
      valor_recebido_total: '1000.00',
    });
  });

  it('the books refuse UPDATE, DELETE and TRUNCATE: a correction is a new entry', async () => {
    const school = await givenSchool(t, 'Faculdade Livro', { commission: '10' });
    await givenInstallments(t, school, '2026-03-02', [{ id: 'L-1', due: '2026-03-10' }]);
    await payByInvoice(t, school, 'L-1', '2026-03-05', 'PIX');
    for (const statementText of [
      sql`update ledger_entries set amount_cents = 0`,
      sql`delete from ledger_entries`,
      sql`truncate ledger_entries`,
    ]) {
      const refused = await t.ctx.db.execute(statementText).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(String((refused?.cause as Error | undefined)?.message)).toMatch(/ledger_entries is append-only/);
    }
    expect((await statement(t, school)).map((r) => r.liquidacao.valor_recebido_total)).toEqual(['1000.00']);
  });
});
