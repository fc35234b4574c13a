import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { installments } from '../../../src/db/schema/index.js';
import { daysLate } from '../../../src/institution/listings/days-late.js';
import { useTestContext } from '../../support/context.js';
import { installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

const TODAY = '2025-06-30';

describe('totalItems of GET /v1/parcela/originais filtered by dias_atraso', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  /**
   * 3,000 installments due over June 2025 (100 a day): open, partly paid, paid 5 days early to 17
   * days late, cancelled; types in turn. On 2025-06-30 the open ones due on the 23rd are 7 days late.
   */
  const seed = (institutionId: string, prefix: string) => t.ctx.sql`
    insert into installments (institution_id, upsert_key, external_id, batch_id, batch_seq, item_index, student_cpf,
      guarantor_document, guarantor_document_type, type, due_date, principal, on_time_value, product, status,
      paid_on, balance)
    select ${institutionId}, 'ext:' || ${prefix} || i, ${prefix} || i, gen_random_uuid(), 1, i,
      lpad((i / 10)::text, 11, '0'), lpad((i / 20)::text, 11, '9'), 'CPF',
      (array['Mensalidade','Mensalidade','Matricula','Negociacao'])[1 + i % 4],
      date '2025-06-01' + (i % 30), 500, 450, 'Gestão',
      (array['PAGO','PAGO','ABERTO','PARCIALMENTE_PAGO','CANCELADO_IES'])[1 + (i / 30) % 5],
      case when (i / 30) % 5 < 2 then date '2025-06-01' + (i % 30) + (i % 23) - 5 end,
      case when (i / 30) % 5 < 2 then 0 else 500 end
    from generate_series(1, 3000) as i`;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const other = await givenInstitution(t.ctx, 'Outra Universidade');
    await seed(inst.id, 'A');
    await seed(other.id, 'B');
    t.clock.set(new Date('2025-06-30T15:00:00Z'));
  });

  /** The institution's installments as many days late as the listing shows, under more conditions. */
  async function expected(days: number, ...more: SQL[]): Promise<number> {
    const [row] = await t.ctx.db
      .select({ n: count() })
      .from(installments)
      .where(and(eq(installments.institutionId, inst.id), sql`${daysLate(TODAY)} = ${days}`, ...more));
    return row!.n;
  }

  const list = (query: Record<string, string | number>) =>
    request(t.app).get('/v1/parcela/originais').query(query).set(inst.headers).expect(200);

  it.each([
    ['alone', {}, []],
    ['with tipo', { tipo: 'Matricula' }, [eq(installments.type, 'Matricula')]],
    ['with an open situacao', { situacao: 'ABERTO' }, [eq(installments.status, 'ABERTO')]],
    ['with situacao PAGO', { situacao: 'PAGO' }, [eq(installments.status, 'PAGO')]],
    [
      'with a due-date range',
      { data_inicial_vencimento: '2025-06-20', data_final_vencimento: '2025-06-25' },
      [sql`${installments.dueDate} between '2025-06-20' and '2025-06-25'`],
    ],
  ] as [string, Record<string, string>, SQL[]][])(
    'dias_atraso > 0 %s counts open and paid matches exactly, the other filters applied to both',
    async (_name, filters, conditions) => {
      const n = await expected(7, ...conditions);
      const res = await list({ dias_atraso: 7, ...filters });
      expect(res.body.metadata.totalItems).toBe(String(n));
      expect(res.body.data).toHaveLength(Math.min(n, 100));
      expect(res.body.data.every((r: { dias_atraso: number }) => r.dias_atraso === 7)).toBe(true);
    },
  );

  const open = sql`${installments.status} in ('ABERTO', 'PARCIALMENTE_PAGO')`;
  const paid = eq(installments.status, 'PAGO');

  it('dias_atraso > 0 counts both halves: open installments whose business due date is that many days ago and paid ones paid that late', async () => {
    const openCount = await expected(7, open);
    const paidCount = await expected(7, paid);
    // Due 2025-06-21 to 23 (Saturday to Monday: all due on Monday the 23rd): 100 a day, 2 in 5 open or partly paid.
    expect(openCount).toBe(120);
    expect(paidCount).toBeGreaterThan(0);
    const res = await list({ dias_atraso: 7 });
    expect(res.body.metadata.totalItems).toBe(String(openCount + paidCount));
  });

  it('Corpus Christi (2025-06-19, a Thursday) is a day off: due then or on the Friday after, 10 days late on 2025-06-30', async () => {
    expect(await expected(10, open)).toBe(80);
    const res = await list({ dias_atraso: 10, situacao: 'ABERTO' });
    const dueDates = new Set(res.body.data.map((r: { data_vencimento: string }) => r.data_vencimento));
    expect([...dueDates].sort()).toEqual(['2025-06-19', '2025-06-20']);
  });

  it.each([
    [1, '2025-06-29, a Sunday'],
    [11, '2025-06-19, Corpus Christi'],
  ])('dias_atraso %i matches no open installment: %s is no business due date', async (days) => {
    expect(await expected(days, open)).toBe(0);
    const res = await list({ dias_atraso: days });
    expect(res.body.metadata.totalItems).toBe(String(await expected(days, paid)));
    expect(res.body.data.every((r: { situacao: string }) => r.situacao === 'PAGO')).toBe(true);
  });

  it('dias_atraso = 0 counts every installment not late, cancelled ones included', async () => {
    const n = await expected(0);
    expect(n).toBeGreaterThan(600);
    expect((await list({ dias_atraso: 0 })).body.metadata.totalItems).toBe(String(n));
  });

  it.each(['-3', '7.5', 'sete'])('dias_atraso %s is refused (VALIDATION-001)', async (value) => {
    const res = await request(t.app).get('/v1/parcela/originais').query({ dias_atraso: value }).set(inst.headers);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.message).toContain('dias_atraso');
  });
});

describe('dias_atraso of an open installment due on a Saturday', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'sat', dataVencimento: '2026-02-28T00:00:00' })]);
  });

  const daysLateOn = async (at: string, query: Record<string, string> = {}) => {
    t.clock.set(at);
    return (await listAll(t, inst.headers, { id_externo: 'sat', ...query })).map((r) => r.dias_atraso);
  };

  it('is 0 on the next Monday, its business due date, and 1 on the Tuesday', async () => {
    expect(await daysLateOn('2026-03-02T15:00:00Z')).toEqual([0]);
    expect(await daysLateOn('2026-03-03T15:00:00Z')).toEqual([1]);
  });

  it('is found by dias_atraso 0 on the Monday and by dias_atraso 1 on the Tuesday, not the other way round', async () => {
    expect(await daysLateOn('2026-03-02T15:00:00Z', { dias_atraso: '0' })).toEqual([0]);
    expect(await daysLateOn('2026-03-02T15:00:00Z', { dias_atraso: '2' })).toEqual([]);
    expect(await daysLateOn('2026-03-03T15:00:00Z', { dias_atraso: '1' })).toEqual([1]);
    expect(await daysLateOn('2026-03-03T15:00:00Z', { dias_atraso: '3' })).toEqual([]);
  });
});
