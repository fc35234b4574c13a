import type postgres from 'postgres';

import type { RawElements } from '../src/core/json-spans.js';
import { copyInto, copyValue } from '../src/db/copy.js';
import { SUBMISSION_COLUMNS } from '../src/institution/ingest/installment-staging.js';
import { packBlocks } from '../src/institution/intake/item-blocks.js';
import { benchInstallment } from './fixtures.js';

const CHUNK = 100_000;

/**
 * `rows` installments of one institution, spread like a large university's: 10 per student over
 * 100,000 students, a guarantor per two students, mostly monthly fees, six in ten paid, due over
 * three years. Written with generate_series in chunks, progress shown.
 */
export async function seedInstallments(
  sql: postgres.Sql,
  institutionId: string,
  rows: number,
  prefix: string,
): Promise<void> {
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

const PER_BATCH = 10_000;
// The submission rows as ingestion writes them, without item errors (the seed's items have none).
const SENT_COLUMNS = SUBMISSION_COLUMNS.filter((column) => column !== 'errors');

/**
 * `rows` submitted installment items of one institution (`GET /importacao/enviados/parcelas`), as
 * processed batches of 10,000 sent a day apart from 2025-01-01: their sent values in
 * `installment_submissions` and, with `blocks`, the items themselves in compressed blocks as the
 * ingestion stores them (a tenant whose items are never read back needs only the rows). Batch `b`
 * of `firstBatch` onwards holds the bench fixtures' items `b × 10,000 + i`. Returns the batches' ids.
 */
export async function seedSubmissions(
  sql: postgres.Sql,
  institutionId: string,
  rows: number,
  firstBatch: number,
  blocks: boolean,
): Promise<string[]> {
  const ids: string[] = [];
  for (let b = 0; b * PER_BATCH < rows; b++) {
    const count = Math.min(PER_BATCH, rows - b * PER_BATCH);
    const items = Array.from({ length: count }, (_, i) => benchInstallment(firstBatch + b, i));
    await sql.begin(async (tx) => {
      const [batch] = await tx<{ id: string }[]>`
        insert into batches (institution_id, kind, status, item_count, processed_count, created_at, finished_at)
        values (${institutionId}, 'parcela', 'PROCESSADO', ${count}, ${count}, timestamptz '2025-01-01 12:00:00Z' + ${b} * interval '1 day',
          timestamptz '2025-01-01 12:05:00Z' + ${b} * interval '1 day') returning id`;
      ids.push(batch!.id);
      const lines = items.map(
        (item, i) =>
          [
            batch!.id,
            i,
            item.alunoCpf,
            item.responsavelFinanceiroDocumento,
            item.idParcela,
            String(item.tipoParcela).toLowerCase(),
            String(item.situacaoBaixa).toLowerCase(),
            String(item.dataVencimento).slice(0, 10),
            item.codigoCurso,
            item.nomeCurso,
            item.grauCurso,
            item.modalidadeCurso,
            item.nomeOrganizacao,
            item.nomePolo,
            item.idPolo,
          ]
            .map((v) => copyValue(v as string))
            .join('\t') + '\n',
      );
      await copyInto(tx, 'installment_submissions', SENT_COLUMNS, lines);
      if (!blocks) return;
      const body = Buffer.from(JSON.stringify(items));
      const spans: RawElements['spans'] = [];
      let at = 1;
      for (const item of items) {
        const length = Buffer.byteLength(JSON.stringify(item));
        spans.push({ start: at, end: at + length });
        at += length + 1;
      }
      const packed = packBlocks({ body, spans }).map((block) => ({
        batch_id: batch!.id,
        first_index: block.firstIndex,
        item_count: block.itemCount,
        encoding: block.encoding,
        data: block.data,
        item_spans: block.itemSpans,
      }));
      await tx`insert into batch_item_blocks ${tx(packed)}`;
    });
    process.stdout.write(
      `\rsubmitted items: ${(b * PER_BATCH + count).toLocaleString('en')} / ${rows.toLocaleString('en')}`,
    );
  }
  process.stdout.write('\n');
  return ids;
}
