import { and, asc, eq, gt, type Placeholder, type SQL, sql } from 'drizzle-orm';

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
import { countedByGroups, countFromGroups } from './installment-counts.js';
import {
  AGREEMENT_STATUS,
  daysLate,
  originalsPageSets,
  type OriginalsQuery,
  originalsSets,
} from './original-filters.js';

type OriginalInstallment = components['schemas']['OriginalInstallment'];
type OriginalInstallmentPage = components['schemas']['OriginalInstallmentPage'];

/** A guarantor as recorded on a student (`responsavelFinanceiro` of `POST /v1/aluno`). */
interface GuarantorRecord {
  documento?: string;
  nome?: string;
}

const selection = (today: string | Placeholder) => ({
  installment: installments,
  institutionName: institutions.name,
  studentRecordName: students.fullName,
  studentRecordRa: students.ra,
  guarantorRecord: sql<GuarantorRecord | null>`${students.data}->'responsavelFinanceiro'`,
  daysLate: daysLate(today),
});

type Row = {
  installment: typeof installments.$inferSelect;
  institutionName: string;
  studentRecordName: string | null;
  studentRecordRa: string | null;
  guarantorRecord: GuarantorRecord | null;
  daysLate: number;
};

function guarantorName(row: Row, studentName: string | null): string | null {
  const i = row.installment;
  if (i.guarantorDocument === i.studentCpf) return studentName;
  return row.guarantorRecord?.documento === i.guarantorDocument ? (row.guarantorRecord.nome ?? null) : null;
}

export function toOriginalInstallment(row: Row): OriginalInstallment {
  const i = row.installment;
  const studentName = row.studentRecordName ?? i.studentName;
  const inAgreement = i.type === AGREEMENT_TYPE;
  return {
    id: i.id,
    ...(i.externalId !== null ? { id_externo: i.externalId } : {}),
    ies_id: i.institutionId,
    ies_nome: row.institutionName,
    responsavel_financeiro: {
      id: stableId('guarantor', i.institutionId, i.guarantorDocument),
      documento: i.guarantorDocument,
      nome: guarantorName(row, studentName) ?? '',
    },
    aluno: { ra: i.studentRa ?? row.studentRecordRa ?? '', cpf: i.studentCpf, nome: studentName ?? '' },
    contrato_id: i.contractNumber ?? '',
    data_vencimento: i.dueDate,
    numero: i.number ?? '',
    valor_principal: Number(i.principal),
    valor_adimplencia: Number(i.onTimeValue),
    situacao: i.status as OriginalInstallment['situacao'],
    tipo: i.type as OriginalInstallment['tipo'],
    produto: i.product as OriginalInstallment['produto'],
    curso: i.courseName ?? '',
    polo_campus: i.campusName ?? '',
    dias_atraso: row.daysLate,
    em_acordo: inAgreement,
    acordo_situacao: inAgreement ? (AGREEMENT_STATUS[i.status] ?? null) : null,
    acordo_efetivado_numero: inAgreement ? i.contractNumber : null,
    acordo_efetivado_id:
      inAgreement && i.contractNumber ? stableId('agreement', i.institutionId, i.contractNumber) : null,
    saldo_atual: Number(i.balance),
    data_pagamento: i.paidOn,
    tipo_pagamento: i.paymentType as OriginalInstallment['tipo_pagamento'],
    valor_liquidado: {
      multa: i.settledFine,
      juros: i.settledInterest,
      desconto: i.settledDiscount,
      recebido: i.settledReceived,
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
  return row && toOriginalInstallment(row as Row);
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
  return row && toOriginalInstallment(row as Row);
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

function pageRows(db: Queryable, condition: SQL, today: string) {
  const shape = conditionShape(condition);
  return preparedPage(db, shape).execute({ ...shape.values, today });
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
    rows as Row[],
    toOriginalInstallment,
    (r) => [r.installment.seq, total],
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
