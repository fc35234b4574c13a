/* eslint-disable @typescript-eslint/no-explicit-any -- records of the API's JSON are read by field name */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { closeMonth } from '../../src/institution/statements/closing.js';
import { hardMonth } from '../institution/statements/fixture.js';
import { useTestContext } from '../support/context.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { givenPartner } from '../support/tenants.js';
import { dayBr, linkHref, reais, tableRows } from './statement-pages.js';
import { givenUser, type SignedIn, signIn } from './support.js';

const t = useTestContext();
let month: Awaited<ReturnType<typeof hardMonth>>;
let gestao: SignedIn;
let garantida: SignedIn;
let outra: SignedIn;

const API = {
  gestao: ['/v1/extrato/gestao', { competencia_vencimento: '03/2026' }],
  'cessoes-parcelas': ['/v1/extrato/cessoes_parcelas', { fechamento_competencia: '2026-03-01' }],
  'receita-garantida': ['/v1/extrato/receita_garantida', { fechamento_competencia: '2026-03-01' }],
} as const;

const apiPage = (name: keyof typeof API, headers: Record<string, string>, query: Record<string, string> = {}) =>
  request(t.app)
    .get(API[name][0])
    .query({ ...API[name][1], ...query })
    .set(headers);

/** What the page shows of a record of the management statement, from the API's JSON. */
const managementCells = (r: any) => [
  r.parcela_id_externo,
  r.responsavel_financeiro_nome || '—',
  dayBr(r.data_vencimento),
  dayBr(r.data_recebimento),
  { PIX: 'Pix', BOLETO: 'Boleto', CARTAO_DE_CREDITO: 'Cartão de crédito', NAO_INFORMADO: 'Não informado' }[
    r.meio_pagamento as string
  ],
  reais(r.valor_recebido_principia),
  reais(r.liquidacao.valor_juros),
  reais(r.liquidacao.valor_multa),
  reais(r.liquidacao.valor_desconto),
  reais(r.liquidacao.valor_recebido_total),
  reais(r.comissao_valor),
  reais(r.valor_repasse),
];

/** What the page shows of a record of the assignment or guaranteed-revenue statement. */
const guaranteedCells = (r: any, withAssigned: boolean) => [
  r.parcela_id_externo,
  r.responsavel_financeiro_nome || '—',
  dayBr(r.data_vencimento),
  ...(withAssigned ? [r.parcela_cedida === 'true' ? 'Sim' : 'Não'] : []),
  r.fechamento.status === 'REPASSADO' ? 'Repassado' : 'Fechado',
  ...[
    r.valor_principal,
    r.valor_adimplencia,
    r.comissao_valor,
    r.valor_garantido,
    r.valor_garantido_primeiro_repasse,
    r.valor_garantido_segundo_repasse,
  ].map(reais),
];

beforeAll(async () => {
  month = await hardMonth(t);
  t.clock.set('2026-03-26T15:00:00Z');
  // Enough installments for the assignment statement to need a second page.
  await submitAndProcess(
    t,
    month.garantida.headers,
    Array.from({ length: 90 }, (_, i) =>
      installment({ idParcela: `X${String(i + 1).padStart(3, '0')}`, dataVencimento: '2026-03-20T00:00:00' }),
    ),
  );
  t.clock.set('2026-04-01T03:00:00Z');
  for (const tenant of [month.gestao, month.garantida, month.outra])
    await closeMonth(t.ctx.db, tenant.id, '2026-03-01', t.clock.now(), { actor: 'cli' });
  const user = async (id: string, email: string) => {
    await givenUser(t, { kind: 'institution', id }, email, 'financeiro');
    return signIn(t, email);
  };
  gestao = await user(month.gestao.id, 'fin@gestao.example');
  garantida = await user(month.garantida.id, 'fin@garantida.example');
  outra = await user(month.outra.id, 'fin@outra.example');
});

