import { describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { closeMonthOf, closingShow, figures, givenSchool, statement } from './support.js';

describe('a settlement the university reports is a record of the books; withdrawn or changed later, a record of its own', () => {
  const t = useTestContext();

  it('PAGA books the commission owed; re-sent ABERTA after the closing, its reversal in the open month; PAGA again, a new record', async () => {
    const school = await givenSchool(t, 'Faculdade Baixa', { commission: '10' });
    const paga = (valor: string, day: string) =>
      installment({
        idParcela: 'IES-1',
        dataVencimento: '2026-03-10T00:00:00',
        situacaoBaixa: 'PAGA',
        pagamento: { valorRecebido: valor, data: `${day}T10:00:00` },
      });
    t.clock.set('2026-03-12T15:00:00Z');
    await submitAndProcess(t, school.headers, [paga('1000.00', '2026-03-11')]);
    const [settled] = await statement(t, school);
    expect(figures(settled!)).toMatchObject({
      tipo_liquidacao: 'TOTAL',
      data_recebimento: '2026-03-11',
      valor_recebido_total: '1000.00',
      comissao_valor: '100.00',
      valor_repasse: '-100.00',
    });
    expect(settled).toMatchObject({ tipo_pagamento: 'Pago na IES', meio_pagamento: 'NAO_INFORMADO' });
    // The same submission again changes nothing.
    await submitAndProcess(t, school.headers, [paga('1000.00', '2026-03-11')]);
    expect(await statement(t, school)).toEqual([settled]);

    t.clock.set('2026-04-01T03:00:00Z');
    await closeMonthOf(t, school, '2026-03');
    const march = await closingShow(t, school, '2026-03');
    t.clock.set('2026-04-06T15:00:00Z');
    await submitAndProcess(t, school.headers, [
      installment({ idParcela: 'IES-1', dataVencimento: '2026-03-10T00:00:00', situacaoBaixa: 'ABERTA' }),
    ]);
    t.clock.set('2026-04-08T15:00:00Z');
    await submitAndProcess(t, school.headers, [paga('950.00', '2026-04-07')]);

    const records = await statement(t, school);
    expect(records[0]).toEqual(settled);
    expect(
      records.map((r) => [r.tipo_liquidacao, r.tipo_pagamento, r.data_recebimento, r.comissao_valor, r.valor_repasse]),
    ).toEqual([
      ['TOTAL', 'Pago na IES', '2026-03-11', '100.00', '-100.00'],
      ['ESTORNO', 'Pago na IES', '2026-04-06', '-100.00', '100.00'],
      ['TOTAL', 'Pago na IES', '2026-04-07', '95.00', '-95.00'],
    ]);
    expect(records[2]!.liquidacao_gestao_id).toBe(`${settled!.parcela_id}:IES:2`);
    expect(await closingShow(t, school, '2026-03')).toEqual(march);
  });
});
