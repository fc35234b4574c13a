import { and, type Column, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';

import type { operations } from '../../../generated/institution.js';
import { parseFilterDay } from '../../core/dates.js';
import { ApiError, ValidationFailed } from '../../core/errors.js';
import { installments } from '../../db/schema/index.js';
import { AGREEMENT_TYPE, INSTALLMENT_TYPES } from '../vocabularies.js';
import { daysLateIs } from './days-late.js';

export type OriginalsQuery = NonNullable<operations['listOriginalInstallments']['parameters']['query']>;

export class InvertedDateRange extends ApiError {
  constructor(fromName: string, from: string, toName: string, to: string) {
    super(400, 'PARCELA-001', `${fromName} ${from} is after ${toName} ${to}`);
  }
}

/** Agreement status of an agreement installment, by installment status (one table for output and filter). */
export const AGREEMENT_STATUS: Record<string, 'ATIVO' | 'QUITADO' | 'CANCELADO'> = {
  ABERTO: 'ATIVO',
  PARCIALMENTE_PAGO: 'ATIVO',
  PAGO: 'QUITADO',
  CANCELADO_IES: 'CANCELADO',
};

/**
 * A guarantor's installments in the terms the indexes answer: the guarantor index holds only the
 * installments whose guarantor is not the student (a student paying their own tuition is the
 * common case, and each index entry is paid by every ingested row); the others are the student's
 * own, found through the student index.
 */
function guarantorIs(document: string): SQL[] {
  const i = installments;
  return [sql`${i.studentCpf} = ${document}`, sql`${i.guarantorDocument} <> ${i.studentCpf}`];
}

/** `YYYY-MM-DD` of a filter value: the date written, its time and zone not used (see `parseFilterDay`). */
export function filterDate(name: string, value: unknown): string {
  const date = parseFilterDay(value);
  if (!date)
    throw new ValidationFailed(`query.${name} ${String(value)} is not a real date`, [
      { path: `query.${name}`, message: 'must be a real date' },
    ]);
  return date;
}

/** A date range filter (inclusive); both ends optional. */
export function dateRange(
  column: Column,
  fromName: string,
  fromValue: string | undefined,
  toName: string,
  toValue: string | undefined,
): SQL[] {
  const from = fromValue === undefined ? undefined : filterDate(fromName, fromValue);
  const to = toValue === undefined ? undefined : filterDate(toName, toValue);
  if (from && to && from > to) throw new InvertedDateRange(fromName, from, toName, to);
  return [...(from ? [gte(column, from)] : []), ...(to ? [lte(column, to)] : [])];
}

/**
 * The listing's filters as sets of conditions that match disjoint rows and together every match,
 * for counting: the count is the sum of their counts. A filter the indexes answer in parts
 * (`dias_atraso`, a guarantor) splits every set in as many; an OR of the parts would be counted as
 * one bitmap over their indexes and the heap (bench/RESULTS.md, the dias_atraso count).
 */
export const originalsSets = (institutionId: string, query: OriginalsQuery, today: string): SQL[] =>
  disjointSets(institutionId, query, today, true);

function disjointSets(institutionId: string, query: OriginalsQuery, today: string, daysLateApart: boolean): SQL[] {
  const splits: SQL[][] = [];
  if (query.responsavel_financeiro_documento) splits.push(guarantorIs(query.responsavel_financeiro_documento));
  if (query.dias_atraso !== undefined) splits.push(daysLateIs(today, query.dias_atraso, daysLateApart));
  const combinations = splits.reduce<SQL[][]>(
    (sets, split) => sets.flatMap((set) => split.map((c) => [...set, c])),
    [[]],
  );
  return combinations.map((parts) => and(filtersWith(institutionId, query), ...parts)!);
}

/** Filters read through an index of their own, whose matches are few enough to sort. */
const INDEXED_FILTERS = [
  'aluno_cpf',
  'responsavel_financeiro_documento',
  'id_externo',
  'data_inicial_vencimento',
  'data_final_vencimento',
  'data_inicial_pagamento',
  'data_final_pagamento',
] as const;

const STATUSES = Object.keys(AGREEMENT_STATUS);
const TYPES = [...INSTALLMENT_TYPES.values()];

/** The (status, type) pairs the filters allow. */
function groupsAllowed(query: OriginalsQuery): [string, string][] {
  const type = query.tipo && INSTALLMENT_TYPES.get(query.tipo.toLowerCase());
  const agreementsOnly = query.em_acordo === true || query.acordo_situacao !== undefined;
  const statuses = STATUSES.filter(
    (s) =>
      (!query.situacao || s === query.situacao) &&
      (!query.acordo_situacao || AGREEMENT_STATUS[s] === query.acordo_situacao),
  );
  const types = TYPES.filter(
    (t) =>
      (!type || t === type) &&
      (!agreementsOnly || t === AGREEMENT_TYPE) &&
      (query.em_acordo !== false || t !== AGREEMENT_TYPE),
  );
  return statuses.flatMap((s) => types.map((t): [string, string] => [s, t]));
}

/**
 * The disjoint sets a page merges, each walked in creation order. Status and type share one index,
 * (institution, status, type, seq): a filter on either alone walks one range of it per (status,
 * type) pair it allows. Without a status or type filter the page walks the institution in creation
 * order; with a filter of its own index, that index. `dias_atraso` stays one set here, its halves
 * read as one bitmap and the day's matches sorted: walked apart in creation order, a rare day
 * would go through most of the institution.
 */
export function originalsPageSets(institutionId: string, query: OriginalsQuery, today: string): SQL[] {
  const sets = disjointSets(institutionId, query, today, false);
  const dayLate = query.dias_atraso !== undefined && query.dias_atraso > 0;
  if (dayLate || INDEXED_FILTERS.some((name) => query[name] !== undefined)) return sets;
  const groups = groupsAllowed(query);
  if (groups.length === 0 || groups.length === STATUSES.length * TYPES.length) return sets;
  const i = installments;
  return sets.flatMap((set) => groups.map(([s, t]) => and(set, eq(i.status, s), eq(i.type, t))!));
}

/** The conditions every set shares: each filter but the parts of the ones answered in parts. */
function filtersWith(institutionId: string, query: OriginalsQuery): SQL {
  const i = installments;
  const conditions: (SQL | undefined)[] = [eq(i.institutionId, institutionId)];
  if (query.responsavel_financeiro_documento)
    conditions.push(eq(i.guarantorDocument, query.responsavel_financeiro_documento));
  if (query.aluno_cpf) conditions.push(eq(i.studentCpf, query.aluno_cpf));
  if (query.aluno_ra !== undefined) conditions.push(eq(i.studentRa, query.aluno_ra));
  if (query.id_externo !== undefined) conditions.push(eq(i.upsertKey, `ext:${query.id_externo}`));
  if (query.numero !== undefined) conditions.push(eq(i.number, query.numero));
  if (query.situacao) conditions.push(eq(i.status, query.situacao));
  if (query.tipo) conditions.push(eq(i.type, INSTALLMENT_TYPES.get(query.tipo.toLowerCase())!));
  if (query.produto) conditions.push(eq(i.product, query.produto));
  if (query.em_acordo !== undefined)
    conditions.push(query.em_acordo ? eq(i.type, AGREEMENT_TYPE) : sql`${i.type} <> ${AGREEMENT_TYPE}`);
  if (query.acordo_situacao) {
    const statuses = Object.keys(AGREEMENT_STATUS).filter((s) => AGREEMENT_STATUS[s] === query.acordo_situacao);
    conditions.push(eq(i.type, AGREEMENT_TYPE), inArray(i.status, statuses));
  }
  if (query.tipo_pagamento) conditions.push(eq(i.paymentType, query.tipo_pagamento));
  conditions.push(
    ...dateRange(
      i.dueDate,
      'data_inicial_vencimento',
      query.data_inicial_vencimento,
      'data_final_vencimento',
      query.data_final_vencimento,
    ),
    ...dateRange(
      i.paidOn,
      'data_inicial_pagamento',
      query.data_inicial_pagamento,
      'data_final_pagamento',
      query.data_final_pagamento,
    ),
  );
  return and(...conditions)!;
}
