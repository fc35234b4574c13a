import { and, asc, eq, gt, type Placeholder, type SQL, sql, type SQLWrapper } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import {
  carriedTotal,
  decodeContinuation,
  encodeContinuation,
  filteredScope,
  PAGE_SIZE,
  toPage,
} from '../../core/continuation.js';
import { localDate } from '../../core/local-date.js';
import { stableId } from '../../core/stable-id.js';
import type { Queryable } from '../../db/client.js';
import { conditionShape, preparedPerShape } from '../../db/prepared.js';
import { installments, institutions, students } from '../../db/schema/index.js';
import { AGREEMENT_TYPE } from '../vocabularies.js';
import { daysLate } from './days-late.js';
import { countedByGroups, countFromGroups } from './installment-counts.js';
import { AGREEMENT_STATUS, originalsPageSets, type OriginalsQuery, originalsSets } from './original-filters.js';

type OriginalInstallment = components['schemas']['OriginalInstallment'];
type OriginalInstallmentPage = components['schemas']['OriginalInstallmentPage'];

/** A guarantor as recorded on a student (`responsavelFinanceiro` of `POST /v1/aluno`). */
interface GuarantorRecord {
  documento?: string;
  nome?: string;
}

const i = installments;
const as = <T>(alias: keyof Row, value: SQLWrapper) => sql<T>`${value}`.as(alias);

/**
 * What a listed installment shows, flat and named as its row: only the columns the listing reads
 * (not the discounts' JSON, the timestamps or the ingestion's bookkeeping), each aliased, so that
 * PostgreSQL's row is already the `Row` and no column is mapped again in Node.
 */
const selection = (today: string | Placeholder) => ({
  id: as<string>('id', i.id),
  seq: as<string>('seq', i.seq),
  externalId: as<string | null>('externalId', i.externalId),
  institutionId: as<string>('institutionId', i.institutionId),
  institutionName: as<string>('institutionName', institutions.name),
  guarantorDocument: as<string>('guarantorDocument', i.guarantorDocument),
  guarantorRecord: as<GuarantorRecord | null>('guarantorRecord', sql`${students.data}->'responsavelFinanceiro'`),
  studentCpf: as<string>('studentCpf', i.studentCpf),
  studentRa: as<string | null>('studentRa', i.studentRa),
  studentName: as<string | null>('studentName', i.studentName),
  studentRecordName: as<string | null>('studentRecordName', students.fullName),
  studentRecordRa: as<string | null>('studentRecordRa', students.ra),
  contractNumber: as<string | null>('contractNumber', i.contractNumber),
  dueDate: as<string>('dueDate', i.dueDate),
  number: as<string | null>('number', i.number),
  principal: as<string>('principal', i.principal),
  onTimeValue: as<string>('onTimeValue', i.onTimeValue),
  status: as<string>('status', i.status),
  type: as<string>('type', i.type),
  product: as<string>('product', i.product),
  courseName: as<string | null>('courseName', i.courseName),
  campusName: as<string | null>('campusName', i.campusName),
  daysLate: as<number>('daysLate', daysLate(today)),
  balance: as<string>('balance', i.balance),
  paidOn: as<string | null>('paidOn', i.paidOn),
  paymentType: as<string | null>('paymentType', i.paymentType),
  settledFine: as<string>('settledFine', i.settledFine),
  settledInterest: as<string>('settledInterest', i.settledInterest),
  settledDiscount: as<string>('settledDiscount', i.settledDiscount),
  settledReceived: as<string>('settledReceived', i.settledReceived),
});

/** A row of the listing as PostgreSQL answers it (dates, money and `seq` as text, see `db/client.ts`). */
interface Row {
  id: string;
  seq: string;
  externalId: string | null;
  institutionId: string;
  institutionName: string;
  guarantorDocument: string;
  guarantorRecord: GuarantorRecord | null;
  studentCpf: string;
  studentRa: string | null;
  studentName: string | null;
  studentRecordName: string | null;
  studentRecordRa: string | null;
  contractNumber: string | null;
  dueDate: string;
  number: string | null;
  principal: string;
  onTimeValue: string;
  status: string;
  type: string;
  product: string;
  courseName: string | null;
  campusName: string | null;
  daysLate: number;
  balance: string;
  paidOn: string | null;
  paymentType: string | null;
  settledFine: string;
  settledInterest: string;
  settledDiscount: string;
  settledReceived: string;
}

