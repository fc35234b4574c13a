import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../support/context.js';
import { givenContract, GUARANTEED_REVENUE } from '../support/contracts.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { formIdFor, formIdIn, post, type SignedIn, signIn } from './support.js';
import { givenUniversityStaff } from './university-support.js';

const t = useTestContext();
let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;
const s = {} as Record<'administrador' | 'financeiro' | 'integracao' | 'otherAdmin' | 'partnerAdmin', SignedIn>;

/** What a closing writes, for one institution: closings, their record, assignments and `mesFechado` events. */
async function closingRows(institutionId: string) {
  const [row] = await t.ctx.sql<{ closings: string; records: string; assignments: number; events: string }[]>`
    select (select string_agg(month::text || ':' || status, ',' order by month) from statement_closings where institution_id = ${institutionId}) as closings,
           (select string_agg(e.action || ':' || e.actor || ':' || e.assignments, ',' order by e.at) from statement_closing_events e
              join statement_closings c on c.id = e.closing_id where c.institution_id = ${institutionId}) as records,
           (select count(*)::int from installment_assignments where institution_id = ${institutionId}) as assignments,
           (select string_agg(payload->'dados'->>'mes' || ':' || (payload->'dados'->>'parcelas_cedidas'), ',' order by sequence)
              from institution_events where institution_id = ${institutionId} and name = 'mesFechado') as events`;
  return row!;
}

const closeWith = (user: SignedIn, mes: string, form: string) =>
  post(user, '/painel/extratos/fechar', { mes, _form: form });

beforeAll(async () => {
  t.clock.set('2026-03-01T15:00:00Z');
  staff = await givenUniversityStaff(t, 'fechar');
  await givenContract(t.ctx, staff.university.id, GUARANTEED_REVENUE);
  await submitAndProcess(t, staff.university.headers, [
    installment({ idParcela: 'F-1', valorBoleto: '1000.00' }),
    installment({ idParcela: 'F-2', valorBoleto: '500.50' }),
    installment({ idParcela: 'F-3', valorBoleto: '250.00' }),
  ]);
  // The other university sells guaranteed revenue without the terms a closing prices it with.
  await givenContract(t.ctx, staff.other.id, { product: 'Receita Garantida', commission: '5' });
  await submitAndProcess(t, staff.other.headers, [installment({ idParcela: 'O-1' })]);
  t.clock.set('2026-04-02T12:00:00Z');
  for (const profile of Object.keys(staff.users) as (keyof typeof s)[])
    s[profile] = await signIn(t, staff.users[profile].email);
});

