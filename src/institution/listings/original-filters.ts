import { and, eq, gte, inArray, lte, or, sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { operations } from '../../../generated/institution.js';
import { installments } from '../../db/schema/index.js';
import { ApiError, ValidationFailed } from '../../core/errors.js';
import { parseLocalDateTime } from '../../core/dates.js';
import { AGREEMENT_TYPE, INSTALLMENT_TYPES } from '../vocabularies.js';

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
 * Days late as the listing shows it: open or partly paid, days from the due date to today; paid,
 * days from the due date to the payment; cancelled, 0.
 */
export const daysLate = (today: string | Placeholder) => sql<number>`(case
  when ${installments.status} in ('ABERTO', 'PARCIALMENTE_PAGO') then greatest(${today}::date - ${installments.dueDate}, 0)
  when ${installments.status} = 'PAGO' then greatest(${installments.paidOn} - ${installments.dueDate}, 0)
  else 0 end)::int`;

/**
 * `dias_atraso = days` in terms the indexes answer: more than 0 days late is either an open
 * installment due exactly `days` before today, or a paid one paid `days` after its due date. The
 * two halves never match the same row (open vs paid), so they are also counted apart, each by its
 * own index (`originalsCountFilters`). 0 days matches most of the institution, so it stays the
 * plain expression, one condition.
 */
function daysLateIs(today: string, days: number): SQL[] {
  const i = installments;
  if (days <= 0) return [sql`${daysLate(today)} = ${days}`];
  return [
    sql`(${i.status} in ('ABERTO', 'PARCIALMENTE_PAGO') and ${i.dueDate} = ${today}::date - ${days}::int)`,
    sql`(${i.status} = 'PAGO' and (${i.paidOn} - ${i.dueDate}) = ${days}::int)`,
  ];
}

/** `YYYY-MM-DD` of a filter value (a date or a date-time without zone). */
export function filterDate(name: string, value: unknown): string {
  const date = parseLocalDateTime(value);
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

/** The WHERE conditions of the listing's filters, all combined with AND. */
export function originalsFilters(institutionId: string, query: OriginalsQuery, today: string): SQL {
  const daysLateHalves = query.dias_atraso === undefined ? [] : daysLateIs(today, query.dias_atraso);
  return filtersWith(institutionId, query, daysLateHalves.length > 0 ? or(...daysLateHalves) : undefined);
}

/**
 * The listing's filters as sets of conditions that match disjoint rows and together the rows
 * `originalsFilters` matches: a count is the sum of their counts. An OR of `dias_atraso`'s halves
 * is read as one bitmap over both indexes and the heap (most of a second at a million rows); each
 * half alone is a range of its own index.
 */
export function originalsCountFilters(institutionId: string, query: OriginalsQuery, today: string): SQL[] {
  if (query.dias_atraso === undefined) return [filtersWith(institutionId, query, undefined)];
  return daysLateIs(today, query.dias_atraso).map((half) => filtersWith(institutionId, query, half));
}

function filtersWith(institutionId: string, query: OriginalsQuery, daysLateCondition: SQL | undefined): SQL {
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
  conditions.push(daysLateCondition);
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
