import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { compactInstallmentCounts, countedByGroups } from '../../../src/institution/listings/installment-counts.js';
import { createPaymentLink } from '../../../src/institution/payments/payment-links.js';
import { startPayment } from '../../../src/institution/payments/payment-page.js';
import { useTestContext } from '../../support/context.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

const APPROVED_CARD = {
  number: '4111111111111111',
  holderName: 'PEDRO H LIMA',
  expiryMonth: 12,
  expiryYear: 2030,
  cvv: '123',
};

/** Filters whose totalItems the counters answer, each with the rows it should match. */
const GROUP_QUERIES: Record<string, string>[] = [
  {},
  { situacao: 'PAGO' },
  { situacao: 'ABERTO' },
  { situacao: 'CANCELADO_IES' },
  { tipo: 'Negociacao' },
  { tipo: 'MATRICULA' },
  { em_acordo: 'true' },
  { em_acordo: 'false' },
  { acordo_situacao: 'QUITADO' },
  { acordo_situacao: 'ATIVO' },
  { tipo: 'Mensalidade', situacao: 'ABERTO' },
];

describe('totalItems of status and type filters, from the installment counters', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  let other: Awaited<ReturnType<typeof givenInstitution>>;

  const firstPageTotal = async (headers: Record<string, string>, query: Record<string, string>) =>
    Number(
      (await request(t.app).get('/v1/parcela/originais').query(query).set(headers).expect(200)).body.metadata
        .totalItems,
    );

  /** Each group filter's totalItems next to the rows the listing actually walks. */
  async function totalsAndRows(headers: Record<string, string>) {
    const out: { query: Record<string, string>; total: number; rows: number }[] = [];
    for (const query of GROUP_QUERIES)
      out.push({ query, total: await firstPageTotal(headers, query), rows: (await listAll(t, headers, query)).length });
    return out;
  }

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx, 'Universidade Contada');
    other = await givenInstitution(t.ctx, 'Outra Universidade');
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'C1' }),
      installment({ idParcela: 'C2', tipoParcela: 'Matricula' }),
      installment({ idParcela: 'C3', tipoParcela: 'NEGOCIACAO', numeroContrato: 'AC-1' }),
      installment({
        idParcela: 'C4',
        tipoParcela: 'Negociacao',
        numeroContrato: 'AC-2',
        situacaoBaixa: 'PAGA',
        pagamento: { data: '2026-01-14' },
      }),
      installment({ idParcela: 'C5', situacaoBaixa: 'CANCELADA' }),
      installment({ idParcela: 'C6', alunoCpf: CPF.pedro, responsavelFinanceiroDocumento: CPF.pedro }),
    ]);
    // The other institution: 3 more open monthly fees that must never show in this one's totals.
    await submitAndProcess(t, other.headers, [
      installment({ idParcela: 'C1' }),
      installment({ idParcela: 'X2' }),
      installment({ idParcela: 'X3' }),
    ]);
  });

  it('status and type filters (and none) are the ones the counters answer', () => {
    for (const query of GROUP_QUERIES) expect(countedByGroups(query as never)).toBe(true);
    expect(countedByGroups({ situacao: 'PAGO', aluno_cpf: CPF.ana })).toBe(false);
    expect(countedByGroups({ data_inicial_vencimento: '2026-01-01' })).toBe(false);
  });

  it('after ingestion, totalItems of each group filter is the number of rows the listing walks', async () => {
    const seen = await totalsAndRows(inst.headers);
    expect(seen.map((s) => s.total)).toEqual(seen.map((s) => s.rows));
    expect(seen.map((s) => s.total)).toEqual([6, 1, 4, 1, 2, 1, 2, 4, 1, 1, 2]);
  });

  it('a re-sent installment that changes status moves between the counts', async () => {
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'C1', situacaoBaixa: 'PAGA', pagamento: { data: '2026-01-20' } }),
    ]);
    expect(await firstPageTotal(inst.headers, { situacao: 'PAGO' })).toBe(2);
    expect(await firstPageTotal(inst.headers, { situacao: 'ABERTO' })).toBe(3);
    expect(await firstPageTotal(inst.headers, {})).toBe(6);
  });

  it('a payment through the platform moves its installment from open to paid in the counts', async () => {
    const link = await createPaymentLink(t.ctx, inst.id, {
      responsavelFinanceiroDocumento: CPF.pedro,
      parcelaOriginalIdExterno: 'C6',
    });
    await startPayment(t.ctx, link.link_pagamento_url.split('/pay/')[1]!, 'CARD', { card: APPROVED_CARD });
    const seen = await totalsAndRows(inst.headers);
    expect(seen.map((s) => s.total)).toEqual(seen.map((s) => s.rows));
    expect(await firstPageTotal(inst.headers, { situacao: 'PAGO' })).toBe(3);
    expect(await firstPageTotal(inst.headers, { tipo: 'Mensalidade', situacao: 'ABERTO' })).toBe(0);
  });

  it("another institution's installments never enter an institution's totals", async () => {
    expect(await firstPageTotal(other.headers, {})).toBe(3);
    expect(await firstPageTotal(other.headers, { situacao: 'ABERTO' })).toBe(3);
    expect(await firstPageTotal(other.headers, { situacao: 'PAGO' })).toBe(0);
    expect(await firstPageTotal(inst.headers, {})).toBe(6);
  });

  it('compaction folds the counters to one row per group and leaves every total as it was', async () => {
    const before = await totalsAndRows(inst.headers);
    const beforeOther = await totalsAndRows(other.headers);
    const [{ rows }] = (await t.ctx.sql`select count(*)::int as rows from installment_counts`) as unknown as [
      { rows: number },
    ];
    const outcome = await compactInstallmentCounts(t.ctx.db);
    expect(outcome.before).toBe(rows);
    const groups = await t.ctx.sql<{ institution_id: string; status: string; type: string; n: string }[]>`
      select institution_id, status, type, n::text from installment_counts order by 1, 2, 3`;
    const actual = await t.ctx.sql<{ institution_id: string; status: string; type: string; n: string }[]>`
      select institution_id, status, type, count(*)::text as n from installments group by 1, 2, 3 order by 1, 2, 3`;
    expect(groups).toEqual(actual);
    expect(outcome.after).toBe(actual.length);
    expect(await totalsAndRows(inst.headers)).toEqual(before);
    expect(await totalsAndRows(other.headers)).toEqual(beforeOther);
  });
});