function guarantorName(row: Row, studentName: string | null): string | null {
  if (row.guarantorDocument === row.studentCpf) return studentName;
  return row.guarantorRecord?.documento === row.guarantorDocument ? (row.guarantorRecord.nome ?? null) : null;
}

export function toOriginalInstallment(row: Row): OriginalInstallment {
  const studentName = row.studentRecordName ?? row.studentName;
  const inAgreement = row.type === AGREEMENT_TYPE;
  return {
    id: row.id,
    ...(row.externalId !== null ? { id_externo: row.externalId } : {}),
    ies_id: row.institutionId,
    ies_nome: row.institutionName,
    responsavel_financeiro: {
      id: stableId('guarantor', row.institutionId, row.guarantorDocument),
      documento: row.guarantorDocument,
      nome: guarantorName(row, studentName) ?? '',
    },
    aluno: { ra: row.studentRa ?? row.studentRecordRa ?? '', cpf: row.studentCpf, nome: studentName ?? '' },
    contrato_id: row.contractNumber ?? '',
    data_vencimento: row.dueDate,
    numero: row.number ?? '',
    valor_principal: Number(row.principal),
    valor_adimplencia: Number(row.onTimeValue),
    situacao: row.status as OriginalInstallment['situacao'],
    tipo: row.type as OriginalInstallment['tipo'],
    produto: row.product as OriginalInstallment['produto'],
    curso: row.courseName ?? '',
    polo_campus: row.campusName ?? '',
    dias_atraso: row.daysLate,
    em_acordo: inAgreement,
    acordo_situacao: inAgreement ? (AGREEMENT_STATUS[row.status] ?? null) : null,
    acordo_efetivado_numero: inAgreement ? row.contractNumber : null,
    acordo_efetivado_id:
      inAgreement && row.contractNumber ? stableId('agreement', row.institutionId, row.contractNumber) : null,
    saldo_atual: Number(row.balance),
    data_pagamento: row.paidOn,
    tipo_pagamento: row.paymentType as OriginalInstallment['tipo_pagamento'],
    valor_liquidado: {
      multa: row.settledFine,
      juros: row.settledInterest,
      desconto: row.settledDiscount,
      recebido: row.settledReceived,
    },
  };
}

/** [last seq served, totalItems counted on the first page]; [seq] alone from tokens without a total. */
const isSeqPosition = (p: unknown[]): p is [number] | [number, number] =>
  (p.length === 1 || p.length === 2) && p.every((v) => Number.isSafeInteger(v) && (v as number) >= 0);

/** Installments with what the listing shows beside them: institution, student record, days late. */
const withDetails = (db: Queryable, today: string | Placeholder) =>
  db
    .select(selection(today))
    .from(installments)
    .innerJoin(institutions, eq(institutions.id, installments.institutionId))
    .leftJoin(
      students,
      and(eq(students.institutionId, installments.institutionId), eq(students.cpf, installments.studentCpf)),
    )
    .$dynamic();

/** One installment as the listing shows it. */
export async function findOriginalInstallment(
  ctx: AppContext,
  installmentId: string,
): Promise<OriginalInstallment | undefined> {
  const [row] = await withDetails(ctx.db, localDate(ctx.clock.now())).where(eq(installments.id, installmentId));
  return row && toOriginalInstallment(row);
}

/** One installment of this institution as the listing shows it; another institution's is as missing. */
export async function findInstitutionInstallment(
  ctx: AppContext,
  institutionId: string,
  installmentId: string,
): Promise<OriginalInstallment | undefined> {
  const [row] = await withDetails(ctx.db, localDate(ctx.clock.now())).where(
    and(eq(installments.institutionId, institutionId), eq(installments.id, installmentId)),
  );
  return row && toOriginalInstallment(row);
}

/**
 * Where a page after position `after` is: one set (`originalsPageSets`) is walked in creation
 * order; several are each walked as far as a page, and the page is the first rows of their merge,
 * fetched by their place in the table (`ctid`, valid within the statement's snapshot).
 */
