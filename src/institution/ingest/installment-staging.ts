import type { TransactionSql } from 'postgres';

import type { SchemaCheck } from '../../contract/item-schema.js';
import type { ItemError } from '../../core/item-error.js';
import { copyInto, copyText, copyValue } from '../../db/copy.js';
import { checkInstallment, type InstallmentRow, type InstallmentSubmission } from './installment-items.js';

/**
 * A chunk of an installment batch is checked by the worker (the contract's schema, then the item
 * rules) and written as COPY text: every item's `installment_submissions` row, and the valid
 * items' installment rows. Each item is serialised as soon as it is checked, so what the checks
 * build dies young.
 */

/** Columns of an installment a submission sets, in the order `rowText` writes them. */
export const ROW_COLUMNS: readonly (keyof InstallmentRow)[] = [
  'upsert_key',
  'external_id',
  'student_cpf',
  'student_ra',
  'student_name',
  'guarantor_document',
  'guarantor_document_type',
  'contract_number',
  'number',
  'type',
  'course_name',
  'campus_name',
  'due_date',
  'principal',
  'on_time_value',
  'on_time_discounts',
  'status',
  'payment_type',
  'paid_on',
  'balance',
  'settled_fine',
  'settled_interest',
  'settled_discount',
  'settled_received',
];

/**
 * COPY text of an installment row in `ROW_COLUMNS` order. Hot path: the columns spelled out, not
 * looked up by name; the values the item rules produce (canonical names, dates, amounts) need no
 * escaping, the others go through `copyText`. Joined from an array: one flat string per row, which
 * a block's text then copies once (concatenating ~50 parts per row builds deep string trees).
 */
function rowText(r: InstallmentRow): string {
  return [
    copyText(r.upsert_key),
    copyText(r.external_id),
    copyText(r.student_cpf),
    copyText(r.student_ra),
    copyText(r.student_name),
    copyText(r.guarantor_document),
    r.guarantor_document_type,
    copyText(r.contract_number),
    copyText(r.number),
    r.type,
    copyText(r.course_name),
    copyText(r.campus_name),
    r.due_date,
    r.principal,
    r.on_time_value,
    copyValue(r.on_time_discounts),
    r.status,
    r.payment_type ?? '\\N',
    r.paid_on ?? '\\N',
    r.balance,
    r.settled_fine,
    r.settled_interest,
    r.settled_discount,
    r.settled_received,
  ].join('\t');
}

/** Columns of `installment_submissions` in the order `submissionText` writes them. */
export const SUBMISSION_COLUMNS = [
  'batch_id',
  'index',
  'errors',
  'sent_student_cpf',
  'sent_guarantor_document',
  'sent_external_id',
  'sent_type_lower',
  'sent_settlement_lower',
  'sent_due_day',
  'sent_course_code',
  'sent_course_name',
  'sent_course_degree',
  'sent_course_modality',
  'sent_organization_name',
  'sent_campus_name',
  'sent_campus_id',
];

/** A sent value as COPY text: strings as they are (the filters compare strings), anything else null. */
const sent = (value: unknown) => (typeof value === 'string' ? copyText(value) : '\\N');
const sentLower = (value: unknown) => (typeof value === 'string' ? copyText(value.toLowerCase()) : '\\N');

/** COPY text of an item's `installment_submissions` row: its problems and its sent values the listing filters on. */
function submissionText(batchId: string, index: number, item: InstallmentSubmission, errors: ItemError[]): string {
  const problems = errors.length > 0 ? copyValue(errors.map(({ field, message }) => ({ field, message }))) : '\\N';
  const due = typeof item.dataVencimento === 'string' ? copyText(item.dataVencimento.slice(0, 10)) : '\\N';
  return [
    batchId,
    index,
    problems,
    sent(item.alunoCpf),
    sent(item.responsavelFinanceiroDocumento),
    sent(item.idParcela),
    sentLower(item.tipoParcela),
    sentLower(item.situacaoBaixa),
    due,
    sent(item.codigoCurso),
    sent(item.nomeCurso),
    sent(item.grauCurso),
    sent(item.modalidadeCurso),
    sent(item.nomeOrganizacao),
    sent(item.nomePolo),
    sent(item.idPolo),
  ].join('\t');
}

/** The installment row of a valid item. */
export interface StagedRow {
  index: number;
  key: string;
  /** The last item of its key in the chunk: one statement cannot upsert a key twice, and the last one wins anyway. */
  applies: boolean;
  /** COPY text of the item's index and its `ROW_COLUMNS`, tab-separated, ending in a newline, as UTF-8. */
  line: Buffer;
}

