/* eslint-disable @typescript-eslint/no-explicit-any -- statement records are read by field name */
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { parseCents } from '../../../src/core/money.js';
import { liquidationRecords } from '../../../src/institution/books/liquidation.rules.js';
import { useTestContext } from '../../support/context.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';
import { payByCard } from './fixture.js';

const cents = (value: string) => parseCents(value)!;
const adds = (r: any) =>
  cents(r.valor_recebido_principia) +
  cents(r.liquidacao.valor_juros) +
  cents(r.liquidacao.valor_multa) -
  cents(r.liquidacao.valor_desconto);

describe('management statement records add up to the cent', () => {
  const t = useTestContext();

  it('a late installment paid by card in 3: each record is principal + interest + fine, and the three sum to the payment', async () => {
    const school = await givenInstitution(t.ctx, 'Faculdade Centavos');
    t.clock.set('2026-03-01T15:00:00Z');
    // 807.01 due on 03-10, paid 45 days late: fine 2% = 16.14, interest 1.5% = 12.11, 835.26 in all.
    await submitAndProcess(t, school.headers, [
      installment({ idParcela: 'C1', valorBoleto: '807.01', dataVencimento: '2026-03-10T00:00:00' }),
    ]);
    await payByCard(t, school, 'C1', '2026-04-24', 3);
    const read = async () =>
      (await request(t.app).get('/v1/extrato/gestao').set(school.headers).expect(200)).body.data as any[];
    // The acquirer pays one installment a month: each is a record from the day it pays it.
    expect((await read()).map((r) => r.cartao_de_credito_parcelamento)).toEqual(['1/3']);
    t.clock.set('2026-05-24T15:00:00Z');
    expect((await read()).map((r) => r.data_recebimento)).toEqual(['2026-04-24', '2026-05-24']);
    t.clock.set('2026-06-23T15:00:00Z');

    const records = await read();
    expect(records.map((r) => r.cartao_de_credito_parcelamento)).toEqual(['1/3', '2/3', '3/3']);
    for (const r of records) expect(adds(r), JSON.stringify(r)).toBe(cents(r.liquidacao.valor_recebido_total));
    const total = (pick: (r: any) => string) => records.reduce((sum, r) => sum + cents(pick(r)), 0);
    expect(total((r) => r.liquidacao.valor_recebido_total)).toBe(83526);
    expect(total((r) => r.valor_recebido_principia)).toBe(80701);
    expect(total((r) => r.liquidacao.valor_multa)).toBe(1614);
    expect(total((r) => r.liquidacao.valor_juros)).toBe(1211);
    // The acquirer pays equal installments: 835.26 / 3.
    expect(records.map((r) => r.liquidacao.valor_recebido_total)).toEqual(['278.42', '278.42', '278.42']);
    for (const r of records) expect(cents(r.comissao_valor) + cents(r.valor_repasse)).toBe(27842);

    const [original] = (
      await request(t.app).get('/v1/parcela/originais').query({ id_externo: 'C1' }).set(school.headers).expect(200)
    ).body.data;
    expect(original.valor_liquidado).toEqual({ multa: '16.14', juros: '12.11', desconto: '0.00', recebido: '835.26' });
  });
});

describe('liquidationRecords', () => {
  const payment = fc
    .record({
      principal: fc.integer({ min: 0, max: 10_000_000 }),
      fine: fc.integer({ min: 0, max: 1_000_000 }),
      interest: fc.integer({ min: 0, max: 1_000_000 }),
      discount: fc.integer({ min: 0, max: 1_000_000 }),
    })
    .filter((p) => p.principal >= p.discount)
    .map((p) => ({ ...p, received: p.principal + p.fine + p.interest - p.discount }));

  it('every record adds up, no part is negative, and each part of the records sums to the payment', () => {
    fc.assert(
      fc.property(payment, fc.integer({ min: 1, max: 12 }), (p, m) => {
        const records = liquidationRecords(p, m);
        expect(records).toHaveLength(m);
        for (const r of records) {
          expect(r.received).toBe(r.principal + r.interest + r.fine - r.discount);
          for (const part of Object.values(r)) expect(part).toBeGreaterThanOrEqual(0);
        }
        for (const part of ['received', 'principal', 'fine', 'interest', 'discount'] as const)
          expect(records.reduce((sum, r) => sum + r[part], 0)).toBe(p[part]);
        // Equal installments, the odd cents on the first.
        expect(new Set(records.slice(1).map((r) => r.received)).size).toBeLessThanOrEqual(1);
      }),
      { numRuns: 3000 },
    );
  });

  it('splits tiny late charges without a negative principal', () => {
    expect(liquidationRecords({ received: 6, fine: 2, interest: 2, discount: 0 }, 3)).toEqual([
      { received: 2, principal: 1, fine: 1, interest: 0, discount: 0 },
      { received: 2, principal: 1, fine: 0, interest: 1, discount: 0 },
      { received: 2, principal: 0, fine: 1, interest: 1, discount: 0 },
    ]);
  });
});