function originalsPageCondition(institutionId: string, query: OriginalsQuery, today: string, after: number): SQL {
  const i = installments;
  const sets = originalsPageSets(institutionId, query, today);
  if (sets.length === 1) return and(sets[0], gt(i.seq, after))!;
  const walks = sets.map(
    (set) =>
      sql`(select ctid, ${i.seq} from ${installments} where ${set} and ${i.seq} > ${after} order by ${i.seq} limit ${PAGE_SIZE + 1})`,
  );
  return sql`${installments}.ctid = any(array(select ctid from (${sql.join(walks, sql` union all `)}) as walks order by seq limit ${PAGE_SIZE + 1}))`;
}

/** The rows of one page, and one more telling whether another follows. */
const originalsPage = (db: Queryable, condition: SQL, today: string | Placeholder) =>
  withDetails(db, today)
    .where(condition)
    .orderBy(asc(installments.seq))
    .limit(PAGE_SIZE + 1);

/** The page statement of these filters after position `after`, for EXPLAIN and the benchmark. */
export const originalsPageQuery = (
  db: Queryable,
  institutionId: string,
  query: OriginalsQuery,
  today: string,
  after: number,
) => originalsPage(db, originalsPageCondition(institutionId, query, today, after), today);

// The same statement, prepared per combination of filters: building it walks every column of the
// installment and its joins, which took more CPU than PostgreSQL takes to answer a lookup.
const preparedPage = preparedPerShape((db, condition) =>
  originalsPage(db, condition, sql.placeholder('today')).prepare('originals_page'),
);

/** A prepared statement's rows as the driver answers them (Drizzle's `all`, which its types do not show). */
type Unmapped = { all(values: Record<string, unknown>): Promise<unknown[]> };

/**
 * The page's rows as PostgreSQL answers them: the selection already names them as `Row`, and
 * Drizzle's mapping of each column of 101 rows cost more Node CPU than the rest of the page's
 * mapping (bench/RESULTS.md).
 */
async function pageRows(db: Queryable, condition: SQL, today: string): Promise<Row[]> {
  const shape = conditionShape(condition);
  const prepared = preparedPage(db, shape) as unknown as Unmapped;
  return (await prepared.all({ ...shape.values, today })) as Row[];
}

/**
 * The count of a first page whose filters the counters do not cover, one statement: the matches
 * of the first disjoint set of conditions plus those of the others (`originalsSets`).
 */
export function originalsCountQuery(ctx: AppContext, institutionId: string, query: OriginalsQuery, today: string) {
  const [first, ...others] = originalsSets(institutionId, query, today);
  const n = others.reduce(
    (total, filters) => sql`${total} + (select count(*) from ${installments} where ${filters})`,
    sql`count(*)`,
  );
  return ctx.db
    .select({ n: sql`${n}`.mapWith(Number) })
    .from(installments)
    .where(first);
}

async function countOriginalInstallments(
  ctx: AppContext,
  institutionId: string,
  query: OriginalsQuery,
  today: string,
): Promise<number> {
  const [row] = await originalsCountQuery(ctx, institutionId, query, today);
  return row?.n ?? 0;
}

/**
 * The institution's original installments matching the filters, in creation order, 100 a page;
 * `totalItems` is counted on the first page and carried by the token.
 */
export async function listOriginalInstallments(
  ctx: AppContext,
  institutionId: string,
  query: OriginalsQuery,
): Promise<OriginalInstallmentPage> {
  const today = localDate(ctx.clock.now());
  const scope = filteredScope('original-installments', institutionId, query);
  const [after, carried] = query.continuable
    ? decodeContinuation(ctx.config.cursorSecret, scope, query.continuable, isSeqPosition)
    : [0];
  // The counters answer in well under a millisecond: a combination they know to be empty skips
  // the page query, which would otherwise walk every row of one filter looking for the other.
  const known =
    carried === undefined && countedByGroups(query) ? await countFromGroups(ctx.db, institutionId, query) : carried;
  const [rows, total] = await Promise.all([
    known === 0 ? [] : pageRows(ctx.db, originalsPageCondition(institutionId, query, today, after), today),
    carriedTotal(known, () => countOriginalInstallments(ctx, institutionId, query, today)),
  ]);
  const page = toPage(
    rows,
    toOriginalInstallment,
    (r) => [Number(r.seq), total],
    (position) => encodeContinuation(ctx.config.cursorSecret, scope, position),
  );
  return {
    data: page.items,
    metadata: {
      totalItems: String(total),
      itemsPerPage: PAGE_SIZE,
      ...(page.continuable ? { continuable: page.continuable } : {}),
    },
  };
}
