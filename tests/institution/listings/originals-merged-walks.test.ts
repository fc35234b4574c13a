import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { listAll } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

const TODAY = '2025-06-30';

/**
 * 3,000 installments of one institution (and as many of another) written straight into the
 * table: every status and type, a third paid by the student, the rest by one of 40 guarantors.
 */
const seed = (t: ReturnType<typeof useTestContext>, institutionId: string, prefix: string) => t.ctx.sql`
  insert into installments (institution_id, upsert_key, external_id, batch_id, batch_seq, item_index, student_cpf,
    guarantor_document, guarantor_document_type, type, due_date, principal, on_time_value, product, status, payment_type,
    paid_on, balance)
  select ${institutionId}, 'ext:' || ${prefix} || i, ${prefix} || i, gen_random_uuid(), 1, i,
    lpad((i / 6)::text, 11, '0'),
    case when i % 3 = 0 then lpad((i / 6)::text, 11, '0') else lpad((i % 40)::text, 11, '9') end, 'CPF',
    (array['Mensalidade','Mensalidade','Matricula','Rematricula','Negociacao','Taxa_outros','Mensalidade'])[1 + i % 7],
    date '2025-06-01' + (i % 20), 500, 450, (array['Gestão','Receita Garantida'])[1 + i % 2],
    (array['PAGO','ABERTO','PAGO','PARCIALMENTE_PAGO','ABERTO','CANCELADO_IES','PAGO','ABERTO','PAGO','ABERTO','PAGO'])[1 + i % 11],
    case when i % 11 in (0, 2, 6, 8, 10) then 'Pago na IES' end,
    case when i % 11 in (0, 2, 6, 8, 10) then date '2025-06-01' + (i % 20) + (i % 23) end,
    case when i % 11 in (0, 2, 6, 8, 10) then 0 else 500 end
  from generate_series(1, 3000) as i`;

describe('GET /v1/parcela/originais: pages merged from several walks', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const other = await givenInstitution(t.ctx, 'Outra Universidade');
    await seed(t, inst.id, 'A');
    await seed(t, other.id, 'B');
    await t.ctx.sql`analyze installments`;
    t.clock.set(new Date(`${TODAY}T15:00:00Z`));
  }, 60_000);

  /** The institution's matches of a plain condition, in creation order. */
  async function expected(condition: string): Promise<string[]> {
    const rows = await t.ctx.sql.unsafe<{ external_id: string }[]>(
      `select external_id from installments where institution_id = $1 and (${condition}) order by seq`,
      [inst.id],
    );
    return rows.map((r) => r.external_id);
  }

  it.each([
    ['situacao=ABERTO', { situacao: 'ABERTO' }, `status = 'ABERTO'`],
    ['situacao=CANCELADO_IES', { situacao: 'CANCELADO_IES' }, `status = 'CANCELADO_IES'`],
    ['tipo=Mensalidade', { tipo: 'Mensalidade' }, `type = 'Mensalidade'`],
    ['tipo=TAXA_OUTROS (either letter case)', { tipo: 'TAXA_OUTROS' }, `type = 'Taxa_outros'`],
    ['em_acordo=true', { em_acordo: 'true' }, `type = 'Negociacao'`],
    ['em_acordo=false', { em_acordo: 'false' }, `type <> 'Negociacao'`],
    [
      'acordo_situacao=ATIVO',
      { acordo_situacao: 'ATIVO' },
      `type = 'Negociacao' and status in ('ABERTO', 'PARCIALMENTE_PAGO')`,
    ],
    [
      'situacao and produto',
      { situacao: 'PAGO', produto: 'Receita Garantida' },
      `status = 'PAGO' and product = 'Receita Garantida'`,
    ],
    ['situacao and tipo', { situacao: 'ABERTO', tipo: 'Matricula' }, `status = 'ABERTO' and type = 'Matricula'`],
    [
      'a guarantor who is not the student',
      { responsavel_financeiro_documento: '99999999917' },
      `guarantor_document = '99999999917'`,
    ],
    [
      'a student paying their own tuition, as guarantor',
      { responsavel_financeiro_documento: '00000000060' },
      `guarantor_document = '00000000060'`,
    ],
    [
      'a guarantor and dias_atraso',
      { responsavel_financeiro_documento: '99999999917', dias_atraso: '12' },
      `guarantor_document = '99999999917' and ((status in ('ABERTO', 'PARCIALMENTE_PAGO')
        and business_day_on_or_after(due_date) = date '${TODAY}' - 12)
        or (status = 'PAGO' and paid_on - business_day_on_or_after(due_date) = 12))`,
    ],
    [
      'dias_atraso, open and paid',
      { dias_atraso: '12' },
      `(status in ('ABERTO', 'PARCIALMENTE_PAGO') and business_day_on_or_after(due_date) = date '${TODAY}' - 12)
        or (status = 'PAGO' and paid_on - business_day_on_or_after(due_date) = 12)`,
    ],
    [
      'dias_atraso 0: cancelled, open and not yet late, paid on time',
      { dias_atraso: '0' },
      `status = 'CANCELADO_IES' or (status in ('ABERTO', 'PARCIALMENTE_PAGO')
        and business_day_on_or_after(due_date) >= date '${TODAY}')
        or (status = 'PAGO' and paid_on <= business_day_on_or_after(due_date))`,
    ],
    [
      'a guarantor and situacao',
      { responsavel_financeiro_documento: '99999999917', situacao: 'PAGO' },
      `guarantor_document = '99999999917' and status = 'PAGO'`,
    ],
  ])('%s: every match once, in creation order, counted exactly', async (_name, query, condition) => {
    const want = await expected(condition);
    expect(want.length).toBeGreaterThan(0);
    const listed = await listAll(t, inst.headers, query as Record<string, string>);
    expect(listed.map((r) => r.id_externo)).toEqual(want);
    const first = await request(t.app).get('/v1/parcela/originais').query(query).set(inst.headers).expect(200);
    expect(first.body.metadata.totalItems).toBe(String(want.length));
  });

  it('a filter no row matches gives an empty page and 0', async () => {
    const res = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ situacao: 'CANCELADO_IES', acordo_situacao: 'QUITADO' })
      .set(inst.headers)
      .expect(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.metadata.totalItems).toBe('0');
  });
});
