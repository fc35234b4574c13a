import type postgres from 'postgres';

/**
 * `count` processed installment batches of an institution, `perBatch` submitted items each, written
 * straight into the tables (no stored items: for statements over the sent values only). Item `i`
 * of every batch is sent for student CPF `i % 50` and is a `matricula` when `i % 3 = 0`. Returns
 * the batches in submission order.
 */
export async function seedSubmittedBatches(
  sql: postgres.Sql,
  institutionId: string,
  count: number,
  perBatch: number,
): Promise<{ id: string; seq: number }[]> {
  const created = await sql<{ id: string; seq: number }[]>`
    insert into batches (institution_id, kind, status, item_count, processed_count, created_at, finished_at)
    select ${institutionId}, 'parcela', 'PROCESSADO', ${perBatch}, ${perBatch},
      timestamptz '2025-01-01 12:00:00Z' + b * interval '1 day', timestamptz '2025-01-01 12:05:00Z' + b * interval '1 day'
    from generate_series(0, ${count - 1}) as b
    returning id, seq::int`;
  const ids = created.map((b) => b.id);
  await sql`
    insert into installment_submissions (batch_id, index, sent_student_cpf, sent_type_lower)
    select b, i, lpad((i % 50)::text, 11, '0'), case when i % 3 = 0 then 'matricula' else 'mensalidade' end
    from unnest(${ids}::uuid[]) as b, generate_series(0, ${perBatch - 1}) as i`;
  return [...created].sort((x, y) => x.seq - y.seq);
}
