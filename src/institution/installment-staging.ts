import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { TransactionSql } from 'postgres';
import { copyInto, copyText, copyValue } from '../db/copy.js';
import type { ItemError } from './batches.js';
import { checkInstallment, type InstallmentRow, type InstallmentSubmission } from './installment-items.js';

/**
 * An installment batch is checked once, when it arrives: the request's items are already parsed
 * there, and parsing them again in the worker would cost as much as everything else the worker
 * does. What the checks produce is kept as COPY text beside the items, per block
 * (`batch_item_blocks.staged_submissions` / `staged_rows`), and the worker only pipes it.
 */

/**
 * Brotli at quality 1: half the time of deflate's fastest level for the same size. Synchronous:
 * libuv's thread pool would spread the work over both processors, but handing a block over in
 * 16 kB slices costs more processor time than compressing it (measured: twice the time in all).
 */
const compress = (text: string) => zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
const decompress = promisify(zlib.brotliDecompress);

/** Columns of an installment a submission sets, in the order `rowText` writes them. */
export const ROW_COLUMNS: readonly (keyof InstallmentRow)[] = [
  'upsert_key', 'external_id', 'student_cpf', 'student_ra', 'student_name', 'guarantor_document', 'guarantor_document_type',
  'contract_number', 'number', 'type', 'course_name', 'campus_name', 'due_date', 'principal', 'on_time_value',
  'on_time_discounts', 'status', 'payment_type', 'paid_on', 'balance', 'settled_fine', 'settled_interest',
  'settled_discount', 'settled_received',
];

/**
 * COPY text of an installment row in `ROW_COLUMNS` order. Hot path: the columns spelled out, not
 * looked up by name; the values the item rules produce (canonical names, dates, amounts) need no
 * escaping, the others go through `copyText`. Joined from an array: one flat string per row, which
 * a block's text then copies once (concatenating ~50 parts per row builds deep string trees).
 */
function rowText(r: InstallmentRow): string {
  return [
    copyText(r.upsert_key), copyText(r.external_id), copyText(r.student_cpf), copyText(r.student_ra), copyText(r.student_name),
    copyText(r.guarantor_document), r.guarantor_document_type, copyText(r.contract_number), copyText(r.number), r.type,
    copyText(r.course_name), copyText(r.campus_name), r.due_date, r.principal, r.on_time_value, copyValue(r.on_time_discounts),
    r.status, r.payment_type ?? '\\N', r.paid_on ?? '\\N', r.balance, r.settled_fine, r.settled_interest, r.settled_discount,
    r.settled_received,
  ].join('\t');
}

/** Columns of `installment_submissions` in the order `submissionText` writes them. */
const SUBMISSION_COLUMNS = [
  'batch_id', 'index', 'errors', 'sent_student_cpf', 'sent_guarantor_document', 'sent_external_id', 'sent_type_lower',
  'sent_settlement_lower', 'sent_due_day', 'sent_course_code', 'sent_course_name', 'sent_course_degree',
  'sent_course_modality', 'sent_organization_name', 'sent_campus_name', 'sent_campus_id',
];

/** A sent value as COPY text: strings as they are (the filters compare strings), anything else null. */
const sent = (value: unknown) => (typeof value === 'string' ? copyText(value) : '\\N');
const sentLower = (value: unknown) => (typeof value === 'string' ? copyText(value.toLowerCase()) : '\\N');

/** COPY text of an item's `installment_submissions` row: its problems and its sent values the listing filters on. */
function submissionText(batchId: string, index: number, item: InstallmentSubmission, errors: ItemError[]): string {
  const problems = errors.length > 0 ? copyValue(errors.map(({ field, message }) => ({ field, message }))) : '\\N';
  const due = typeof item.dataVencimento === 'string' ? copyText(item.dataVencimento.slice(0, 10)) : '\\N';
  return [
    batchId, index, problems, sent(item.alunoCpf), sent(item.responsavelFinanceiroDocumento), sent(item.idParcela),
    sentLower(item.tipoParcela), sentLower(item.situacaoBaixa), due, sent(item.codigoCurso), sent(item.nomeCurso),
    sent(item.grauCurso), sent(item.modalidadeCurso), sent(item.nomeOrganizacao), sent(item.nomePolo), sent(item.idPolo),
  ].join('\t');
}