/** A chunk's items checked, ready for `writeSubmissions` and the installment writes. */
export interface StagedChunk {
  first: number;
  last: number;
  /** Items with problems. */
  invalid: number;
  /** COPY text of the chunk's `installment_submissions` rows, one per item, as UTF-8. */
  submissions: Buffer;
  /** Installment rows of the valid items, in item order. */
  rows: StagedRow[];
}

/** Some items of a chunk, checked: their listing rows' and the valid ones' installment rows' COPY text. */
export interface CheckedItems {
  submissions: string;
  rows: { index: number; key: string; line: string }[];
}

const NOTHING_SENT = {} as InstallmentSubmission;

/**
 * Checks items [first, first + items.length) of a batch, sent on `receivedOn`: an item that breaks
 * the contract's schema is only reported (its values may not even be strings, or may hold a NUL
 * character, which neither its listing row nor the database can take); the others go through the
 * item rules.
 */
export function checkItems(
  batchId: string,
  items: unknown[],
  first: number,
  receivedOn: string,
  schema: SchemaCheck,
): CheckedItems {
  let submissions = '';
  const rows: CheckedItems['rows'] = [];
  for (let i = 0; i < items.length; i++) {
    const index = first + i;
    const schemaErrors = schema(index, items[i]);
    if (schemaErrors.length > 0) {
      submissions += `${submissionText(batchId, index, NOTHING_SENT, schemaErrors)}\n`;
      continue;
    }
    const item = items[i] as InstallmentSubmission;
    const { row, errors } = checkInstallment(index, item, batchId, receivedOn);
    submissions += `${submissionText(batchId, index, item, errors)}\n`;
    if (row) rows.push({ index, key: row.upsert_key, line: `${index}\t${rowText(row)}\n` });
  }
  return { submissions, rows };
}

/**
 * A checked chunk as it crosses from the checking thread: its text already UTF-8 (encoded once,
 * there) and its rows as columns, which copy between threads far faster than thousands of objects.
 */
export interface PackedChunk {
  first: number;
  last: number;
  submissions: Uint8Array;
  rowsText: Uint8Array;
  indexes: Int32Array;
  keys: string[];
}

export function packChunk(first: number, last: number, parts: CheckedItems[]): PackedChunk {
  const rows = parts.flatMap((p) => p.rows);
  return {
    first,
    last,
    submissions: Buffer.from(parts.map((p) => p.submissions).join('')),
    rowsText: Buffer.from(rows.map((r) => r.line).join('')),
    indexes: Int32Array.from(rows, (r) => r.index),
    keys: rows.map((r) => r.key),
  };
}

const NEWLINE = 0x0a;

/** The chunk back from its packed form: a row per line of the text; of the rows of one key, only the last applies. */
export function unpackChunk(packed: PackedChunk): StagedChunk {
  const text = Buffer.from(packed.rowsText.buffer, packed.rowsText.byteOffset, packed.rowsText.byteLength);
  const rows: StagedRow[] = [];
  for (let i = 0, start = 0; i < packed.indexes.length; i++) {
    const end = text.indexOf(NEWLINE, start) + 1;
    rows.push({ index: packed.indexes[i]!, key: packed.keys[i]!, applies: true, line: text.subarray(start, end) });
    start = end;
  }
  const seen = new Set<string>();
  for (let i = rows.length - 1; i >= 0; i--) {
    rows[i]!.applies = !seen.has(rows[i]!.key);
    seen.add(rows[i]!.key);
  }
  const submissions = Buffer.from(
    packed.submissions.buffer,
    packed.submissions.byteOffset,
    packed.submissions.byteLength,
  );
  return {
    first: packed.first,
    last: packed.last,
    invalid: packed.last - packed.first + 1 - rows.length,
    submissions,
    rows,
  };
}

/** COPYs a chunk's `installment_submissions` rows; those left by an earlier attempt are replaced, so a redone chunk stages each item once. */
export async function writeSubmissions(raw: TransactionSql, batchId: string, chunk: StagedChunk): Promise<void> {
  await raw`delete from installment_submissions where batch_id = ${batchId} and index between ${chunk.first} and ${chunk.last}`;
  await copyInto(raw, 'installment_submissions', SUBMISSION_COLUMNS, [chunk.submissions]);
}
