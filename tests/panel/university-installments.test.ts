import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../support/context.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { chargeIds, paymentPath, submitForm } from '../support/payments.js';
import { panelRows, post } from './support.js';
import { givenUniversityStaff } from './university-support.js';

const linkCount = async (t: ReturnType<typeof useTestContext>) =>
  (await t.ctx.sql<{ n: number }[]>`select count(*)::int as n from payment_links`)[0]!.n;

/** The text of the body cells of the table a page labels `label`, in reading order. */
function cellsOf(page: string, label: string): string[] {
  const table = page.slice(page.indexOf(`aria-label="${label}"`));
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]!);
}

describe("a university's installments (Parcelas)", () => {
  const t = useTestContext();
  let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    staff = await givenUniversityStaff(t, 'parcelas');
    await submitAndProcess(t, staff.university.headers, [
      installment({ idParcela: 'P-1', numeroParcela: '1' }),
      installment({ idParcela: 'P-2', numeroParcela: '2', alunoCpf: CPF.pedro }),
      installment({ idParcela: 'P-3', numeroParcela: '3' }),
    ]);
    await submitAndProcess(t, staff.other.headers, [installment({ idParcela: 'OUTRA-1' })]);
    const rows = await t.ctx.sql<{ external_id: string; id: string }[]>`select external_id, id::text from installments`;
    for (const r of rows) ids[r.external_id] = r.id;
    // P-3 paid through its payment page, by Pix.
    const path = await paymentPath(t, staff.university.headers, 'P-3', CPF.carlos);
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    await submitForm(t, `${path}/charges/${chargeId}/simulate-payment`);
    await t.runJobs();
  });

  it('lists the installments with the API filters, read by the same service', async () => {
    const s = staff.sessions.financeiro;
    const all = await s.agent.get('/painel/parcelas').expect(200);
    for (const id of ['P-1', 'P-2', 'P-3']) expect(all.text).toContain(`>${id}</a>`);
    expect(all.text).not.toContain('OUTRA-1');
    const byStudent = await s.agent.get('/painel/parcelas').query({ aluno_cpf: CPF.pedro, situacao: '' }).expect(200);
    expect(byStudent.text).toContain('>P-2</a>');
    expect(byStudent.text).not.toContain('>P-1</a>');
    const api = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ situacao: 'PAGO' })
      .set(staff.university.headers)
      .expect(200);
    const paid = await s.agent.get('/painel/parcelas').query({ situacao: 'PAGO' }).expect(200);
    expect(api.body.data.map((i: { id_externo: string }) => i.id_externo)).toEqual(['P-3']);
    expect(paid.text).toContain('>P-3</a>');
    expect(paid.text).not.toContain('>P-1</a>');
    // The API's lenient dates: a time and a zone after the day are accepted and not used.
    await s.agent.get('/painel/parcelas').query({ data_inicial_vencimento: '2026-03-10T10:00:00-03:00' }).expect(200);
  });

  it('lists the submitted installments as sent, with the API filters, read by the same service', async () => {
    const s = staff.sessions.financeiro;
    const all = await s.agent.get('/painel/parcelas/enviadas').expect(200);
    expect(all.text).toContain('3 parcelas enviadas');
    for (const id of ['P-1', 'P-2', 'P-3']) expect(all.text).toContain(`<th scope="row">${id}<`);
    expect(all.text).not.toContain('OUTRA-1');
    const query = { aluno_cpf: CPF.pedro };
    const api = await request(t.app)
      .get('/importacao/enviados/parcelas')
      .query(query)
      .set(staff.university.headers)
      .expect(200);
    expect(api.body.data.map((i: { dadosEnviados: { idParcela: string } }) => i.dadosEnviados.idParcela)).toEqual([
      'P-2',
    ]);
    const byStudent = await s.agent.get('/painel/parcelas/enviadas').query(query).expect(200);
    expect(byStudent.text).toContain('1 parcela enviada');
    expect(byStudent.text).toContain('<th scope="row">P-2<');
    expect(byStudent.text).not.toContain('<th scope="row">P-1<');
    // Each row links to its batch, whose page the profile opens.
    expect(byStudent.text).toContain(`href="/painel/lotes/${api.body.data[0].loteId}"`);
    // Sent days are Brasília days: a range before the batch's finds nothing.
    const none = await s.agent
      .get('/painel/parcelas/enviadas')
      .query({ data_final_envio: '2020-01-01', data_inicial_envio: '2019-12-01' })
      .expect(200);
    expect(none.text).toContain('Nenhuma parcela enviada com esses filtros.');
  });

  it('refuses bad filters of the submitted installments on their field with 400, and writes nothing', async () => {
    const s = staff.sessions.financeiro;
    const before = await panelRows(t);
    const refusals: [Record<string, string>, string][] = [
      [{ lote: 'nao-e-id' }, 'campo-lote-error'],
      [{ data_inicial_envio: '2026-02-30' }, 'campo-data_inicial_envio-error'],
      [{ data_inicial_envio: '2026-03-10', data_final_envio: '2026-03-01' }, 'PARCELA-001'],
      [{ inventado: '1' }, 'Filtro desconhecido'],
      [{ aluno_cpf: 'a\u0000b' }, ''],
    ];
    for (const [query, shown] of refusals) {
      const res = await s.agent.get('/painel/parcelas/enviadas').query(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.text).toContain(shown);
    }
    expect((await s.agent.get('/painel/parcelas/enviadas?id_parcela=P-1&id_parcela=P-2')).status).toBe(400);
    expect((await s.agent.get('/painel/parcelas/enviadas?continuable=xyz.abc')).status).toBe(400);
    expect(await panelRows(t)).toEqual(before);
  });

  it("another institution's submitted installments are never listed; the Integração profile and a partner's user are refused", async () => {
    const other = await staff.sessions.otherAdmin.agent.get('/painel/parcelas/enviadas').expect(200);
    expect(other.text).toContain('<th scope="row">OUTRA-1<');
    expect(other.text).not.toContain('<th scope="row">P-1<');
    // A batch id of the other institution filters to nothing, not to its items.
    const [batch] = await t.ctx.sql<{ id: string }[]>`
      select b.id::text from batches b join installments i on i.institution_id = b.institution_id
      where i.external_id = 'OUTRA-1' and b.kind = 'parcela' limit 1`;
    const foreign = await staff.sessions.financeiro.agent
      .get('/painel/parcelas/enviadas')
      .query({ lote: batch!.id })
      .expect(200);
    expect(foreign.text).toContain('Nenhuma parcela enviada com esses filtros.');
    expect((await staff.sessions.integracao.agent.get('/painel/parcelas/enviadas')).status).toBe(403);
    expect((await staff.sessions.partnerAdmin.agent.get('/painel/parcelas/enviadas')).status).toBe(403);
  });

  it('the second line of a row header (parcela and type, a batch id) is its own muted line, as in a cell', async () => {
    const page = await staff.sessions.financeiro.agent.get('/painel/parcelas').expect(200);
    expect(page.text).toContain('>P-1</a><span class="sub">Parcela 1 · Mensalidade</span></th>');
    const rules = [...page.text.matchAll(/<style>([\s\S]*?)<\/style>/g)]
      .flatMap((style) => style[1]!.split('}'))
      .map((rule) => rule.split('{').map((part) => part.trim()));
    const declarationsOf = (selector: string) =>
      rules.filter(([selectors]) => selectors!.split(',').some((s) => s.trim() === selector)).map(([, d]) => d);
    expect(declarationsOf('th .sub').join(';')).toMatch(/display: block;.*font-weight: (normal|400)/);
  });

  it("an installment's page shows its payments, the method by its name; Gerar link de pagamento shows the API's link, once per installment", async () => {
    const s = staff.sessions.administrador;
    const page = await s.agent.get(`/painel/parcelas/${ids['P-3']}`).expect(200);
    // Date, method by its name, received, principal, interest, fine, discount.
    expect(cellsOf(page.text, 'Pagamentos')).toEqual([
      '15/01/2026',
      'Pix',
      'R$ 1.250,00',
      'R$ 1.250,00',
      'R$ 0,00',
      'R$ 0,00',
      'R$ 0,00',
    ]);

    const created = await post(s, `/painel/parcelas/${ids['P-1']}/link-pagamento`);
    expect(created.status).toBe(201);
    const api = await request(t.app)
      .post('/v1/parcela/link_pagamento')
      .set(staff.university.headers)
      .send({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: 'P-1' })
      .expect(200);
    expect(created.text).toContain(api.body.link_pagamento_url);

    const before = await linkCount(t);
    const paidAlready = await post(s, `/painel/parcelas/${ids['P-3']}/link-pagamento`);
    expect(paidAlready.status).toBe(400);
    expect(paidAlready.text).toContain('LINK-004');
    expect(await linkCount(t)).toBe(before);
  });

  it('refuses bad filters on their field with 400, an altered page, and writes nothing', async () => {
    const s = staff.sessions.financeiro;
    const before = await panelRows(t);
    const cases: Record<string, string>[] = [
      { situacao: 'QUALQUER' },
      { dias_atraso: '-1' },
      { dias_atraso: 'dez' },
      { em_acordo: 'talvez' },
      { data_inicial_vencimento: '2026-02-30' },
      { data_inicial_vencimento: '2026-03-10', data_final_vencimento: '2026-03-01' },
      { campo_inventado: '1' },
      { aluno_cpf: 'a\u0000b' },
    ];
    for (const query of cases) {
      const res = await s.agent.get('/painel/parcelas').query(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    expect((await s.agent.get('/painel/parcelas?situacao=PAGO&situacao=ABERTO')).status).toBe(400);
    expect((await s.agent.get('/painel/parcelas?continuable=xyz.abc')).status).toBe(400);
    expect(await panelRows(t)).toEqual(before);
  });

  it("another institution's installment is not found, on its page and for a link; other profiles are refused", async () => {
    const s = staff.sessions.administrador;
    const before = await linkCount(t);
    expect((await s.agent.get(`/painel/parcelas/${ids['OUTRA-1']}`)).status).toBe(404);
    expect((await post(s, `/painel/parcelas/${ids['OUTRA-1']}/link-pagamento`)).status).toBe(404);
    expect((await s.agent.get('/painel/parcelas/nao-e-id')).status).toBe(404);
    expect((await post(staff.sessions.otherAdmin, `/painel/parcelas/${ids['P-2']}/link-pagamento`)).status).toBe(404);
    expect((await staff.sessions.integracao.agent.get(`/painel/parcelas/${ids['P-2']}`)).status).toBe(403);
    expect((await post(staff.sessions.integracao, `/painel/parcelas/${ids['P-2']}/link-pagamento`)).status).toBe(403);
    expect((await post(staff.sessions.partnerAdmin, `/painel/parcelas/${ids['P-2']}/link-pagamento`)).status).toBe(403);
    // A form without its token changes nothing either.
    const forged = await s.agent.post(`/painel/parcelas/${ids['P-2']}/link-pagamento`).type('form').send({});
    expect(forged.status).toBe(403);
    expect(await linkCount(t)).toBe(before);
  });
});
