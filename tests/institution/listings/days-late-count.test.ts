import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { installments } from '../../../src/db/schema/index.js';
import { daysLate } from '../../../src/institution/listings/original-filters.js';
import { useTestContext } from '../../support/context.js';
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

  it('dias_atraso > 0 counts both halves: open installments due that many days ago and paid ones paid that late', async () => {
    const open = await expected(7, sql`${installments.status} in ('ABERTO', 'PARCIALMENTE_PAGO')`);
    const paid = await expected(7, eq(installments.status, 'PAGO'));
    expect(open).toBe(40); // due 2025-06-23: 100 that day, 2 in 5 open or partly paid
    expect(paid).toBeGreaterThan(0);
    const res = await list({ dias_atraso: 7 });
    expect(res.body.metadata.totalItems).toBe(String(open + paid));
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
