import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../support/context.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { chargeIds, paymentPath, submitForm } from '../support/payments.js';
import { signIn } from './support.js';
import { givenUniversityStaff } from './university-support.js';

/** The day this file's "now" falls on: 16 March 2026, 12:00 in Brasília. */
const NOW = '2026-03-16T15:00:00Z';

/** The `href`s of a page, `&amp;` read back as `&`. */
const hrefsOf = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
/** The `idParcela`s an installments page lists. */
const listedIn = (page: string) => [...page.matchAll(/>(P-[A-Z]+)<\/a>/g)].map((m) => m[1]);
/** A figure of the home page: its label (linked or not), its count and what follows it. */
const figureOf = (page: string, label: string) => {
  const match = new RegExp(
    `<dt>(?:<a href="[^"]*">)?${label}(?:</a>)?</dt><dd><span class="count">(\\d+)</span>(?: <span class="amount">(.*?)</span>)?</dd>`,
  ).exec(page);
  expect(match, `the figure ${label}`).not.toBeNull();
  return { count: Number(match![1]), detail: match![2]?.replace(/<[^>]+>/g, '') };
};

describe("a university's Início: installments of the month, received per day, batches with errors", () => {
  const t = useTestContext();
  let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;
  /** What the payment of P-PAGA received, as the API reports it. */
  let received: string;

  const pay = async (headers: Record<string, string>, idParcela: string, at: string) => {
    t.clock.set(at);
    const path = await paymentPath(t, headers, idParcela, CPF.carlos);
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    await submitForm(t, `${path}/charges/${chargeId}/simulate-payment`);
    await t.runJobs();
  };

  beforeAll(async () => {
    // Signed in at "now", so that no session has expired when the pages are read.
    t.clock.set(NOW);
    staff = await givenUniversityStaff(t, 'inicio');
    t.clock.set('2026-02-20T12:00:00Z');
    const due = (idParcela: string, day: string) =>
      installment({ idParcela, numeroParcela: idParcela, dataVencimento: `${day}T00:00:00` });
    await submitAndProcess(t, staff.university.headers, [
      due('P-ATRASADA', '2026-03-10'),
      due('P-ABERTA', '2026-03-20'),
      due('P-PAGA', '2026-03-05'),
      due('P-FEVEREIRO', '2026-02-27'),
      due('P-ABRIL', '2026-04-10'),
      // Due on Sunday 15 March: its business due date is Monday the 16th, "now", so not late yet.
      due('P-DOMINGO', '2026-03-15'),
    ]);
    await submitAndProcess(t, staff.other.headers, [due('P-OUTRA', '2026-03-10'), due('P-OUTRA-PAGA', '2026-03-05')]);
    // 23:30 of 28 February in Brasília is already 1 March in UTC: a February payment.
    await pay(staff.university.headers, 'P-FEVEREIRO', '2026-03-01T02:30:00Z');
    await pay(staff.university.headers, 'P-PAGA', '2026-03-12T15:00:00Z');
    await pay(staff.other.headers, 'P-OUTRA-PAGA', '2026-03-12T16:00:00Z');
    // Refused items: at 23:59 of 8 March (Brasília), eight days before, and at 00:30 of 10 March.
    t.clock.set('2026-03-09T02:59:00Z');
    await submitAndProcess(t, staff.university.headers, [installment({ alunoCpf: '123' })]);
    t.clock.set('2026-03-10T03:30:00Z');
    await submitAndProcess(t, staff.university.headers, [
      installment({ alunoCpf: '123' }),
      installment({ idParcela: 'P-ABRIL', dataVencimento: '2026-04-10T00:00:00' }),
    ]);
    await submitAndProcess(t, staff.other.headers, [installment({ alunoCpf: '123' })]);
    t.clock.set(NOW);
    const api = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ id_externo: 'P-PAGA' })
      .set(staff.university.headers)
      .expect(200);
    received = api.body.data[0].valor_liquidado.recebido as string;
  });

  const brl = (reais: string) =>
    `R$ ${Number(reais).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

  it('counts the installments due this month as open, paid and late (dias_atraso above 0), with their amounts', async () => {
    const home = (await staff.sessions.financeiro.agent.get('/painel').expect(200)).text;
    expect(home).toContain('Parcelas que vencem em março de 2026');
    expect(figureOf(home, 'Em aberto, a vencer')).toEqual({
      count: 2,
      detail: 'R$ 2.500,00 de saldo (2 sem pagamento)',
    });
    expect(figureOf(home, 'Pagas')).toEqual({ count: 1, detail: 'R$ 1.250,00 de valor principal' });
    expect(figureOf(home, 'Em atraso')).toEqual({ count: 1, detail: 'R$ 1.250,00 de saldo (1 sem pagamento)' });
  });

  it('links each figure to the installments list filtered the same way, which shows exactly those rows', async () => {
    const s = staff.sessions.financeiro;
    const links = hrefsOf((await s.agent.get('/painel').expect(200)).text).filter((h) =>
      h.startsWith('/painel/parcelas?'),
    );
    expect(links).toEqual([
      // Late: due by Friday the 13th, the last business day before Monday the 16th.
      '/painel/parcelas?situacao=ABERTO&data_inicial_vencimento=2026-03-14&data_final_vencimento=2026-03-31',
      '/painel/parcelas?situacao=PAGO&data_inicial_vencimento=2026-03-01&data_final_vencimento=2026-03-31',
      '/painel/parcelas?situacao=ABERTO&data_inicial_vencimento=2026-03-01&data_final_vencimento=2026-03-13',
    ]);
    const rows = await Promise.all(links.map(async (l) => listedIn((await s.agent.get(l).expect(200)).text)));
    expect(rows).toEqual([['P-ABERTA', 'P-DOMINGO'], ['P-PAGA'], ['P-ATRASADA']]);
  });

  it("draws what was received per day in Brasília days, a payment at 23:30 of the previous month's last day left out", async () => {
    const home = (await staff.sessions.administrador.agent.get('/painel').expect(200)).text;
    expect(Number(received)).toBeGreaterThan(1250);
    const chart = /<div class="day-chart">[\s\S]*?<\/table>/.exec(home)![0];
    expect(chart).toMatch(/<svg role="img" aria-labelledby="recebido-titulo recebido-resumo"/);
    expect(chart).toContain(
      `<desc id="recebido-resumo">${brl(received)} em 1 pagamento; o maior dia foi 12/03, com ${brl(received)}.</desc>`,
    );
    expect([...chart.matchAll(/<rect class="bar"/g)]).toHaveLength(1);
    expect(chart).not.toMatch(/style=/);
    const rows = [...chart.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>([^<]+)<\/td><td>([^<]+)<\/td><\/tr>/g)].map(
      (m) => m.slice(1),
    );
    expect(rows).toEqual([
      ['12/03', brl(received), '1'],
      ['Total', brl(received), '1'],
    ]);
    expect(chart).toContain(
      '<caption class="visually-hidden">Recebido pela plataforma por dia em março de 2026</caption>',
    );
  });

  it('lists the batches with refused items of the last seven Brasília days, each linked to its errors', async () => {
    const home = (await staff.sessions.integracao.agent.get('/painel').expect(200)).text;
    const [recent] = await t.ctx.sql<{ id: string }[]>`
      select b.id::text from batches b where b.institution_id = ${staff.university.id} and b.error_count > 0
      and b.created_at = '2026-03-10T03:30:00Z'`;
    expect(home).toContain('Lotes com itens recusados nos últimos 7 dias');
    expect(home).toContain('<p>1 lote:</p>');
    expect(home).toContain(
      `<a href="/painel/lotes/${recent!.id}">Parcelas de 10/03/2026 00:30</a>: 1 de 2 itens recusados`,
    );
    expect(hrefsOf(home).filter((h) => h.startsWith('/painel/lotes/'))).toEqual([`/painel/lotes/${recent!.id}`]);
  });

  it('shows each profile only what its sections open: Financeiro no batches, Integração no money, Administrador all', async () => {
    const financeiro = (await staff.sessions.financeiro.agent.get('/painel').expect(200)).text;
    expect(financeiro).toContain('Parcelas que vencem');
    expect(financeiro).toContain('<div class="day-chart">');
    expect(financeiro).not.toContain('Lotes com itens recusados');
    expect(financeiro).not.toContain('Webhooks com falha');
    const integracao = (await staff.sessions.integracao.agent.get('/painel').expect(200)).text;
    expect(integracao).not.toContain('R$');
    expect(integracao).not.toContain('Parcelas que vencem');
    expect(integracao).not.toContain('<div class="day-chart">');
    expect(integracao).toContain('Lotes com itens recusados');
    expect(integracao).toContain('Nenhuma configuração com falha na última entrega.');
    const administrador = (await staff.sessions.administrador.agent.get('/painel').expect(200)).text;
    for (const part of [
      'Parcelas que vencem',
      '<div class="day-chart">',
      'Lotes com itens recusados',
      'Webhooks com falha',
    ])
      expect(administrador).toContain(part);
  });

  it("never counts another institution's installments, payments or batches; a partner's Início has none of them", async () => {
    const theirs = (await staff.sessions.otherAdmin.agent.get('/painel').expect(200)).text;
    expect(figureOf(theirs, 'Em atraso')).toEqual({ count: 1, detail: 'R$ 1.250,00 de saldo (1 sem pagamento)' });
    expect(figureOf(theirs, 'Em aberto, a vencer').count).toBe(0);
    expect(figureOf(theirs, 'Pagas').count).toBe(1);
    expect(theirs).toContain('<p>1 lote:</p>');
    const ours = (await staff.sessions.administrador.agent.get('/painel').expect(200)).text;
    expect(figureOf(ours, 'Em atraso').count).toBe(1);
    const partner = (await staff.sessions.partnerAdmin.agent.get('/painel').expect(200)).text;
    expect(partner).not.toContain('Parcelas que vencem');
    expect(partner).not.toContain('Lotes com itens recusados');
  });

  it('an empty month shows zeros, no bar and no batch', async () => {
    t.clock.set('2026-06-15T15:00:00Z');
    try {
      const june = await signIn(t, staff.users.administrador.email);
      const home = (await june.agent.get('/painel').expect(200)).text;
      expect(home).toContain('Parcelas que vencem em junho de 2026');
      for (const label of ['Em aberto, a vencer', 'Pagas', 'Em atraso']) expect(figureOf(home, label).count).toBe(0);
      expect(home).not.toContain('<rect class="bar"');
      expect(home).toContain('<desc id="recebido-resumo">Nenhum pagamento pela plataforma neste mês.</desc>');
      expect(home).toContain('Nenhum dia com movimento.');
      expect(home).toContain('Nenhum lote com itens recusados nos últimos 7 dias.');
      expect(hrefsOf(home).filter((h) => h.startsWith('/painel/parcelas?'))).toEqual([
        '/painel/parcelas?situacao=PAGO&data_inicial_vencimento=2026-06-01&data_final_vencimento=2026-06-30',
      ]);
    } finally {
      t.clock.set(NOW);
    }
  });
});

describe("a university's Início with more batches with errors than it lists", () => {
  const t = useTestContext();

  it('lists the newest ten and links the rest to the batches page', async () => {
    t.clock.set(NOW);
    const staff = await givenUniversityStaff(t, 'muitos');
    for (let i = 0; i < 12; i++) {
      t.clock.set(new Date(Date.parse(NOW) - (12 - i) * 60_000));
      await submitAndProcess(t, staff.university.headers, [installment({ alunoCpf: '123' })]);
    }
    t.clock.set(NOW);
    const home = (await staff.sessions.integracao.agent.get('/painel').expect(200)).text;
    expect(home).toContain('<p>12 lotes:</p>');
    expect(hrefsOf(home).filter((h) => /^\/painel\/lotes\/[0-9a-f-]{36}$/.test(h))).toHaveLength(10);
    expect(home).toContain('Parcelas de 16/03/2026 11:59');
    expect(home).not.toContain('Parcelas de 16/03/2026 11:48');
    expect(home).toContain('<p>E mais 2 na <a href="/painel/lotes">lista de lotes</a>.</p>');
  });
});
