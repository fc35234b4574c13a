/**
 * The institution suite of `bench:lists`: 1,000,000 installments for one institution and as many
 * for another, as many submitted items each, a batch with 10,000 item errors, and the queries of
 * `GET /v1/parcela/originais` (#3), `GET /importacao/enviados/parcelas` (#5) and
 * `GET /v1/lotes/{id}/erros`. CASES (comma-separated parts of case names) runs only those cases.
 */
import type { AppContext } from '../src/context.js';
import { encodeContinuation, filteredScope } from '../src/core/continuation.js';
import { localDate } from '../src/core/local-date.js';
import { countedByGroups, countFromGroupsQuery } from '../src/institution/listings/installment-counts.js';
import type { OriginalsQuery } from '../src/institution/listings/original-filters.js';
import { originalsCountQuery, originalsPageQuery } from '../src/institution/listings/originals.js';
import { createInstitution } from '../src/tenants/tenants.js';
import { seedErrors, seedInstallments, seedSubmissions } from './list-seed.js';
import type { ListCase, ListSuite, SuiteInput } from './list-suite.js';
import { submittedCases } from './lists-submitted.js';
import { PRODUCTION_ENV } from './production-env.js';

export async function institutionSuite({ sql, db, rows }: SuiteInput): Promise<ListSuite> {
  const a = await createInstitution(db, 'Universidade Benchmark A');
  const b = await createInstitution(db, 'Universidade Benchmark B');
  await seedInstallments(sql, a.id, rows, 'A');
  await seedInstallments(sql, b.id, rows, 'B');
  const sentA = await seedSubmissions(sql, a.id, rows, 0, true);
  await seedSubmissions(sql, b.id, rows, 1_000, false);
  const batchId = await seedErrors(sql, a.id, 10_000);

  const today = localDate(new Date());
  const ctx = { db } as AppContext;
  const [sample] = await sql<{ cpf: string; doc: string; ext: string }[]>`
    select student_cpf as cpf, guarantor_document as doc, external_id as ext from installments
    where institution_id = ${a.id} offset ${Math.floor(rows / 2)} limit 1`;
  const seqAt = async (n: number) =>
    Number(
      (
        await sql<
          { seq: string }[]
        >`select seq from installments where institution_id = ${a.id} order by seq offset ${n} limit 1`
      )[0]!.seq,
    );
  const [{ total }] =
    (await sql`select count(*)::int as total from installments where institution_id = ${a.id}`) as unknown as [
      { total: number },
    ];
  // Tokens are bound to the listing's filters (none on the later pages measured).
  const scope = filteredScope('original-installments', a.id, {});
  const token = (seq: number) => encodeContinuation(PRODUCTION_ENV.CURSOR_SECRET, scope, [seq, total]);
  const page2 = await seqAt(99);
  const page5000 = await seqAt(Math.min(499_899, rows - 200));

  const queries: { name: string; query: OriginalsQuery; after?: number }[] = [
    { name: 'no filter', query: {} },
    { name: 'aluno_cpf', query: { aluno_cpf: sample!.cpf } },
    { name: 'responsavel_financeiro_documento', query: { responsavel_financeiro_documento: sample!.doc } },
    { name: 'id_externo', query: { id_externo: sample!.ext } },
    { name: 'situacao=PARCIALMENTE_PAGO', query: { situacao: 'PARCIALMENTE_PAGO' } },
    { name: 'situacao=PAGO', query: { situacao: 'PAGO' } },
    { name: 'tipo=Negociacao', query: { tipo: 'Negociacao' } },
    {
      name: '2-day due-date range',
      query: { data_inicial_vencimento: '2024-03-01', data_final_vencimento: '2024-03-02' },
    },
    {
      name: '2-day payment-date range',
      query: { data_inicial_pagamento: '2024-03-01', data_final_pagamento: '2024-03-02' },
    },
    { name: 'dias_atraso=7', query: { dias_atraso: 7 } },
    { name: 'em_acordo=true', query: { em_acordo: true } },
    { name: 'tipo=Matricula&situacao=ABERTO', query: { tipo: 'Matricula', situacao: 'ABERTO' } },
    {
      name: 'tipo=Negociacao&situacao=CANCELADO_IES (no match)',
      query: { tipo: 'Negociacao', situacao: 'CANCELADO_IES' },
    },
    { name: 'page 2 (continuable)', query: {}, after: page2 },
    { name: 'page 5000 (continuable)', query: {}, after: page5000 },
  ];
  const cases: ListCase[] = queries.map((q) => {
    const page = originalsPageQuery(db, a.id, q.query, today, q.after ?? 0).toSQL();
    const counted = countedByGroups(q.query)
      ? countFromGroupsQuery(db, a.id, q.query).toSQL()
      : originalsCountQuery(ctx, a.id, q.query, today).toSQL();
    const qs = new URLSearchParams(Object.entries(q.query).map(([k, v]): [string, string] => [k, String(v)]));
    if (q.after !== undefined) qs.set('continuable', token(q.after));
    return {
      name: q.name,
      path: `/v1/parcela/originais?${qs}`,
      statements: q.after === undefined ? [page, counted] : [page],
    };
  });
  cases.push({
    name: 'batch errors, page 1',
    path: `/v1/lotes/${batchId}/erros`,
    statements: [
      {
        sql: 'select * from batch_item_errors where batch_id = $1 and (item_index, field) > ($2::int, $3::text) order by item_index, field limit 101',
        params: [batchId, -1, ''],
      },
      { sql: 'select count(*) from batch_item_errors where batch_id = $1', params: [batchId] },
      { sql: 'select * from batches where id = $1 and institution_id = $2', params: [batchId, a.id] },
    ],
  });
  cases.push(...(await submittedCases(sql, db, a.id, sentA)));
  const only = process.env.CASES?.split(',');
  const chosen = only ? cases.filter((c) => only.some((part) => c.name.includes(part))) : cases;
  return {
    title: `${rows.toLocaleString('en')} installments per institution`,
    headers: { apikey: a.apikey },
    cases: chosen,
  };
}
