/* eslint-disable @typescript-eslint/no-explicit-any -- statement records are read by field name */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { liquidationRecords } from '../../../src/institution/books/liquidation.rules.js';
import { useTestContext } from '../../support/context.js';
import { givenContract } from '../../support/contracts.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { payByCard, payByInvoice } from '../statements/fixture.js';
import { legacyRecords } from './legacy-statement.js';
import { closeMonthOf, givenInstallments, givenSchool, paidCharges, refund, statement } from './support.js';

describe('the migration books the facts of before as the statements showed them', () => {
  const t = useTestContext();

  it('ledger_record_parts (SQL) splits a payment into its records exactly as liquidationRecords does', async () => {
    const payment = fc.record({
      received: fc.integer({ min: 1, max: 5_000_000 }),
      fine: fc.integer({ min: 0, max: 50_000 }),
      interest: fc.integer({ min: 0, max: 50_000 }),
      discount: fc.integer({ min: 0, max: 50_000 }),
    });
    const samples = fc.sample(fc.tuple(payment, fc.integer({ min: 1, max: 12 })), { numRuns: 200, seed: 46 });
    // Tiny payments whose late charges exceed them: the split of reported amounts that do not add up.
    samples.push([{ received: 5, fine: 4, interest: 3, discount: 0 }, 3]);
    for (const [p, m] of samples) {
      const expected = liquidationRecords(p, m);
      const rows = await t.ctx.db.execute<Record<string, string>>(sql`
        select n, (ledger_record_parts(${p.received}, ${p.fine}, ${p.interest}, ${p.discount}, ${m}, n)).*
          from generate_series(1, ${m}) n order by n`);
      expect(
        rows.map((r) => ({
          received: Number(r.r_received),
          principal: Number(r.r_principal),
          fine: Number(r.r_fine),
          interest: Number(r.r_interest),
          discount: Number(r.r_discount),
        })),
        JSON.stringify([p, m]),
      ).toEqual(expected);
    }
  });

  it('every record of a month no reversal touched is the same before and after; a payment taken back keeps its record and gets its reversal', async () => {
    const school = await givenSchool(t, 'Faculdade Antes e Depois', { commission: '10', 'transfer-delay-days': '2' });
    await givenInstallments(t, school, '2026-03-01', [
      { id: 'A-PIX', due: '2026-03-10' },
      { id: 'A-LATE', due: '2026-03-10' },
      { id: 'A-SLIP', due: '2026-03-10' },
      { id: 'A-CARD', due: '2026-03-10' },
      { id: 'A-BACK', due: '2026-03-10' },
    ]);
    await submitAndProcess(t, school.headers, [
      installment({
        idParcela: 'A-IES',
        dataVencimento: '2026-03-10T00:00:00',
        situacaoBaixa: 'PAGA',
        pagamento: { valorRecebido: '990.00', valorDesconto: '10.00', data: '2026-03-04T10:00:00' },
      }),
    ]);
    await payByInvoice(t, school, 'A-PIX', '2026-03-05', 'PIX');
    await payByInvoice(t, school, 'A-SLIP', '2026-03-09', 'BOLETO', 40_000);
    await payByCard(t, school, 'A-CARD', '2026-03-08', 3);
    await payByInvoice(t, school, 'A-BACK', '2026-03-06', 'PIX');
    await payByInvoice(t, school, 'A-LATE', '2026-03-25', 'PIX');
    t.clock.set('2026-04-01T03:00:00Z');
    await closeMonthOf(t, school, '2026-03');
    // From April the contract takes 20 %: the old statement priced each card installment by its own month.
    await givenContract(t.ctx, school.id, { from: '2026-04', commission: '20' });
    t.clock.set('2026-04-15T15:00:00Z');
    const [back] = await paidCharges(t, school, 'A-BACK');
    await refund(t, back!);

    const before = await legacyRecords(t.ctx.db, school.id);
    await t.ctx.db.execute(sql`alter table ledger_entries disable trigger user`);
    await t.ctx.db.execute(sql`delete from ledger_entries`);
    await t.ctx.db.execute(sql`alter table ledger_entries enable trigger user`);
    await t.ctx.db.execute(sql`update installment_payments set records_booked = 0`);
    await t.ctx.db.execute(sql`select ledger_book_legacy_facts()`);
    t.clock.set('2026-06-01T15:00:00Z');
    const after = await statement(t, school);

    const untouched = after.filter((r) => r.parcela_id_externo !== 'A-BACK');
    expect(untouched.map((r) => pick(r))).toEqual(before.map((r) => pick(r)));
    expect(before.map((r) => r.parcela_id_externo)).toEqual([
      'A-IES',
      'A-PIX',
      'A-CARD',
      'A-SLIP',
      'A-LATE',
      'A-CARD',
      'A-CARD',
    ]);
    // The card's later installments kept the price of their own month, as the old statement showed them.
    expect(untouched.filter((r) => r.parcela_id_externo === 'A-CARD').map((r) => r.comissao_percentual)).toEqual([
      '10.00',
      '20.00',
      '20.00',
    ]);
    expect(
      after
        .filter((r) => r.parcela_id_externo === 'A-BACK')
        .map((r) => [r.tipo_liquidacao, r.data_recebimento, r.liquidacao.valor_recebido_total, r.valor_repasse]),
    ).toEqual([
      ['TOTAL', '2026-03-06', '1000.00', '900.00'],
      ['ESTORNO', '2026-04-15', '-1000.00', '-900.00'],
    ]);
  });
});

/** The fields both statements have, as the accountant reads them. */
const pick = (r: Record<string, any>) => ({
  liquidacao_gestao_id: r.liquidacao_gestao_id,
  parcela_id_externo: r.parcela_id_externo,
  tipo_liquidacao: r.tipo_liquidacao,
  tipo_pagamento: r.tipo_pagamento,
  meio_pagamento: r.meio_pagamento,
  data_recebimento: r.data_recebimento,
  data_repasse: r.data_repasse,
  competencia_vencimento: r.competencia_vencimento,
  comissao_percentual: r.comissao_percentual,
  comissao_valor: r.comissao_valor,
  valor_repasse: r.valor_repasse,
  valor_recebido_principia: r.valor_recebido_principia,
  liquidacao: r.liquidacao,
});
