import { and, asc, type Column, count, eq, gt, gte, lt, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';

import type { components, operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import {
  carriedTotal,
  decodeContinuation,
  encodeContinuation,
  filteredScope,
  PAGE_SIZE,
  toPage,
} from '../../core/continuation.js';
import { addDays, startOfLocalDay } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { conditionShape, preparedPerShape } from '../../db/prepared.js';
import { batches, installmentSubmissions as s } from '../../db/schema/index.js';
import { readItemsAt } from '../intake/item-blocks.js';
import { InvertedDateRange } from './original-filters.js';

export type SubmittedQuery = NonNullable<operations['listSubmittedInstallments']['parameters']['query']>;
type SubmittedPage = components['schemas']['SubmittedInstallmentPage'];
type Submission = components['schemas']['InstallmentSubmission'];

/** Filters that match one sent value exactly, and the column holding it. */
const EXACT: [keyof SubmittedQuery, Column][] = [
  ['aluno_cpf', s.sentStudentCpf],
  ['responsavel_financeiro_documento', s.sentGuarantorDocument],
  ['id_parcela', s.sentExternalId],
  ['data_vencimento', s.sentDueDay],
  ['codigo_curso', s.sentCourseCode],
  ['nome_curso', s.sentCourseName],
  ['grau_curso', s.sentCourseDegree],
  ['modalidade_curso', s.sentCourseModality],
  ['nome_organizacao', s.sentOrganizationName],
  ['nome_polo', s.sentCampusName],
  ['id_polo', s.sentCampusId],
];

/** Vocabularies the institution may send in any case: compared in lower case. */
const ANY_CASE: [keyof SubmittedQuery, Column][] = [
  ['tipo_parcela', s.sentTypeLower],
  ['situacao_baixa', s.sentSettlementLower],
];

export function submittedFilters(institutionId: string, query: SubmittedQuery): SQL {
  const conditions: SQL[] = [eq(batches.institutionId, institutionId), eq(batches.kind, 'parcela')];
  if (query.lote) conditions.push(eq(batches.id, query.lote));
  for (const [param, column] of EXACT) {
    const value = query[param];
    if (typeof value === 'string') conditions.push(eq(column, value));
  }
  for (const [param, column] of ANY_CASE) {
    const value = query[param];
    if (typeof value === 'string') conditions.push(eq(column, value.toLowerCase()));
  }
  const { data_inicial_envio: from, data_final_envio: to } = query;
  if (from && to && from > to) throw new InvertedDateRange('data_inicial_envio', from, 'data_final_envio', to);
  // Days of Brasília: a batch sent at 22:00 local on the 10th (01:00Z on the 11th) is of the 10th.
  if (from) conditions.push(gte(batches.createdAt, startOfLocalDay(from)));
  if (to) conditions.push(lt(batches.createdAt, startOfLocalDay(addDays(to, 1))));
  return and(...conditions)!;
}

/** [batch seq, item index, totalItems counted on the first page]; no total from older tokens. */
const isItemPosition = (p: unknown[]): p is [number, number] | [number, number, number] =>
  (p.length === 2 || p.length === 3) && p.every((v) => Number.isSafeInteger(v));

/**
 * The rows of one page (and one more) after item `afterIndex` of the batch numbered `afterSeq`:
 * the rest of that batch, then the batches after it, each part in the shape of a first page. As
 * one row comparison `(seq, index) > (…)` over the join no index reads in that order, and the
 * walk went through every batch before the position.
 */
export function submittedPage(
  db: Queryable,
  filters: SQL,
  afterSeq: number | Placeholder,
  afterIndex: number | Placeholder,
) {
  const part = (position: SQL) =>
    db
      .select({ batchId: batches.id, batchSeq: batches.seq, createdAt: batches.createdAt, index: s.index })
      .from(s)
      .innerJoin(batches, eq(batches.id, s.batchId))
      .where(and(filters, position))
      .orderBy(asc(batches.seq), asc(s.index))
      .limit(PAGE_SIZE + 1);
  return unionAll(part(and(eq(batches.seq, afterSeq), gt(s.index, afterIndex))!), part(gt(batches.seq, afterSeq)))
    .orderBy(asc(batches.seq), asc(s.index))
    .limit(PAGE_SIZE + 1);
}

export const submittedCount = (db: Queryable, filters: SQL) =>
  db.select({ n: count() }).from(s).innerJoin(batches, eq(batches.id, s.batchId)).where(filters);

// Both statements prepared per combination of filters: building them took longer than a lookup's answer.
const preparedPage = preparedPerShape((db, filters) =>
  submittedPage(db, filters, sql.placeholder('afterSeq'), sql.placeholder('afterIndex')).prepare('submitted_page'),
);
const preparedCount = preparedPerShape((db, filters) => submittedCount(db, filters).prepare('submitted_count'));

/**
 * Installments as submitted, oldest batch first and in batch order, 100 a page. Items are listed
 * once their batch is processed (their sent values are then filterable); the items themselves are
 * read back from the batch's stored blocks, as values or only as the texts they serialise to
 * (`readItemsAt`).
 */
export async function listSubmittedInstallments(
  ctx: AppContext,
  institutionId: string,
  query: SubmittedQuery,
  itemsAs: 'values' | 'texts' = 'values',
): Promise<SubmittedPage> {
  const filters = conditionShape(submittedFilters(institutionId, query));
  const scope = filteredScope('submitted-installments', institutionId, query);
  const [afterSeq, afterIndex, carried] = query.continuable
    ? decodeContinuation(ctx.config.cursorSecret, scope, query.continuable, isItemPosition)
    : [0, -1];
  const [rows, total] = await Promise.all([
    preparedPage(ctx.db, filters).execute({ ...filters.values, afterSeq, afterIndex }),
    carriedTotal(carried, async () => {
      const [row] = await preparedCount(ctx.db, filters).execute(filters.values);
      return row?.n ?? 0;
    }),
  ]);
  const sent = await readItemsAt(ctx.db, rows.slice(0, PAGE_SIZE), itemsAs);
  const page = toPage(
    rows,
    (r) => ({
      loteId: r.batchId,
      dataEnvio: r.createdAt.toISOString(),
      dadosEnviados: sent.get(`${r.batchId}:${r.index}`) as Submission,
    }),
    (r) => [r.batchSeq, r.index, total],
    (position) => encodeContinuation(ctx.config.cursorSecret, scope, position),
  );
  return {
    data: page.items,
    metadata: {
      totalItems: total,
      itemsPerPage: PAGE_SIZE,
      ...(page.continuable ? { continuable: page.continuable } : {}),
    },
  };
}
