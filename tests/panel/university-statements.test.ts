import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { closeMonth } from '../../src/institution/statements/closing.js';
import { monthTotals } from '../../src/institution/statements/totals.js';
import { useTestContext } from '../support/context.js';
import { givenContract, GUARANTEED_REVENUE } from '../support/contracts.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { panelRows, type SignedIn, signIn } from './support.js';
import { givenUniversityStaff } from './university-support.js';

describe("a university's statements (Extratos)", () => {
  const t = useTestContext();
  let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;
  let financeiro: SignedIn;
  let otherAdmin: SignedIn;

  beforeAll(async () => {
    t.clock.set('2026-03-01T15:00:00Z');
    staff = await givenUniversityStaff(t, 'extratos');
    await givenContract(t.ctx, staff.university.id, GUARANTEED_REVENUE);
    await submitAndProcess(t, staff.university.headers, [
      installment({ idParcela: '=CMD1', numeroParcela: '1' }),
      installment({ idParcela: 'M-2', numeroParcela: '2' }),
    ]);
    t.clock.set('2026-04-01T03:00:00Z');
    await closeMonth(t.ctx.db, staff.university.id, '2026-03-01', t.clock.now(), { actor: 'cli' });
    // The sessions of a month ago have ended: sign in again now.
    financeiro = await signIn(t, staff.users.financeiro.email);
    otherAdmin = await signIn(t, staff.users.otherAdmin.email);
  });

  it("shows the month's closing and the totals of monthTotals; the last month by default", async () => {
    const totals = await monthTotals(t.ctx.db, staff.university.id, '2026-03-01');
    expect(totals.cessoes_parcelas.rows).toBe(2);
    const page = await financeiro.agent.get('/painel/extratos').expect(200);
    expect(page.text).toContain('value="2026-03"');
    expect(page.text).toContain('Fechado');
    expect(page.text).toContain('Extrato de cessões de parcelas');
    expect(page.text).toContain(`<dt>Linhas</dt><dd>2</dd>`);
    const april = await financeiro.agent.get('/painel/extratos?mes=2026-04').expect(200);
    expect(april.text).toContain('O mês ainda não foi fechado');
  });

  it("downloads each statement of the month as the API's CSV, formula-safe", async () => {
    const api = await request(t.app)
      .get('/v1/extrato/cessoes_parcelas')
      .query({ fechamento_competencia: '2026-03-01' })
      .set({ ...staff.university.headers, Accept: 'text/csv' })
      .expect(200);
    const csv = await financeiro.agent.get('/painel/extratos/cessoes-parcelas.csv?mes=2026-03').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text).toBe(api.text);
    expect(csv.text).toContain(";'=CMD1;");
    for (const name of ['gestao', 'receita-garantida'])
      expect((await financeiro.agent.get(`/painel/extratos/${name}.csv?mes=2026-03`)).status).toBe(200);
  });

  it("never shows another institution's statements, refuses bad months and other profiles, writes nothing", async () => {
    const before = await panelRows(t);
    const theirs = await otherAdmin.agent.get('/painel/extratos?mes=2026-03').expect(200);
    expect(theirs.text).toContain('O mês ainda não foi fechado');
    const theirCsv = await otherAdmin.agent.get('/painel/extratos/cessoes-parcelas.csv?mes=2026-03').expect(200);
    expect(theirCsv.text).not.toContain('CMD1');
    for (const mes of ['2026-13', 'março', '2026-3', '1999-12', "2026-03'--"])
      expect((await financeiro.agent.get('/painel/extratos').query({ mes })).status, mes).toBe(400);
    expect((await financeiro.agent.get('/painel/extratos?mes=2026-03&mes=2026-04')).status).toBe(400);
    expect((await financeiro.agent.get('/painel/extratos/outro.csv?mes=2026-03')).status).toBe(404);
    expect((await financeiro.agent.get('/painel/extratos/gestao.csv?mes=2026-13')).status).toBe(404);
    expect((await financeiro.agent.get('/painel/extratos/__proto__.csv?mes=2026-03')).status).toBe(404);
    const integracao = await signIn(t, staff.users.integracao.email);
    expect((await integracao.agent.get('/painel/extratos')).status).toBe(403);
    expect((await integracao.agent.get('/painel/extratos/gestao.csv?mes=2026-03')).status).toBe(403);
    const partner = await signIn(t, staff.users.partnerAdmin.email);
    expect((await partner.agent.get('/painel/extratos')).status).toBe(403);
    expect(await panelRows(t)).toMatchObject({ users: before.users, links: before.links, keys: before.keys });
  });
});
