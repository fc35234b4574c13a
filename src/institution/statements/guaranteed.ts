import { type SQL, sql } from 'drizzle-orm';

import type { components, operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { PAGE_SIZE, toPage } from '../../core/continuation.js';
import { BUSINESS_TIME_ZONE, localDate } from '../../core/local-date.js';
import { statementCursor } from './paging.js';

type AssignmentQuery = NonNullable<operations['getInstallmentAssignmentStatement']['parameters']['query']>;
type AssignmentRecord = components['schemas']['AssignmentStatementRecord'];
type GuaranteedRecord = components['schemas']['GuaranteedRevenueStatementRecord'];
type AssignmentPage = operations['getInstallmentAssignmentStatement']['responses'][200]['content']['application/json'];
type GuaranteedPage = operations['getGuaranteedRevenueStatement']['responses'][200]['content']['application/json'];

/** #7 lists every installment of a closing; #8 only those assigned. */
export type GuaranteedStatement = 'assignments' | 'guaranteed';

export interface AssignmentRow {
  month: string;
  external_id: string;
  installment_id: string;
  institution_id: string;
  institution_name: string;
  closed_at: string;
  assigned: boolean;
  student_cpf: string;
  guarantor_document: string;
  guarantor_name: string;
  guarantee_type: string;
  modality: string;
  allocation: string;
  due_date: string;
  principal: string;
  on_time_value: string;
  commission_percent: string;
  commission_value: string;
  guaranteed_value: string;
  first_transfer_value: string;
  second_transfer_value: string;
  /** Null when not assigned (see `assignmentsInsert`). */
  first_transfer_on: string | null;
  second_transfer_on: string | null;
}

/** The guaranteed-revenue record (decimal strings); `today` says whether both transfers were made. */
export function toGuaranteedRecord(row: AssignmentRow, today: string): GuaranteedRecord {
  return {
    ies_id: row.institution_id,
    ies_nome: row.institution_name,
    fechamento: {
      data: row.closed_at,
      competencia: row.month,
      status: row.second_transfer_on !== null && today >= row.second_transfer_on ? 'REPASSADO' : 'FECHADO',
    },
    aluno_cpf: row.student_cpf,
    responsavel_financeiro_documento: row.guarantor_document,
    responsavel_financeiro_nome: row.guarantor_name,
    parcela_id_externo: row.external_id,
    parcela_id: row.installment_id,
    tipo_garantia: row.guarantee_type,
    tipo_garantia_observacao: '',
    modalidade: row.modality,
    alocacao_instituicao_repasse: row.allocation,
    data_vencimento: row.due_date,
    valor_principal: row.principal,
    valor_adimplencia: row.on_time_value,
    comissao_percentual: row.commission_percent,
    comissao_valor: row.commission_value,
    valor_garantido: row.guaranteed_value,
    valor_garantido_primeiro_repasse: row.first_transfer_value,
    valor_garantido_segundo_repasse: row.second_transfer_value,
    // Only assigned installments are listed here, and they always have their transfer dates.
    data_primeiro_repasse: row.first_transfer_on!,
    data_segundo_repasse: row.second_transfer_on!,
  };
}

/**
 * The assignment record: the same values as JSON numbers. Each is numeric text with two decimals
 * read by `Number`, which gives the nearest double of that exact decimal; nothing is computed on it.
 */
export function toAssignmentRecord(row: AssignmentRow, today: string): AssignmentRecord {
  const g = toGuaranteedRecord(row, today);
  return {
    ...g,
    parcela_cedida: row.assigned ? 'true' : 'false',
    data_primeiro_repasse: row.first_transfer_on,
    data_segundo_repasse: row.second_transfer_on,
    valor_principal: Number(g.valor_principal),
    valor_adimplencia: Number(g.valor_adimplencia),
    comissao_percentual: Number(g.comissao_percentual),
    comissao_valor: Number(g.comissao_valor),
    valor_garantido: Number(g.valor_garantido),
    valor_garantido_primeiro_repasse: Number(g.valor_garantido_primeiro_repasse),
    valor_garantido_segundo_repasse: Number(g.valor_garantido_segundo_repasse),
  };
}

function assignmentRows(institutionId: string, statement: GuaranteedStatement, query: AssignmentQuery): SQL {
  const month = query.fechamento_competencia
    ? sql`and a.month = date_trunc('month', ${query.fechamento_competencia}::date)::date`
    : sql``;
  const external =
    query.parcela_id_externo !== undefined ? sql`and a.external_id = ${query.parcela_id_externo}` : sql``;
  const assigned = statement === 'guaranteed' ? sql`and a.assigned` : sql``;
  return sql`(
    select a.month::text as month, a.external_id, i.id::text as installment_id, a.institution_id::text as institution_id,
           inst.name as institution_name,
           to_char(c.closed_at at time zone ${BUSINESS_TIME_ZONE}, 'YYYY-MM-DD"T"HH24:MI:SS') as closed_at,
           a.assigned, i.student_cpf, i.guarantor_document,
           coalesce(case when i.guarantor_document = i.student_cpf then coalesce(s.full_name, i.student_name)
                         when s.data->'responsavelFinanceiro'->>'documento' = i.guarantor_document then s.data->'responsavelFinanceiro'->>'nome' end, '') as guarantor_name,
           a.guarantee_type, coalesce(sub.sent_course_modality, '') as modality, a.allocation, i.due_date::text as due_date,
           a.principal::text as principal, a.on_time_value::text as on_time_value, a.commission_percent::text as commission_percent,
           a.commission_value::text as commission_value, a.guaranteed_value::text as guaranteed_value,
           a.first_transfer_value::text as first_transfer_value, a.second_transfer_value::text as second_transfer_value,
           a.first_transfer_on::text as first_transfer_on, a.second_transfer_on::text as second_transfer_on
      from installment_assignments a
      join statement_closings c on c.id = a.closing_id
      join installments i on i.id = a.installment_id
      join institutions inst on inst.id = a.institution_id
      left join students s on s.institution_id = i.institution_id and s.cpf = i.student_cpf
      left join installment_submissions sub on sub.batch_id = i.batch_id and sub.index = i.item_index
     where a.institution_id = ${institutionId} ${month} ${external} ${assigned}
  )`;
}

const rowsAfterQuery = (from: SQL, after: [string, string] | undefined, limit: number) => sql`
    select * from ${from} r ${after ? sql`where (month, external_id) > (${after[0]}, ${after[1]})` : sql``}
     order by month, external_id limit ${limit}`;

const rowsAfter = (ctx: AppContext, from: SQL, after: [string, string] | undefined, limit: number) =>
  ctx.db.execute<AssignmentRow & Record<string, unknown>>(rowsAfterQuery(from, after, limit));

/** The statements of one page of #7 or #8 (its rows after `after`, and the count of every match), for the benchmark too. */
export function guaranteedStatements(
  institutionId: string,
  statement: GuaranteedStatement,
  query: AssignmentQuery,
  after?: [string, string],
) {
  const from = assignmentRows(institutionId, statement, query);
  return { rows: rowsAfterQuery(from, after, PAGE_SIZE + 1), count: sql`select count(*)::int as n from ${from} r` };
}

const cursorOf = (ctx: AppContext, institutionId: string, statement: GuaranteedStatement, query: AssignmentQuery) =>
  statementCursor(ctx.config.cursorSecret, statement, institutionId, {
    fechamento_competencia: query.fechamento_competencia,
    parcela_id_externo: query.parcela_id_externo,
  });

async function pageOf<Item>(
  ctx: AppContext,
  institutionId: string,
  statement: GuaranteedStatement,
  query: AssignmentQuery,
  toItem: (row: AssignmentRow, today: string) => Item,
) {
  const cursor = cursorOf(ctx, institutionId, statement, query);
  const after = cursor.decode(query.continuable);
  const statements = guaranteedStatements(institutionId, statement, query, after);
  const today = localDate(ctx.clock.now());
  const [rows, [total]] = await Promise.all([
    ctx.db.execute<AssignmentRow & Record<string, unknown>>(statements.rows),
    ctx.db.execute<{ n: number }>(statements.count),
  ]);
  const page = toPage(
    [...rows],
    (row) => toItem(row, today),
    (r) => [r.month, r.external_id],
    cursor.encode,
  );
  return {
    data: page.items,
    metadata: {
      totalItems: total?.n ?? 0,
      itemsPerPage: PAGE_SIZE as 100,
      ...(page.continuable ? { continuable: page.continuable } : {}),
    },
  };
}

export const getAssignmentStatement = (
  ctx: AppContext,
  institutionId: string,
  query: AssignmentQuery,
): Promise<AssignmentPage> => pageOf(ctx, institutionId, 'assignments', query, toAssignmentRecord);

export const getGuaranteedRevenueStatement = (
  ctx: AppContext,
  institutionId: string,
  query: AssignmentQuery,
): Promise<GuaranteedPage> => pageOf(ctx, institutionId, 'guaranteed', query, toGuaranteedRecord);

/**
 * Every row of #7 or #8 for the filters, a thousand at a time, for the CSV export: records with
 * decimal strings (and `parcela_cedida` on #7), so amounts keep their two decimals.
 */
export async function* guaranteedRecords(
  ctx: AppContext,
  institutionId: string,
  statement: GuaranteedStatement,
  query: AssignmentQuery,
): AsyncGenerator<object[]> {
  cursorOf(ctx, institutionId, statement, query).decode(query.continuable);
  const from = assignmentRows(institutionId, statement, query);
  const today = localDate(ctx.clock.now());
  let after: [string, string] | undefined;
  for (;;) {
    const rows = [...(await rowsAfter(ctx, from, after, 1000))];
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      ...toGuaranteedRecord(row, today),
      ...(statement === 'assignments' ? { parcela_cedida: row.assigned ? 'true' : 'false' } : {}),
    }));
    const last = rows[rows.length - 1]!;
    after = [last.month, last.external_id];
    if (rows.length < 1000) return;
  }
}