/** A block's items checked: their `installment_submissions` rows and, for the valid ones, installment rows (`index`, values). */
export interface StagedBlock {
  submissions: Buffer;
  rows: Buffer;
}

/**
 * Checks items (positions `firstIndex` on) under the item rules and serialises them as COPY text,
 * a block of `blockSize` items at a time, compressed (Brotli). Each item is
 * serialised as soon as it is checked, so what the checks build dies young.
 */
export function stageInstallments(batchId: string, items: unknown[], receivedOn: string, blockSize: number, firstIndex = 0): StagedBlock[] {
  const blocks: StagedBlock[] = [];
  for (let start = 0; start < items.length; start += blockSize) {
    let submissions = '';
    let rows = '';
    for (let i = start; i < Math.min(start + blockSize, items.length); i++) {
      const item = items[i] as InstallmentSubmission;
      const { row, errors } = checkInstallment(firstIndex + i, item, batchId, receivedOn);
      submissions += `${submissionText(batchId, firstIndex + i, item, errors)}\n`;
      if (row) rows += `${firstIndex + i}\t${rowText(row)}\n`;
    }
    blocks.push({ submissions: compress(submissions), rows: compress(rows) });
  }
  return blocks;
}

/** The installment row of a valid item, read back from its staged COPY text. */
export interface StagedRow {
  index: number;
  key: string;
  /** The last item of its key in the chunk: one statement cannot upsert a key twice, and the last one wins anyway. */
  applies: boolean;
  /** Its staged line as UTF-8 bytes: the item's index and the `ROW_COLUMNS`, tab-separated, and a newline. */
  line: Buffer;
}

/** A chunk's staged rows, ready for `writeSubmissions` and the installment writes. */
export interface StagedChunk {
  first: number;
  last: number;
  /** Items with problems under the item rules. */
  invalid: number;
  /** COPY text of the chunk's `installment_submissions` rows, one per item, as UTF-8 bytes. */
  submissions: Buffer[];
  /** Installment rows of the valid items, in item order. */
  rows: StagedRow[];
}

const TAB = 0x09;
const NEWLINE = 0x0a;
const unescapeCopy = (text: string) => text.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));

/**
 * The rows of staged blocks covering items [from, to), decompressed on libuv's thread pool and
 * split, not parsed: the lines stay bytes (only the index and the key are read), so the COPYs send
 * them on without decoding and encoding the text again.
 */
export async function unstage(blocks: StagedBlock[], from: number, to: number): Promise<StagedChunk> {
  const [submissions, texts] = await Promise.all([Promise.all(blocks.map((b) => decompress(b.submissions))), Promise.all(blocks.map((b) => decompress(b.rows)))]);
  const rows: StagedRow[] = [];
  for (const text of texts) {
    for (let start = 0, end = text.indexOf(NEWLINE); end >= 0; start = end + 1, end = text.indexOf(NEWLINE, start)) {
      const tab = text.indexOf(TAB, start);
      const index = Number(text.toString('latin1', start, tab));
      if (index < from || index >= to) continue;
      const key = text.toString('utf8', tab + 1, text.indexOf(TAB, tab + 1));
      rows.push({ index, key: key.includes('\\') ? unescapeCopy(key) : key, applies: true, line: text.subarray(start, end + 1) });
    }
  }
  const seen = new Set<string>();
  for (let i = rows.length - 1; i >= 0; i--) {
    rows[i]!.applies = !seen.has(rows[i]!.key);
    seen.add(rows[i]!.key);
  }
  return { first: from, last: to - 1, invalid: to - from - rows.length, submissions, rows };
}

/** COPYs a chunk's `installment_submissions` rows; those left by an earlier attempt are replaced, so a redone chunk stages each item once. */
export async function writeSubmissions(raw: TransactionSql, batchId: string, chunk: StagedChunk): Promise<void> {
  await raw`delete from installment_submissions where batch_id = ${batchId} and index between ${chunk.first} and ${chunk.last}`;
  await copyInto(raw, 'installment_submissions', SUBMISSION_COLUMNS, chunk.submissions);
}
