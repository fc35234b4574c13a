/* eslint-disable @typescript-eslint/no-explicit-any -- statement rows of the JSON and of the CSV are read by field name and compared, whatever their types */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { closingCommands } from '../../../src/cli/commands/closings.js';
import { closeMonth } from '../../../src/institution/statements/closing.js';
import closeStatementMonthTask from '../../../src/jobs/close-statement-month.js';
import { useTestContext } from '../../support/context.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';
import { hardMonth, type Tenant } from './fixture.js';

const t = useTestContext();
let month: Awaited<ReturnType<typeof hardMonth>>;

const cents = (decimal: string | number) => {
  const match = /^(-?)(\d+)(?:[.,](\d{1,2}))?$/.exec(String(decimal));
  if (!match) throw new Error(`not an amount: ${decimal}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0')));
};
const sum = (values: (string | number)[]) => values.reduce<number>((total, v) => total + cents(v), 0);

async function all(path: string, tenant: Tenant, query: Record<string, string> = {}) {
  const rows: Record<string, any>[] = [];
  let continuable: string | undefined;
  do {
    const res = await request(t.app)
      .get(path)
      .query({ ...query, ...(continuable ? { continuable } : {}) })
      .set(tenant.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    continuable = res.body.metadata.continuable;
  } while (continuable);
  return rows;
}

async function csv(path: string, tenant: Tenant, query: Record<string, string> = {}) {
  const res = await request(t.app)
    .get(path)
    .query(query)
    .set({ ...tenant.headers, Accept: 'text/csv' });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  const [header, ...lines] = res.text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const columns = header!.split(';');
  return lines.map((line) => Object.fromEntries(line.split(';').map((value, i) => [columns[i]!, value])));
}

beforeAll(async () => {
  month = await hardMonth(t);
  t.clock.set('2026-04-01T03:00:00Z');
  for (const tenant of [month.gestao, month.garantida, month.outra])
    await closeMonth(t.ctx.db, tenant.id, '2026-03-01', t.clock.now(), { actor: 'cli' });
});

const gestaoRow = (r: Record<string, any>) => [
  r.parcela_id_externo,
  r.data_recebimento,
  r.data_repasse,
  r.tipo_pagamento,
  r.meio_pagamento,
  r.cartao_de_credito_parcelamento ?? null,
  r.tipo_liquidacao,
  r.valor_recebido_principia,
  r.liquidacao.valor_multa,
  r.liquidacao.valor_juros,
  r.liquidacao.valor_recebido_total,
  r.comissao_valor,
  r.valor_repasse,
];

describe('management statement (#6): one record per liquidation of a Gestão installment, hand-computed', () => {
  it('lists Pix on time, late Pix, partial bank slip, card in 3 and payment at the institution with commission 10% and transfer 2 days later', async () => {
    // March closed with the first card installment only: the acquirer pays the others in April and May.
    expect(
      (await all('/v1/extrato/gestao', month.gestao)).map((r) => r.cartao_de_credito_parcelamento ?? null),
    ).toEqual([null, '1/3', null, null, null]);
    for (const day of ['2026-04-07', '2026-05-07']) {
      t.clock.set(`${day}T15:00:00Z`);
      await all('/v1/extrato/gestao', month.gestao);
    }
    const rows = await all('/v1/extrato/gestao', month.gestao);
    expect(rows.map(gestaoRow)).toEqual([
      [
        'G1',
        '2026-03-05',
        '2026-03-07',
        'Pago na Plataforma',
        'PIX',
        null,
        'TOTAL',
        '1000.00',
        '0.00',
        '0.00',
        '1000.00',
        '100.00',
        '900.00',
      ],
      [
        'G4',
        '2026-03-08',
        '2026-03-10',
        'Pago na Plataforma',
        'CARTAO_DE_CREDITO',
        '1/3',
        'PARCIAL',
        '333.34',
        '0.00',
        '0.00',
        '333.34',
        '33.33',
        '300.01',
      ],
      [
        'G5',
        '2026-03-09',
        '2026-03-11',
        'Pago na IES',
        'NAO_INFORMADO',
        null,
        'TOTAL',
        '1000.00',
        '0.00',
        '0.00',
        '1000.00',
        '100.00',
        '-100.00',
      ],
      [
        'G3',
        '2026-03-10',
        '2026-03-12',
        'Pago na Plataforma',
        'BOLETO',
        null,
        'PARCIAL',
        '400.00',
        '0.00',
        '0.00',
        '400.00',
        '40.00',
        '360.00',
      ],
      [
        'G2',
        '2026-03-25',
        '2026-03-27',
        'Pago na Plataforma',
        'PIX',
        null,
        'TOTAL',
        '1000.00',
        '20.00',
        '5.00',
        '1025.00',
        '102.50',
        '922.50',
      ],
      [
        'G4',
        '2026-04-07',
        '2026-04-09',
        'Pago na Plataforma',
        'CARTAO_DE_CREDITO',
        '2/3',
        'PARCIAL',
        '333.33',
        '0.00',
        '0.00',
        '333.33',
        '33.33',
        '300.00',
      ],
      [
        'G4',
        '2026-05-07',
        '2026-05-09',
        'Pago na Plataforma',
        'CARTAO_DE_CREDITO',
        '3/3',
        'TOTAL',
        '333.33',
        '0.00',
        '0.00',
        '333.33',
        '33.33',
        '300.00',
      ],
    ]);
    expect(rows[0]).toMatchObject({
      competencia_vencimento: '2026-03-01',
      competencia_recebimento: '03/2026',
      produto: 'Gestão',
      comissao_percentual: '10.00',
      parcela_valor_principal: '1000.00',
      alocacao_instituicao_repasse: 'Faculdade Gestão - Sede',
      modalidade: 'PRESENCIAL',
    });
    expect(rows[5]!.competencia_recebimento).toBe('04/2026');
  });

  it('carries the ids that find the installment in GET /v1/parcela/originais and the payment', async () => {
    const [g1] = await all('/v1/extrato/gestao', month.gestao, { data_repasse: '2026-03-07' });
    const originals = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ id_externo: 'G1' })
      .set(month.gestao.headers);
    expect(originals.body.data[0].id).toBe(g1!.parcela_id);
    expect(g1!.pagamento_id).toBe(g1!.liquidacao_gestao_id);
    const card = await all('/v1/extrato/gestao', month.gestao, { data_repasse: '2026-03-10' });
    expect(
      card.map((r) => [
        r.cartao_de_credito_parcelamento,
        r.liquidacao_gestao_id === `${r.pagamento_id}:1`,
        typeof r.parcela_cartao_de_credito_id,
      ]),
    ).toEqual([['1/3', true, 'string']]);
  });

  it('filters by competencia_vencimento read as MM/AAAA and by data_repasse', async () => {
    expect(await all('/v1/extrato/gestao', month.gestao, { competencia_vencimento: '03/2026' })).toHaveLength(7);
    expect(await all('/v1/extrato/gestao', month.gestao, { competencia_vencimento: '04/2026' })).toHaveLength(0);
    // The interface writes DD/AAAA; a day-shaped value is told the form the service reads.
    const dayShaped = await request(t.app)
      .get('/v1/extrato/gestao')
      .query({ competencia_vencimento: '27/2026' })
      .set(month.gestao.headers)
      .expect(400);
    expect(dayShaped.body).toEqual({
      code: 'VALIDATION-001',
      message:
        'The request does not match the contract: query.competencia_vencimento must be a month written MM/AAAA, such as 03/2026',
      details: [{ path: 'query.competencia_vencimento', message: 'must be a month written MM/AAAA, such as 03/2026' }],
    });
    expect(
      (await all('/v1/extrato/gestao', month.gestao, { data_repasse: '2026-04-09' })).map(
        (r) => r.cartao_de_credito_parcelamento,
      ),
    ).toEqual(['2/3']);
  });

  it('totals of closing:show are the records booked in the month: the sum of its rows and the hand-computed month', async () => {
    const rows = (await all('/v1/extrato/gestao', month.gestao)).filter((r) => r.competencia_recebimento === '03/2026');
    const shown = await closingCommands['closing:show']!.run(
      t.ctx.db,
      { institution: month.gestao.id, month: '2026-03' },
      [],
      { config: t.ctx.config, clock: t.clock },
    );
    const totals = shown.gestao as Record<string, string | number>;
    expect(totals).toMatchObject({
      rows: 5,
      valor_recebido_total: '3758.34',
      comissao_valor: '375.83',
      valor_repasse: '2382.51',
      valor_multa: '20.00',
      valor_juros: '5.00',
    });
    expect(rows).toHaveLength(5);
    expect(sum(rows.map((r) => r.liquidacao.valor_recebido_total))).toBe(375_834);
    expect(sum(rows.map((r) => r.comissao_valor))).toBe(37_583);
    expect(sum(rows.map((r) => r.valor_repasse))).toBe(238_251);
  });

  it('the CSV has the same rows and totals, ;-separated with a decimal comma', async () => {
    const lines = await csv('/v1/extrato/gestao', month.gestao, { competencia_vencimento: '03/2026' });
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatchObject({
      parcela_id_externo: 'G1',
      valor_repasse: '900,00',
      comissao_percentual: '10,00',
      liquidacao_valor_recebido_total: '1000,00',
    });
    expect(sum(lines.map((l) => l.liquidacao_valor_recebido_total!))).toBe(442_500);
    expect(sum(lines.map((l) => l.valor_repasse!))).toBe(298_251);
  });
});

const garantidaRow = (r: Record<string, any>) => [
  r.parcela_id_externo,
  r.parcela_cedida,
  r.valor_adimplencia,
  r.comissao_valor,
  r.valor_garantido,
  r.valor_garantido_primeiro_repasse,
  r.valor_garantido_segundo_repasse,
];

describe('monthly closing and the guaranteed-revenue statements (#7, #8)', () => {
  it('assigns the Receita Garantida installments due in the month with the hand-computed values (#7 numbers)', async () => {
    const rows = await all('/v1/extrato/cessoes_parcelas', month.garantida);
    expect(rows).toHaveLength(24);
    const byId = Object.fromEntries(rows.map((r) => [r.parcela_id_externo, garantidaRow(r)]));
    expect(byId.R1).toEqual(['R1', 'true', 1000, 50, 850, 510, 340]);
    expect(byId.R21).toEqual(['R21', 'true', 950, 47.5, 807.5, 484.5, 323]);
    expect(byId.R22).toEqual(['R22', 'true', 1234.56, 61.73, 1049.37, 629.62, 419.75]);
    expect(byId.R23).toEqual(['R23', 'false', 1000, 0, 0, 0, 0]);
    expect(byId.R24).toEqual(['R24', 'false', 1000, 0, 0, 0, 0]);
    expect(byId.R25).toBeUndefined();
    expect(rows[0]).toMatchObject({
      fechamento: { data: '2026-04-01T00:00:00', competencia: '2026-03-01', status: 'FECHADO' },
      data_primeiro_repasse: '2026-04-10',
      data_segundo_repasse: '2026-05-15',
      tipo_garantia: 'RECEITA_GARANTIDA',
      comissao_percentual: 5,
    });
  });

  it('an installment not assigned shows what is true: 0 %, nothing guaranteed, no transfer dates', async () => {
    const rows = await all('/v1/extrato/cessoes_parcelas', month.garantida);
    for (const id of ['R23', 'R24'])
      expect(rows.find((r) => r.parcela_id_externo === id)).toMatchObject({
        parcela_cedida: 'false',
        comissao_percentual: 0,
        comissao_valor: 0,
        valor_garantido: 0,
        data_primeiro_repasse: null,
        data_segundo_repasse: null,
        fechamento: { status: 'FECHADO' },
      });
    const sheet = await csv('/v1/extrato/cessoes_parcelas', month.garantida);
    expect(sheet.find((r) => r.parcela_id_externo === 'R23')).toMatchObject({
      comissao_percentual: '0,00',
      data_primeiro_repasse: '',
      data_segundo_repasse: '',
    });
  });

  it('#8 lists the assigned ones with decimal strings; totals equal the rows and the hand-computed month', async () => {
    const rows = await all('/v1/extrato/receita_garantida', month.garantida, { fechamento_competencia: '2026-03-31' });
    expect(rows).toHaveLength(22);
    expect(rows.find((r) => r.parcela_id_externo === 'R22')).toMatchObject({
      valor_principal: '1234.56',
      comissao_valor: '61.73',
      valor_garantido: '1049.37',
      comissao_percentual: '5.00',
    });
    expect(rows[0]).not.toHaveProperty('parcela_cedida');
    expect(sum(rows.map((r) => r.valor_garantido))).toBe(1_885_687);
    expect(sum(rows.map((r) => r.valor_garantido_primeiro_repasse))).toBe(1_131_412);
    expect(sum(rows.map((r) => r.valor_garantido_segundo_repasse))).toBe(754_275);
    const shown = await closingCommands['closing:show']!.run(
      t.ctx.db,
      { institution: month.garantida.id, month: '2026-03' },
      [],
      { config: t.ctx.config, clock: t.clock },
    );
    expect(shown.receita_garantida).toMatchObject({
      rows: 22,
      valor_principal: '22234.56',
      valor_adimplencia: '22184.56',
      comissao_valor: '1109.23',
      valor_garantido: '18856.87',
      valor_garantido_primeiro_repasse: '11314.12',
      valor_garantido_segundo_repasse: '7542.75',
    });
    expect(shown.cessoes_parcelas).toMatchObject({
      rows: 24,
      cedidas: 22,
      valor_principal: '24234.56',
      valor_garantido: '18856.87',
    });
  });

  it('the CSV of #7 and #8 has the same totals with a decimal comma', async () => {
    const assigned = await csv('/v1/extrato/cessoes_parcelas', month.garantida, {
      fechamento_competencia: '2026-03-01',
    });
    expect(assigned).toHaveLength(24);
    expect(sum(assigned.map((l) => l.valor_garantido!))).toBe(1_885_687);
    expect(assigned.find((l) => l.parcela_id_externo === 'R22')).toMatchObject({
      parcela_cedida: 'true',
      valor_principal: '1234,56',
    });
    const revenue = await csv('/v1/extrato/receita_garantida', month.garantida);
    expect(sum(revenue.map((l) => l.valor_garantido_segundo_repasse!))).toBe(754_275);
  });

  it('filters by parcela_id_externo', async () => {
    expect(
      (await all('/v1/extrato/receita_garantida', month.garantida, { parcela_id_externo: 'R21' })).map(garantidaRow),
    ).toEqual([['R21', undefined, '950.00', '47.50', '807.50', '484.50', '323.00']]);
    expect(
      await all('/v1/extrato/cessoes_parcelas', month.garantida, { fechamento_competencia: '2026-02-01' }),
    ).toEqual([]);
  });

  it('running the closing twice changes nothing', async () => {
    const before = await all('/v1/extrato/cessoes_parcelas', month.garantida);
    t.clock.set('2026-04-20T12:00:00Z');
    const again = await closeMonth(t.ctx.db, month.garantida.id, '2026-03-01', t.clock.now(), { actor: 'cli' });
    expect(again).toMatchObject({ outcome: 'UNCHANGED', assignments: 24, reopenings: 0 });
    expect(await all('/v1/extrato/cessoes_parcelas', month.garantida)).toEqual(before);
  });

  it('a contract change from next month leaves the closed month untouched; a change of the closed month is refused', async () => {
    const assignments = await all('/v1/extrato/cessoes_parcelas', month.garantida);
    const marchManagement = await all('/v1/extrato/gestao', month.gestao, { data_repasse: '2026-03-07' });
    await expect(month.contract(month.garantida, { from: '2026-03', commission: '7' })).rejects.toThrow(
      '2026-03 is already closed',
    );
    await month.contract(month.garantida, { from: '2026-04', commission: '7' });
    await month.contract(month.gestao, { from: '2026-04', commission: '20' });
    expect(await all('/v1/extrato/cessoes_parcelas', month.garantida)).toEqual(assignments);
    expect(await all('/v1/extrato/gestao', month.gestao, { data_repasse: '2026-03-07' })).toEqual(marchManagement);
    // The card's later installments keep the terms the payment was booked with.
    expect((await all('/v1/extrato/gestao', month.gestao, { data_repasse: '2026-04-09' }))[0]).toMatchObject({
      comissao_percentual: '10.00',
      comissao_valor: '33.33',
      valor_repasse: '300.00',
    });
  });

  it('a payment after the closing reaches the month only through an explicit --reopen, which is recorded', async () => {
    // Before its first transfer (10 April): a reopening is refused from then on.
    t.clock.set('2026-04-09T12:00:00Z');
    const reopened = await closeMonth(t.ctx.db, month.garantida.id, '2026-03-01', t.clock.now(), {
      actor: 'cli',
      reopen: true,
    });
    expect(reopened).toMatchObject({ outcome: 'REOPENED', assignments: 24, reopenings: 1 });
    const shown = await closingCommands['closing:show']!.run(
      t.ctx.db,
      { institution: month.garantida.id, month: '2026-03' },
      [],
      { config: t.ctx.config, clock: t.clock },
    );
    expect((shown.closing as { events: { action: string }[] }).events.map((e) => e.action)).toEqual([
      'CLOSED',
      'REOPENED',
    ]);
    expect(shown.receita_garantida).toMatchObject({ valor_garantido: '18856.87' });
  });
});

describe('tenancy, errors and the cron job', () => {
  it('another institution reads only its own statements (cross-tenant reads are empty)', async () => {
    expect(
      (await all('/v1/extrato/gestao', month.outra)).map((r) => [
        r.parcela_id_externo,
        r.comissao_valor,
        r.valor_repasse,
      ]),
    ).toEqual([['O1', '85.00', '915.00']]);
    expect(await all('/v1/extrato/cessoes_parcelas', month.gestao)).toEqual([]);
    expect(await all('/v1/extrato/receita_garantida', month.outra, { parcela_id_externo: 'R1' })).toEqual([]);
    expect(await all('/v1/extrato/gestao', month.garantida)).toEqual([]);
  });

  it.each([
    ['/v1/extrato/gestao', { competencia_vencimento: '10/03/2026' }, 'query.competencia_vencimento'],
    ['/v1/extrato/gestao', { competencia_vencimento: '13/2026' }, 'query.competencia_vencimento'],
    ['/v1/extrato/gestao', { data_repasse: '2026-02-30' }, 'query.data_repasse'],
    ['/v1/extrato/cessoes_parcelas', { fechamento_competencia: '03/2026' }, 'query.fechamento_competencia'],
  ])('%s with %o answers 400 VALIDATION-001 naming the field', async (path, query, field) => {
    const res = await request(t.app).get(path).query(query).set(month.garantida.headers);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it.each(['/v1/extrato/gestao', '/v1/extrato/cessoes_parcelas', '/v1/extrato/receita_garantida'])(
    '%s refuses an altered continuable with PAGING-001, as every listing does',
    async (path) => {
      const res = await request(t.app).get(path).query({ continuable: 'abc.def' }).set(month.garantida.headers);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('PAGING-001');
    },
  );

  it('answers 401 without an apikey', async () => {
    expect((await request(t.app).get('/v1/extrato/gestao')).status).toBe(401);
  });

  it('pages of 100 follow continuable; a token replayed with other filters or by another institution is refused', async () => {
    const big = await givenInstitution(t.ctx, 'Universidade Grande');
    await month.contract(big, {
      from: '2026-01',
      product: 'Receita Garantida',
      commission: '0',
      guaranteed: '100',
      'first-transfer': '100',
      'first-transfer-day': '5',
      'second-transfer-day': '5',
    });
    t.clock.set('2026-03-01T15:00:00Z');
    await submitAndProcess(
      t,
      big.headers,
      Array.from({ length: 105 }, (_, i) =>
        installment({
          idParcela: `B${String(i).padStart(3, '0')}`,
          valorBoleto: '10.00',
          dataVencimento: '2026-03-20T00:00:00',
        }),
      ),
    );
    t.clock.set('2026-04-02T12:00:00Z');
    await closeMonth(t.ctx.db, big.id, '2026-03-01', t.clock.now(), { actor: 'cli' });
    const first = await request(t.app).get('/v1/extrato/receita_garantida').set(big.headers);
    expect(first.body.data).toHaveLength(100);
    expect(first.body.metadata).toMatchObject({ totalItems: 105, itemsPerPage: 100 });
    const next = await request(t.app)
      .get('/v1/extrato/receita_garantida')
      .query({ continuable: first.body.metadata.continuable })
      .set(big.headers);
    expect(next.body.data.map((r: { parcela_id_externo: string }) => r.parcela_id_externo)).toEqual([
      'B100',
      'B101',
      'B102',
      'B103',
      'B104',
    ]);
    expect(next.body.metadata.continuable).toBeUndefined();
    const otherFilters = await request(t.app)
      .get('/v1/extrato/receita_garantida')
      .query({ continuable: first.body.metadata.continuable, fechamento_competencia: '2026-03-01' })
      .set(big.headers);
    expect(otherFilters.status).toBe(400);
    expect(otherFilters.body.code).toBe('PAGING-001');
    const otherTenant = await request(t.app)
      .get('/v1/extrato/receita_garantida')
      .query({ continuable: first.body.metadata.continuable })
      .set(month.garantida.headers);
    expect(otherTenant.status).toBe(400);
  });

  it('the cron task closes the previous Brasília month of every institution, and a second run changes nothing', async () => {
    t.clock.set('2026-05-01T03:00:00Z');
    const task = closeStatementMonthTask(t.ctx);
    await task({ _cron: {} } as never, {} as never);
    const april = await closingCommands['closing:show']!.run(
      t.ctx.db,
      { institution: month.garantida.id, month: '2026-04' },
      [],
      { config: t.ctx.config, clock: t.clock },
    );
    expect(april.receita_garantida).toMatchObject({
      rows: 1,
      valor_adimplencia: '1000.00',
      comissao_valor: '70.00',
      valor_garantido: '830.00',
    });
    await task({} as never, {} as never);
    const again = await closingCommands['closing:show']!.run(
      t.ctx.db,
      { institution: month.garantida.id, month: '2026-04' },
      [],
      { config: t.ctx.config, clock: t.clock },
    );
    expect(again).toEqual(april);
  });
});
