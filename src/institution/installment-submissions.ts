import type { TransactionSql } from 'postgres';
import { copyInto, copyValue } from '../db/copy.js';
import { checkInstallment, type InstallmentRow, type InstallmentSubmission } from './installment-items.js';
import type { BatchItem } from './item-blocks.js';

/** Columns of `installment_submissions` in COPY order. */
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
const COLUMNS = ['batch_id', 'index', 'errors', 'applies', ...ROW_COLUMNS, ...SENT_COLUMNS];

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

/** A chunk of items checked and serialised as COPY text, ready for `writeStaging`. */
export interface StagingChunk {
  first: number;
  last: number;
  /** Items with problems under the item rules. */
  invalid: number;
  text: string[];
}

/**
 * Checks the items of one chunk (pure functions, no I/O) and serialises one staging row per item:
 * its problems or its installment row, and its filterable sent values. `applies` marks the rows
 * to apply: valid and the last of their key in the chunk (one statement cannot upsert a key twice).
 */
export function prepareStaging(batchId: string, items: BatchItem[], receivedOn: string): StagingChunk {
  const checked = items.map(({ index, payload }) => ({ index, item: payload as InstallmentSubmission, ...checkInstallment(index, payload as InstallmentSubmission, batchId, receivedOn) }));
  const lastOfKey = new Map<string, number>();
  for (const c of checked) if (c.row) lastOfKey.set(c.row.upsert_key, c.index);
  const text: string[] = [];
  let lines = '';
  let count = 0;
  let invalid = 0;
  // Hot path: plain loops and string concatenation, no arrays per value.
  for (const { index, item, row, errors } of checked) {
    if (errors.length > 0) invalid++;
    let line = `${batchId}\t${index}\t${errors.length > 0 ? copyValue(errors.map(({ field, message }) => ({ field, message }))) : '\\N'}`;
    line += row && lastOfKey.get(row.upsert_key) === index ? '\tt' : '\tf';
    for (const column of ROW_COLUMNS) line += `\t${copyValue(row ? row[column] : null)}`;
    for (const sent of sentValues(item)) line += `\t${copyValue(sent)}`;
    lines += `${line}\n`;
    if (++count % LINES_PER_WRITE === 0) {
      text.push(lines);
      lines = '';
    }
  }
  if (lines) text.push(lines);
  return { first: items[0]?.index ?? 0, last: items[items.length - 1]?.index ?? -1, invalid, text };
}

/** COPYs a prepared chunk; its rows left by an earlier attempt are replaced, so a redone chunk stages each item once. */
export async function writeStaging(raw: TransactionSql, batchId: string, chunk: StagingChunk): Promise<void> {
  if (chunk.text.length === 0) return;
  await raw`delete from installment_submissions where batch_id = ${batchId} and index between ${chunk.first} and ${chunk.last}`;
  await copyInto(raw, 'installment_submissions', COLUMNS, chunk.text);
}
