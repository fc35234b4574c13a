import type { TransactionSql } from 'postgres';
import { copyInto, copyValue } from '../db/copy.js';
import { checkInstallment, type InstallmentRow, type InstallmentSubmission } from './installment-items.js';
import type { BatchItem } from './item-blocks.js';

/** Columns of an installment a submission sets, in COPY order (see `copyRows`). */
const ROW_COLUMNS: readonly (keyof InstallmentRow)[] = [
  'upsert_key', 'external_id', 'student_cpf', 'student_ra', 'student_name', 'guarantor_document', 'guarantor_document_type',
  'contract_number', 'number', 'type', 'course_name', 'campus_name', 'due_date', 'principal', 'on_time_value',
  'on_time_discounts', 'status', 'payment_type', 'paid_on', 'balance', 'settled_fine', 'settled_interest',
  'settled_discount', 'settled_received',
];
const SENT_COLUMNS = [
  'sent_student_cpf', 'sent_guarantor_document', 'sent_external_id', 'sent_type_lower', 'sent_settlement_lower', 'sent_due_day',
  'sent_course_code', 'sent_course_name', 'sent_course_degree', 'sent_course_modality', 'sent_organization_name',
  'sent_campus_name', 'sent_campus_id',
] as const;
/** Columns of `installment_submissions` in COPY order. */
const COLUMNS = ['batch_id', 'index', 'errors', ...SENT_COLUMNS];
/** Columns of the chunk's temporary table of installment rows in COPY order. */
const ROW_TABLE_COLUMNS = ['index', 'applies', ...ROW_COLUMNS];

const text = (value: unknown) => (typeof value === 'string' ? value : null);

function sentValues(item: InstallmentSubmission): (string | null)[] {
  return [
    text(item.alunoCpf),
    text(item.responsavelFinanceiroDocumento),
    text(item.idParcela),
    text(item.tipoParcela)?.toLowerCase() ?? null,
    text(item.situacaoBaixa)?.toLowerCase() ?? null,
    text(item.dataVencimento)?.slice(0, 10) ?? null,
    text(item.codigoCurso),
    text(item.nomeCurso),
    text(item.grauCurso),
    text(item.modalidadeCurso),
    text(item.nomeOrganizacao),
    text(item.nomePolo),
    text(item.idPolo),
  ];
}

const LINES_PER_WRITE = 500;

/** A chunk of items checked and serialised as COPY text, ready for `writeStaging` and `copyRows`. */
export interface StagingChunk {
  first: number;
  last: number;
  /** Items with problems under the item rules. */
  invalid: number;
  /** Rows of `installment_submissions`, one per item. */
  text: string[];
  /** Installment rows of the valid items, for the chunk's temporary table. */
  rows: string[];
}

/**
 * Checks the items of one chunk (pure functions, no I/O) and serialises, per item, its staging row
 * (its problems and its filterable sent values) and, for a valid one, its installment row.
 * `applies` marks the rows to apply: the last of their key in the chunk (one statement cannot
 * upsert a key twice).
 */
export function prepareStaging(batchId: string, items: BatchItem[], receivedOn: string): StagingChunk {
  const checked = items.map(({ index, payload }) => ({ index, item: payload as InstallmentSubmission, ...checkInstallment(index, payload as InstallmentSubmission, batchId, receivedOn) }));
  const lastOfKey = new Map<string, number>();
  for (const c of checked) if (c.row) lastOfKey.set(c.row.upsert_key, c.index);
  const text: string[] = [];
  const rows: string[] = [];
  let lines = '';
  let rowLines = '';
  let count = 0;
  let invalid = 0;
  // Hot path: plain loops and string concatenation, no arrays per value.
  for (const { index, item, row, errors } of checked) {
    if (errors.length > 0) invalid++;
    let line = `${batchId}\t${index}\t${errors.length > 0 ? copyValue(errors.map(({ field, message }) => ({ field, message }))) : '\\N'}`;
    for (const sent of sentValues(item)) line += `\t${copyValue(sent)}`;
    lines += `${line}\n`;
    if (row) {
      let rowLine = `${index}\t${lastOfKey.get(row.upsert_key) === index ? 't' : 'f'}`;
      for (const column of ROW_COLUMNS) rowLine += `\t${copyValue(row[column])}`;
      rowLines += `${rowLine}\n`;
    }
    if (++count % LINES_PER_WRITE === 0) {
      text.push(lines);
      lines = '';
      if (rowLines) rows.push(rowLines);
      rowLines = '';
    }
  }
  if (lines) text.push(lines);
  if (rowLines) rows.push(rowLines);
  return { first: items[0]?.index ?? 0, last: items[items.length - 1]?.index ?? -1, invalid, text, rows };
}

/** COPYs a prepared chunk's staging rows; those left by an earlier attempt are replaced, so a redone chunk stages each item once. */
export async function writeStaging(raw: TransactionSql, batchId: string, chunk: StagingChunk): Promise<void> {
  if (chunk.text.length === 0) return;
  await raw`delete from installment_submissions where batch_id = ${batchId} and index between ${chunk.first} and ${chunk.last}`;
  await copyInto(raw, 'installment_submissions', COLUMNS, chunk.text);
}

/**
 * COPYs the chunk's installment rows into `chunk_installments`, a temporary table emptied at
 * commit: the rows only live for the statement that applies them, so they are neither written to
 * the WAL nor kept (nothing is lost on a crash: a redone chunk prepares them again).
 */
export async function copyRows(raw: TransactionSql, chunk: StagingChunk): Promise<void> {
  await raw`
    create temporary table if not exists chunk_installments on commit delete rows as
    select 0 as index, true as applies, ${raw(ROW_COLUMNS as string[])} from installments with no data`;
  if (chunk.rows.length > 0) await copyInto(raw, 'chunk_installments', ROW_TABLE_COLUMNS, chunk.rows);
}
