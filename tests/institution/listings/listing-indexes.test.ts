import type postgres from 'postgres';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  originalsPageSets,
  type OriginalsQuery,
  originalsSets,
} from '../../../src/institution/listings/original-filters.js';
import { originalsCountQuery, originalsPageQuery } from '../../../src/institution/listings/originals.js';
import { submittedFilters, submittedPage } from '../../../src/institution/listings/submitted.js';
import { type TestContext, useTestContext } from '../../support/context.js';
import { seedSubmittedBatches } from '../../support/submissions.js';
import { givenInstitution } from '../../support/tenants.js';

const TODAY = '2025-06-30';

/**
 * `count` installments of one institution written straight into the table, spread like a
 * university's: 10 per student, mostly monthly fees, most of them paid, due over 900 days.
 */
const seed = (t: TestContext, institutionId: string, count: number, prefix: string) => t.ctx.sql`
  insert into installments (institution_id, upsert_key, external_id, batch_id, batch_seq, item_index, student_cpf,
    guarantor_document, guarantor_document_type, type, due_date, principal, on_time_value, product, status, payment_type,
    paid_on, balance)
  select ${institutionId}, 'ext:' || ${prefix} || i, ${prefix} || i, gen_random_uuid(), 1, i,
    lpad((i / 10)::text, 11, '0'), lpad((i / 20)::text, 11, '9'), 'CPF',
    (array['Mensalidade','Mensalidade','Mensalidade','Mensalidade','Mensalidade','Mensalidade','Mensalidade','Matricula','Rematricula','Negociacao'])[1 + i % 10],
    date '2023-01-01' + (i % 900), 500, 450, 'Gestão',
    case when i % 10 < 6 then 'PAGO' when i % 10 < 9 then 'ABERTO' else 'PARCIALMENTE_PAGO' end,
    case when i % 10 < 6 then 'Pago na IES' end,
    case when i % 10 < 6 then date '2023-01-01' + (i % 900) + (i % 23) - 5 end,
    case when i % 10 < 6 then 0 else 500 end
  from generate_series(1, ${count}) as i`;

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** Every node of the plan of a statement (with `analyze`, actual row counts too). */
async function planNodes(sql: postgres.Sql, statement: { sql: string; params: unknown[] }, analyze = false) {
  const [row] = await sql.unsafe(
    `explain (format json${analyze ? ', analyze' : ''}) ${statement.sql}`,
    statement.params as never[],
  );
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk((row!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
  return nodes;
}

describe('GET /v1/parcela/originais at scale', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const other = await givenInstitution(t.ctx, 'Outra Universidade');
    await seed(t, inst.id, 40_000, 'A');
    await seed(t, other.id, 40_000, 'B');
    // Vacuumed as a settled table is: index-only scans count on the visibility map.
    await t.ctx.sql`analyze installments`;
  }, 120_000);

  /** Names of the indexes the plan of the listing's page query reads, for these filters. */
  async function indexesRead(query: OriginalsQuery): Promise<string[]> {
    const { sql, params } = originalsPageQuery(t.ctx.db, inst.id, query, TODAY, 0).toSQL();
    const [row] = await t.ctx.sql.unsafe(`explain (format json) ${sql}`, params as never[]);
    const names: string[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (typeof node['Index Name'] === 'string') names.push(node['Index Name']);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((row!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
    return names;
  }

  it.each([
    ['aluno_cpf', { aluno_cpf: '00000000123' }, 'installments_student_cpf_seq_idx'],
    [
      'responsavel_financeiro_documento',
      { responsavel_financeiro_documento: '99999999123' },
      'installments_guarantor_seq_idx',
    ],
    ['id_externo', { id_externo: 'A12345' }, 'installments_institution_id_upsert_key_index'],
    ['situacao', { situacao: 'PARCIALMENTE_PAGO' }, 'installments_status_type_seq_idx'],
    ['tipo', { tipo: 'Negociacao' }, 'installments_status_type_seq_idx'],
    [
      'a due-date range',
      { data_inicial_vencimento: '2024-03-01', data_final_vencimento: '2024-03-02' },
      'installments_due_date_idx',
    ],
    [
      'a payment-date range',
      { data_inicial_pagamento: '2024-03-01', data_final_pagamento: '2024-03-02' },
      'installments_paid_on_idx',
    ],
    ['dias_atraso (paid installments)', { dias_atraso: 7 }, 'installments_paid_days_late_idx'],
    ['dias_atraso (open installments)', { dias_atraso: 7 }, 'installments_due_date_idx'],
  ] as [string, OriginalsQuery, string][])('filter %s reads an index of its own', async (_name, query, index) => {
    expect(await indexesRead(query)).toContain(index);
  });

  /** Plan nodes of the first page's statement for these filters, run. */
  const pagePlan = (query: OriginalsQuery) =>
    planNodes(t.ctx.sql, originalsPageQuery(t.ctx.db, inst.id, query, TODAY, 0).toSQL(), true);

  it('a status page merges one walk per type of the shared index, each at most a page long', async () => {
    const nodes = await pagePlan({ situacao: 'PAGO' });
    const walks = nodes.filter((n) => n['Index Name'] === 'installments_status_type_seq_idx');
    expect(walks).toHaveLength(5);
    expect(nodes.some((n) => n['Node Type'] === 'Merge Append')).toBe(true);
    // 24,000 rows are paid; the merge reads a page and a row from each walk at most.
    const read = walks.reduce((sum, n) => sum + (n['Actual Rows'] as number), 0);
    expect(read).toBeLessThanOrEqual(5 * 101);
    expect(nodes.filter((n) => n['Node Type'] === 'Sort').every((n) => (n['Actual Rows'] as number) <= 101)).toBe(true);
    // The page's rows are then read straight from their place in the table, not looked up again.
    const fetched = nodes.filter((n) => n['Node Type'] === 'Tid Scan');
    expect(fetched.map((n) => n['Actual Rows'])).toEqual([101]);
  });

  it('a type page merges one walk per status', async () => {
    const nodes = await pagePlan({ tipo: 'Matricula' });
    expect(nodes.filter((n) => n['Index Name'] === 'installments_status_type_seq_idx')).toHaveLength(4);
  });

  it('a status and a type together are one range of the shared index, walked in page order', async () => {
    const nodes = await pagePlan({ situacao: 'PARCIALMENTE_PAGO', tipo: 'Matricula' });
    expect(nodes.map((n) => n['Index Name']).filter(Boolean)).toContain('installments_status_type_seq_idx');
    expect(nodes.some((n) => n['Node Type'] === 'Merge Append' || n['Node Type'] === 'Sort')).toBe(false);
  });

  it('a dias_atraso page reads the matches of the day through both indexes, never a walk of the institution', async () => {
    // Walked apart in creation order, a half would go through the institution looking for a rare
    // day (26,524 buffers at a million rows): the page reads both halves at once, the count apart.
    expect(originalsPageSets(inst.id, { dias_atraso: 7 }, TODAY)).toHaveLength(1);
    expect(originalsSets(inst.id, { dias_atraso: 7 }, TODAY)).toHaveLength(2);
    const nodes = await pagePlan({ dias_atraso: 7 });
    const names = nodes.map((n) => n['Index Name']).filter(Boolean);
    expect(names).toContain('installments_paid_days_late_idx');
    expect(names).toContain('installments_due_date_idx');
    expect(names).not.toContain('installments_institution_id_seq_index');
  });

  it("a guarantor's page reads the guarantor index and, for the student's own installments, the student index", async () => {
    const names = (await pagePlan({ responsavel_financeiro_documento: '99999999123' })).map((n) => n['Index Name']);
    expect(names).toContain('installments_guarantor_seq_idx');
    expect(names).toContain('installments_student_cpf_seq_idx');
  });

  it('dias_atraso > 0 is counted as two ranges, each by its own index, with no bitmap over both', async () => {
    const count = originalsCountQuery(t.ctx, inst.id, { dias_atraso: 7 }, TODAY).toSQL();
    const reads = (await planNodes(t.ctx.sql, count)).map((n) => n['Index Name'] ?? n['Node Type']);
    expect(reads).toContain('installments_paid_days_late_idx');
    expect(reads).toContain('installments_due_date_idx');
    expect(reads).not.toContain('BitmapOr');
    expect(reads).not.toContain('Seq Scan');
  });

  /** The nodes of the count's plan that read the due-date index, run. */
  const dueDateReads = async (query: OriginalsQuery) =>
    (await planNodes(t.ctx.sql, originalsCountQuery(t.ctx, inst.id, query, TODAY).toSQL(), true)).filter(
      (n) => n['Index Name'] === 'installments_due_date_idx',
    );

  it('the open half of dias_atraso = N reads the due dates whose business due date is today − N: a Monday, with its weekend', async () => {
    // 2025-06-30 less 7 days is Monday 2025-06-23, the business due date of 21, 22 and 23 June.
    const [read] = await dueDateReads({ dias_atraso: 7 });
    expect(read!['Index Cond']).toContain("(due_date >= '2025-06-21'::date) AND (due_date <= '2025-06-23'::date)");
  });

  it('the open half of dias_atraso = N reads nothing when today − N is a day off (Sunday 2025-06-29)', async () => {
    const [read] = await dueDateReads({ dias_atraso: 1 });
    expect(read!['Index Cond']).toContain("(due_date >= '2025-06-28'::date) AND (due_date <= '2025-06-27'::date)");
    expect(read!['Actual Rows']).toBe(0);
  });

  it('dias_atraso = 0 is counted as three index ranges (cancelled, open not yet late, paid on time), never the calendar of every row', async () => {
    expect(originalsSets(inst.id, { dias_atraso: 0 }, TODAY)).toHaveLength(3);
    const count = originalsCountQuery(t.ctx, inst.id, { dias_atraso: 0 }, TODAY).toSQL();
    const reads = (await planNodes(t.ctx.sql, count)).map((n) => n['Index Name'] ?? n['Node Type']);
    expect(reads).toContain('installments_status_type_seq_idx');
    expect(reads).toContain('installments_due_date_idx');
    expect(reads).toContain('installments_paid_days_late_idx');
    expect(reads).not.toContain('Seq Scan');
  });

  it('a dias_atraso = 0 page walks the institution in creation order, one process, and stops after a page', async () => {
    const nodes = await pagePlan({ dias_atraso: 0 });
    const walk = nodes.find((n) => n['Index Name'] === 'installments_institution_id_seq_index');
    expect(walk?.['Actual Rows']).toBe(101);
    expect(nodes.some((n) => String(n['Node Type']).startsWith('Gather'))).toBe(false);
  });

  it('the paid half of dias_atraso can be counted from its index alone: the index holds the columns of its expression', async () => {
    // A condition on an index expression is answered by an index-only scan only when the columns
    // the expression reads are in the index (at a million rows: 6.5 ms against 190 ms through the
    // heap). Which scan the planner picks then depends on how much of the table is all-visible.
    const columns = await t.ctx.sql<{ name: string }[]>`
      select a.attname as name from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indexrelid = 'installments_paid_days_late_idx'::regclass order by a.attname`;
    expect(columns.map((c) => c.name)).toEqual(['due_date', 'institution_id', 'paid_on']);
  });

  it('dias_atraso through the indexes matches the days late the listing shows', async () => {
    // Due 2025-06-21 to 23 (Saturday to Monday) and open, or paid 7 days after the business due
    // date: 7 days late on 2025-06-30.
    const [expected] = await t.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from installments where institution_id = ${inst.id} and (
        (status in ('ABERTO', 'PARCIALMENTE_PAGO') and business_day_on_or_after(due_date) = date '2025-06-23')
        or (status = 'PAGO' and paid_on - business_day_on_or_after(due_date) = 7))`;
    t.clock.set(new Date('2025-06-30T15:00:00Z'));
    const res = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ dias_atraso: 7 })
      .set(inst.headers)
      .expect(200);
    expect(expected!.n).toBeGreaterThan(100);
    expect(res.body.metadata.totalItems).toBe(String(expected!.n));
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data.every((r: { dias_atraso: number }) => r.dias_atraso === 7)).toBe(true);
  });

  it('counts totalItems on the first page and carries it: later pages neither recount nor move', async () => {
    const first = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ situacao: 'PARCIALMENTE_PAGO' })
      .set(inst.headers)
      .expect(200);
    expect(first.body.metadata.totalItems).toBe('4000');
    await seed(t, inst.id, 10, 'late-');
    const second = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ situacao: 'PARCIALMENTE_PAGO', continuable: first.body.metadata.continuable })
      .set(inst.headers)
      .expect(200);
    expect(second.body.metadata.totalItems).toBe('4000');
    const fresh = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ situacao: 'PARCIALMENTE_PAGO' })
      .set(inst.headers)
      .expect(200);
    expect(fresh.body.metadata.totalItems).toBe('4001');
  });

  it('never lists or counts the installments of another institution', async () => {
    const res = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ id_externo: 'B77' })
      .set(inst.headers)
      .expect(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.metadata.totalItems).toBe('0');
  });
});

describe('GET /importacao/enviados/parcelas at scale', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  let batches: { id: string; seq: number }[];
  const PER_BATCH = 2_000;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const other = await givenInstitution(t.ctx, 'Outra Universidade');
    batches = await seedSubmittedBatches(t.ctx.sql, inst.id, 20, PER_BATCH);
    await seedSubmittedBatches(t.ctx.sql, other.id, 20, PER_BATCH);
    await t.ctx.sql`vacuum analyze batches`;
    await t.ctx.sql`vacuum analyze installment_submissions`;
  }, 120_000);

  /** Index entries and rows the later page reads from installment_submissions, by EXPLAIN ANALYZE. */
  async function submissionsRead(afterSeq: number, afterIndex: number) {
    const page = submittedPage(t.ctx.db, submittedFilters(inst.id, {}), afterSeq, afterIndex).toSQL();
    const nodes = await planNodes(t.ctx.sql, page, true);
    const reads = nodes.filter((n) => n['Relation Name'] === 'installment_submissions');
    const rows = reads.reduce(
      (sum, n) =>
        sum +
        ((n['Actual Rows'] as number) + ((n['Rows Removed by Filter'] as number) ?? 0)) * (n['Actual Loops'] as number),
      0,
    );
    const sorted = nodes
      .filter((n) => n['Node Type'] === 'Sort')
      .map((n) => (n.Plans?.[0]?.['Actual Rows'] as number) ?? 0);
    return { rows, largestSort: Math.max(0, ...sorted) };
  }

  it('a later page reads the rest of its batch and the next batch, never the batches before the position', async () => {
    const at = batches[15]!;
    const read = await submissionsRead(at.seq, 1_500);
    // The rest of batch 15 (499 items) and at most the whole next batch; walking from the first
    // batch would read 15 batches of 2,000 first.
    expect(read.rows).toBeLessThanOrEqual(499 + PER_BATCH + 2);
  });

  it('a later page costs what the first page costs', async () => {
    const first = await submissionsRead(0, -1);
    const later = await submissionsRead(batches[18]!.seq, 0);
    expect(later.rows).toBeLessThanOrEqual(first.rows + PER_BATCH);
  });
});