describe("a university's statements on screen (Extratos, linha a linha)", () => {
  it("shows the API's page of each statement for the month, value for value", async () => {
    const cases = [
      ['gestao', gestao, month.gestao.headers, managementCells],
      ['cessoes-parcelas', garantida, month.garantida.headers, (r: any) => guaranteedCells(r, true)],
      ['receita-garantida', garantida, month.garantida.headers, (r: any) => guaranteedCells(r, false)],
    ] as const;
    for (const [name, user, headers, cells] of cases) {
      const api = await apiPage(name, headers).expect(200);
      const page = await user.agent.get(`/painel/extratos/${name}?mes=2026-03`).expect(200);
      expect(api.body.data.length, name).toBeGreaterThan(0);
      expect(tableRows(page.text), name).toEqual(api.body.data.map(cells));
      expect(page.text).toContain(`${api.body.metadata.totalItems} linhas`);
    }
    const managementPage = (await gestao.agent.get('/painel/extratos/gestao?mes=2026-03')).text;
    const management = tableRows(managementPage);
    // G2, paid by Pix 15 days late: 1000.00 + fine 20.00 + interest 5.00; commission 10%, transfer 2 days later.
    expect(management.find((r) => r[0] === 'G2')?.slice(3)).toEqual([
      '25/03/2026',
      'Pix',
      'R$ 1.000,00',
      'R$ 5,00',
      'R$ 20,00',
      'R$ 0,00',
      'R$ 1.025,00',
      'R$ 102,50',
      'R$ 922,50',
    ]);
    // Each transfer's day is under its amount.
    expect(managementPage).toContain('R$ 922,50<span class="sub">em 27/03/2026</span>');
    const r22 = await garantida.agent.get('/painel/extratos/receita-garantida?mes=2026-03&parcela_id_externo=R22');
    const [api22] = (await apiPage('receita-garantida', month.garantida.headers, { parcela_id_externo: 'R22' })).body
      .data;
    expect(r22.text).toContain(
      `${reais(api22.valor_garantido_primeiro_repasse)}<span class="sub">em ${dayBr(api22.data_primeiro_repasse)}</span>`,
    );
    expect(r22.text).toContain(
      `${reais(api22.valor_garantido_segundo_repasse)}<span class="sub">em ${dayBr(api22.data_segundo_repasse)}</span>`,
    );
  });

  it("pages forward with the API's own continuable, and back to the first page", async () => {
    const first = await apiPage('cessoes-parcelas', month.garantida.headers).expect(200);
    expect(first.body.metadata).toMatchObject({ itemsPerPage: 100 });
    expect(first.body.metadata.totalItems).toBeGreaterThan(100);
    const token = first.body.metadata.continuable as string;
    const page1 = await garantida.agent.get('/painel/extratos/cessoes-parcelas?mes=2026-03').expect(200);
    expect(tableRows(page1.text)).toHaveLength(100);
    const next = linkHref(page1.text, 'Próxima página');
    expect(next).toBe(`/painel/extratos/cessoes-parcelas?mes=2026-03&continuable=${token}`);
    const second = await apiPage('cessoes-parcelas', month.garantida.headers, { continuable: token }).expect(200);
    const page2 = await garantida.agent.get(next!).expect(200);
    expect(tableRows(page2.text).map((r) => r[0])).toEqual(second.body.data.map((r: any) => r.parcela_id_externo));
    expect(tableRows(page2.text)).toHaveLength(first.body.metadata.totalItems - 100);
    expect(linkHref(page2.text, 'Próxima página')).toBeUndefined();
    expect(linkHref(page2.text, 'Primeira página')).toBe('/painel/extratos/cessoes-parcelas?mes=2026-03');
  });

  it('filters as the route filters, reading the month and the filters as the API reads them', async () => {
    const one = await garantida.agent
      .get('/painel/extratos/receita-garantida')
      .query({ mes: '2026-03', parcela_id_externo: 'R22' })
      .expect(200);
    expect(tableRows(one.text).map((r) => [r[0], r[4]])).toEqual([['R22', 'R$ 1.234,56']]);
    const byTransfer = await gestao.agent
      .get('/painel/extratos/gestao')
      .query({ mes: '2026-03', data_repasse: '2026-03-27' })
      .expect(200);
    const api = await apiPage('gestao', month.gestao.headers, { data_repasse: '2026-03-27' }).expect(200);
    expect(tableRows(byTransfer.text)).toEqual(api.body.data.map(managementCells));
    expect(tableRows(byTransfer.text).map((r) => r[0])).toEqual(['G2']);
    const march = tableRows((await gestao.agent.get('/painel/extratos/gestao?mes=2026-03')).text);
    for (const mes of ['03/2026', '2026-03-31', ' 2026-03 '])
      expect(
        tableRows((await gestao.agent.get('/painel/extratos/gestao').query({ mes }).expect(200)).text),
        mes,
      ).toEqual(march);
    // A filter value is accepted by the page exactly when the API accepts it.
    for (const data_repasse of ['2026-03-27T00:00:00', '2026-03-27T00:00:00-03:00', '2026-02-30', '27/03/2026']) {
      const panel = await gestao.agent.get('/painel/extratos/gestao').query({ mes: '2026-03', data_repasse });
      const fromApi = await apiPage('gestao', month.gestao.headers, { data_repasse });
      expect([200, 400], data_repasse).toContain(panel.status);
      expect(panel.status === 200, data_repasse).toBe(fromApi.status === 200);
      if (panel.status === 400) expect(panel.text).toContain('Valor não aceito neste filtro.');
    }
  });

  it('refuses bad months, filters and page links with a 400 page, never a 500', async () => {
    const base = '/painel/extratos/cessoes-parcelas';
    const refused: Record<string, string | string[]>[] = [
      { mes: '2026-13' },
      { mes: ['2026-03', '2026-04'] },
      { mes: '2026-03', parcela_id_externo: ['R1', 'R2'] },
      { mes: '2026-03', fechamento_competencia: '2026-02-01' },
      { mes: '2026-03', lote: '1' },
      { mes: '2026-03', continuable: 'forjado.abc' },
      { mes: '2026-03', continuable: 'x'.repeat(5000) },
    ];
    for (const query of refused) {
      const res = await garantida.agent.get(base).query(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    // A token of March's listing, sent with another filter or another month, is refused.
    const token = (await apiPage('cessoes-parcelas', month.garantida.headers).expect(200)).body.metadata.continuable;
    for (const query of [
      { mes: '2026-02', continuable: token },
      { mes: '2026-03', parcela_id_externo: 'R1', continuable: token },
    ])
      expect((await garantida.agent.get(base).query(query)).status).toBe(400);
    const hostile = await garantida.agent
      .get(base)
      .query({ mes: '2026-03', parcela_id_externo: '<script>alert(1)</script>' });
    expect(hostile.status).toBe(200);
    expect(hostile.text).not.toContain('<script>alert');
    expect(hostile.text).toContain('Nenhuma linha');
    for (const path of [
      `${base}?mes[a]=1`,
      `${base}?__proto__=1`,
      `${base}?mes=2026-03&parcela_id_externo=%00`,
      '/painel/extratos/outro?mes=2026-03',
    ])
      expect((await garantida.agent.get(path)).status, path).toBeLessThan(500);
    expect((await garantida.agent.get('/painel/extratos/outro?mes=2026-03')).status).toBe(404);
  });

  it("never shows another institution's rows; a partner's user and Integração never reach them", async () => {
    const theirs = await outra.agent.get('/painel/extratos/gestao?mes=2026-03').expect(200);
    expect(tableRows(theirs.text).map((r) => r[0])).toEqual(['O1']);
    const assigned = await outra.agent.get('/painel/extratos/cessoes-parcelas?mes=2026-03').expect(200);
    expect(assigned.text).toContain('Nenhuma linha');
    expect(assigned.text).not.toMatch(/>R1</);
    // Another institution's page link is refused: the token is bound to its tenant.
    const token = (await apiPage('cessoes-parcelas', month.garantida.headers).expect(200)).body.metadata.continuable;
    expect(
      (await outra.agent.get('/painel/extratos/cessoes-parcelas').query({ mes: '2026-03', continuable: token })).status,
    ).toBe(400);
    const partner = await givenPartner(t.ctx, 'Escola Extratos');
    await givenUser(t, partner.id, 'super@escola-extratos.example', 'superadmin');
    const partnerUser = await signIn(t, 'super@escola-extratos.example');
    await givenUser(t, { kind: 'institution', id: month.garantida.id }, 'int@garantida.example', 'integracao');
    const integracao = await signIn(t, 'int@garantida.example');
    for (const name of ['gestao', 'cessoes-parcelas', 'receita-garantida']) {
      expect((await partnerUser.agent.get(`/painel/extratos/${name}?mes=2026-03`)).status).toBe(403);
      expect((await integracao.agent.get(`/painel/extratos/${name}?mes=2026-03`)).status).toBe(403);
    }
  });
});
