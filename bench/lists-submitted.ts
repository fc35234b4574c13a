/**
 * The cases of `GET /importacao/enviados/parcelas` (#5) for the institution suite of
 * `bench:lists`: by student CPF, by batch, a two-day send range and a later page, each with the
 * statements the service runs (page, count on first pages, and the stored blocks the page's items
 * are read back from).
 */
import type postgres from 'postgres';

import { encodeContinuation, filteredScope } from '../src/core/continuation.js';
import type { Database } from '../src/db/client.js';
import { BLOCK_SIZE } from '../src/institution/intake/item-blocks.js';
import {
  submittedCount,
  submittedFilters,
  submittedPage,
  type SubmittedQuery,
} from '../src/institution/listings/submitted.js';
import type { ListCase, Statement } from './list-suite.js';
import { PRODUCTION_ENV } from './production-env.js';

export async function submittedCases(
  sql: postgres.Sql,
  db: Database,
  institutionId: string,
  batchIds: string[],
): Promise<ListCase[]> {
  const middle = batchIds[Math.floor(batchIds.length / 2)]!;
  const [sample] = await sql<
    { cpf: string }[]
  >`select sent_student_cpf as cpf from installment_submissions where batch_id = ${middle} and index = 1234`;
  const [{ seq }] = (await sql`select seq::int from batches where id = ${middle}`) as unknown as [{ seq: number }];
  const [{ total }] = (await sql`
    select count(*)::int as total from installment_submissions s join batches b on b.id = s.batch_id
    where b.institution_id = ${institutionId} and b.kind = 'parcela'`) as unknown as [{ total: number }];

  const queries: { name: string; query: SubmittedQuery; after?: [number, number] }[] = [
    { name: '#5 aluno_cpf', query: { aluno_cpf: sample!.cpf } },
    { name: '#5 lote', query: { lote: middle } },
    { name: '#5 2-day send range', query: { data_inicial_envio: '2025-01-10', data_final_envio: '2025-01-11' } },
    { name: '#5 later page (continuable)', query: {}, after: [seq, 4321] },
  ];
  const cases: ListCase[] = [];
  for (const q of queries) {
    const filters = submittedFilters(institutionId, q.query);
    const [afterSeq, afterIndex] = q.after ?? [0, -1];
    const page = submittedPage(db, filters, afterSeq, afterIndex);
    const rows = (await page).slice(0, 100);
    // The blocks holding the page's items, read back as the service reads them, one statement each.
    const blocks = new Set(rows.map((r) => `${r.batchId}:${r.index - (r.index % BLOCK_SIZE)}`));
    const reads: Statement[] = [...blocks].map((key) => {
      const [batchId, firstIndex] = key.split(':');
      return {
        sql: 'select * from batch_item_blocks where batch_id = $1 and first_index = $2',
        params: [batchId, Number(firstIndex)],
      };
    });
    const qs = new URLSearchParams(Object.entries(q.query).map(([k, v]): [string, string] => [k, String(v)]));
    if (q.after)
      qs.set(
        'continuable',
        encodeContinuation(
          PRODUCTION_ENV.CURSOR_SECRET,
          filteredScope('submitted-installments', institutionId, q.query),
          [...q.after, total],
        ),
      );
    const counted = q.after ? [] : [submittedCount(db, filters).toSQL()];
    cases.push({
      name: q.name,
      path: `/importacao/enviados/parcelas?${qs}`,
      statements: [page.toSQL(), ...counted, ...reads],
    });
  }
  return cases;
}