describe("Fechar mês (Administrador): the CLI's closing from the Extratos page", () => {
  it('offers Fechar mês to the Administrador only; Financeiro sees the state, Integração and a partner never reach it', async () => {
    const before = await closingRows(staff.university.id);
    const admin = await s.administrador.agent.get('/painel/extratos?mes=2026-03').expect(200);
    expect(admin.text).toContain('href="/painel/extratos/fechar?mes=2026-03"');
    const fin = await s.financeiro.agent.get('/painel/extratos?mes=2026-03').expect(200);
    expect(fin.text).toContain('O mês ainda não foi fechado');
    expect(fin.text).not.toContain('/painel/extratos/fechar');
    const form = await formIdFor(t, staff.users.financeiro.email, { kind: 'month-closing', subject: '2026-03' });
    for (const user of [s.financeiro, s.integracao, s.partnerAdmin]) {
      expect((await user.agent.get('/painel/extratos/fechar?mes=2026-03')).status).toBe(403);
      const refused = await closeWith(user, '2026-03', form);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Acesso não permitido');
    }
    expect(await closingRows(staff.university.id)).toEqual(before);
  });

  it('closes the month after the confirmation: closing recorded, installments assigned, mesFechado stored, page shows Fechado; the same form again closes once', async () => {
    const confirm = await s.administrador.agent.get('/painel/extratos/fechar?mes=2026-03').expect(200);
    expect(confirm.text).toContain('O que o fechamento faz');
    expect(confirm.text).toContain('<dt>Parcelas a ceder</dt><dd>3</dd>');
    expect(confirm.text).toContain('<dd>R$ 1.750,50</dd>');
    const form = formIdIn(confirm.text, '/painel/extratos/fechar');
    const closed = await closeWith(s.administrador, '2026-03', form);
    expect(closed.status, closed.text.slice(0, 300)).toBe(201);
    expect(closed.text).toContain('O mês de março de 2026 foi fechado: 3 parcelas cedidas.');
    expect(closed.text).toContain('<dt>Situação</dt><dd>Fechado</dd>');
    const after = {
      closings: '2026-03-01:FECHADO',
      records: `CLOSED:${staff.users.administrador.email}:3`,
      assignments: 3,
      events: '2026-03:3',
    };
    expect(await closingRows(staff.university.id)).toEqual(after);
    const again = await closeWith(s.administrador, '2026-03', form);
    expect(again.status).toBe(201);
    expect(again.text).toContain('foi fechado: 3 parcelas cedidas.');
    expect(await closingRows(staff.university.id)).toEqual(after);
    const page = await s.financeiro.agent.get('/painel/extratos?mes=2026-03').expect(200);
    expect(page.text).toContain('<dt>Situação</dt><dd>Fechado</dd>');
    expect(page.text).toContain(staff.users.administrador.email);
  });

  it('the same form sent twice at the same moment closes once', async () => {
    const form = formIdIn(
      (await s.administrador.agent.get('/painel/extratos/fechar?mes=2026-02').expect(200)).text,
      '/painel/extratos/fechar',
    );
    const answers = await Promise.all([1, 2].map(() => closeWith(s.administrador, '2026-02', form)));
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    const rows = await closingRows(staff.university.id);
    expect(rows.closings).toBe('2026-02-01:FECHADO,2026-03-01:FECHADO');
    expect(rows.events).toBe('2026-03:3,2026-02:0');
  });

  it('refuses a month not over and one closed already, saying why, changing nothing', async () => {
    const before = await closingRows(staff.university.id);
    const april = await s.administrador.agent.get('/painel/extratos/fechar?mes=2026-04');
    expect(april.status).toBe(409);
    expect(april.text).toContain(
      'O mês de abril de 2026 ainda não terminou: ele pode ser fechado a partir de 01/05/2026.',
    );
    expect(april.text).not.toContain('name="_form"');
    const aprilForm = await formIdFor(t, staff.users.administrador.email, {
      kind: 'month-closing',
      subject: '2026-04',
    });
    expect((await closeWith(s.administrador, '2026-04', aprilForm)).status).toBe(409);
    const march = await s.administrador.agent.get('/painel/extratos/fechar?mes=2026-03');
    expect(march.status).toBe(409);
    expect(march.text).toContain('O mês de março de 2026 já foi fechado em');
    const marchForm = await formIdFor(t, staff.users.administrador.email, {
      kind: 'month-closing',
      subject: '2026-03',
    });
    const refused = await closeWith(s.administrador, '2026-03', marchForm);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('já foi fechado');
    expect((await s.administrador.agent.get('/painel/extratos?mes=2026-04')).text).not.toContain('Fechar mês');
    expect(await closingRows(staff.university.id)).toEqual(before);
  });

  it("refuses a month where the contract lacks the terms to price it, only in the user's own institution", async () => {
    const mine = await closingRows(staff.university.id);
    const theirs = await s.otherAdmin.agent.get('/painel/extratos/fechar?mes=2026-03').expect(200);
    expect(theirs.text).toContain('<dt>Parcelas a ceder</dt><dd>1</dd>');
    const refused = await closeWith(s.otherAdmin, '2026-03', formIdIn(theirs.text, '/painel/extratos/fechar'));
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('não tem os termos da receita garantida');
    expect(await closingRows(staff.other.id)).toEqual({ closings: null, records: null, assignments: 0, events: null });
    // Closing its February closes its own month only.
    const feb = await s.otherAdmin.agent.get('/painel/extratos/fechar?mes=2026-02').expect(200);
    expect((await closeWith(s.otherAdmin, '2026-02', formIdIn(feb.text, '/painel/extratos/fechar'))).status).toBe(201);
    expect((await closingRows(staff.other.id)).closings).toBe('2026-02-01:FECHADO');
    expect(await closingRows(staff.university.id)).toEqual(mine);
    const page = await s.otherAdmin.agent.get('/painel/extratos?mes=2026-03').expect(200);
    expect(page.text).toContain('O mês ainda não foi fechado');
    expect(page.text).not.toContain(staff.users.administrador.email);
  });

  it('answers hostile form values with a 4xx page and changes nothing', async () => {
    const before = { mine: await closingRows(staff.university.id), theirs: await closingRows(staff.other.id) };
    const january = await formIdFor(t, staff.users.administrador.email, { kind: 'month-closing', subject: '2026-01' });
    const cases: Record<string, unknown>[] = [
      { mes: '2026-13', _form: january },
      { mes: '<script>alert(1)</script>', _form: january },
      { _form: january },
      { mes: '2026-01' },
      { mes: '2026-01', _form: 'forjado' },
      { mes: '2026-02', _form: january },
      { mes: ['2026-01', '2026-02'], _form: january },
      { mes: '2026-01', _form: [january, january] },
      { mes: '2026-01\u0000', _form: january },
    ];
    for (const fields of cases) {
      const res = await s.administrador.agent
        .post('/painel/extratos/fechar')
        .type('form')
        .send({ _csrf: s.administrador.csrf, ...fields });
      expect(res.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(fields)).toBeLessThan(500);
      expect(res.text).not.toContain('<script>alert');
    }
    const noToken = await s.administrador.agent
      .post('/painel/extratos/fechar')
      .type('form')
      .send({ mes: '2026-01', _form: january });
    expect(noToken.status).toBe(403);
    for (const mes of ['2026-13', '<b>', '1999-12'])
      expect((await s.administrador.agent.get('/painel/extratos/fechar').query({ mes })).status, mes).toBe(400);
    expect({ mine: await closingRows(staff.university.id), theirs: await closingRows(staff.other.id) }).toEqual(before);
  });

  it('refuses a closed month whose transfers were made as passed on', async () => {
    const before = await closingRows(staff.university.id);
    // After the second transfer day of March's closing (15 May), its installments were passed on.
    t.clock.set('2026-05-20T12:00:00Z');
    const admin = await signIn(t, staff.users.administrador.email);
    const passed = await admin.agent.get('/painel/extratos/fechar?mes=2026-03');
    expect(passed.status).toBe(409);
    expect(passed.text).toContain('e os repasses dele já foram feitos');
    expect(await closingRows(staff.university.id)).toEqual(before);
  });
});
