import type postgres from 'postgres';

const CHUNK = 100_000;

/**
 * `rows` installments of one institution, spread like a large university's: 10 per student over
 * 100,000 students, a guarantor per two students, mostly monthly fees, six in ten paid, due over
 * three years. Written with generate_series in chunks, progress shown.
 */
export async function seedInstallments(sql: postgres.Sql, institutionId: string, rows: number, prefix: string): Promise<void> {
  for (let from = 1; from <= rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK - 1);
    await sql`
      insert into installments (institution_id, upsert_key, external_id, batch_id, batch_seq, item_index, student_cpf, student_name,
        guarantor_document, guarantor_document_type, contract_number, number, type, course_name, campus_name, due_date, principal,
        on_time_value, product, status, payment_type, paid_on, balance)
      select ${institutionId}, 'ext:' || ${prefix} || i, ${prefix} || i, gen_random_uuid(), 1, i,
        lpad((i % 100000)::text, 11, '0'), 'Aluno ' || (i % 100000), lpad((i % 50000)::text, 11, '9'), 'CPF',
        'C' || (i % 100000), (1 + i / 100000)::text,
        (array['Mensalidade','Mensalidade','Mensalidade','Mensalidade','Mensalidade','Mensalidade','Mensalidade','Matricula','Rematricula','Negociacao'])[1 + (i * 7) % 10],
        'Curso ' || (i % 40), 'Polo ' || (i % 12), date '2023-01-01' + (i % 1100), 850, 800, 'Gestão',
        case when i % 10 < 6 then 'PAGO' when i % 10 < 9 then 'ABERTO' else 'PARCIALMENTE_PAGO' end,
        case when i % 10 < 6 then 'Pago na IES' end,
        case when i % 10 < 6 then date '2023-01-01' + (i % 1100) + (i % 23) - 5 end,
        case when i % 10 < 6 then 0 when i % 10 = 9 then 400 else 850 end
      from generate_series(${from}::int, ${to}::int) as i`;
    process.stdout.write(`\rinstallments ${prefix}: ${to.toLocaleString('en')} / ${rows.toLocaleString('en')}`);
  }
  process.stdout.write('\n');
}

/** A processed batch of the institution with `errors` item errors; its id. */
export async function seedErrors(sql: postgres.Sql, institutionId: string, errors: number): Promise<string> {
  const [batch] = await sql<{ id: string }[]>`
    insert into batches (institution_id, kind, status, item_count, processed_count, error_count, finished_at)
    values (${institutionId}, 'parcela', 'PROCESSADO_COM_ERROS', ${errors}, ${errors}, ${errors}, now()) returning id`;
  await sql`
    insert into batch_item_errors (batch_id, item_index, field, message)
    select ${batch!.id}, i, 'alunoCpf', 'alunoCpf must be a valid CPF' from generate_series(0, ${errors - 1}) as i`;
  console.log(`batch with ${errors.toLocaleString('en')} item errors`);
  return batch!.id;
}
