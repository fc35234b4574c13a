import { type SQL, sql } from 'drizzle-orm';

import type { components, operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { PAGE_SIZE, toPage } from '../../core/continuation.js';
import { formatCents, parseCents } from '../../core/money.js';
import { liquidationRecords } from './liquidation.rules.js';
import { type LiquidationRow, managementLiquidations } from './management-sql.js';
import { statementCursor } from './paging.js';

type ManagementQuery = NonNullable<operations['getManagementStatement']['parameters']['query']>;
type ManagementRecord = components['schemas']['ManagementStatementRecord'];
type ManagementPage = operations['getManagementStatement']['responses'][200]['content']['application/json'];

/** Cents of a payment's amount, a non-negative numeric(14, 2). */
function cents(value: string): number {
  const amount = parseCents(value);
  if (amount === undefined) throw new Error(`not an amount of a payment: ${value}`);
  return amount;
}

/** The parts of this row's record: its share of the payment (see `liquidationRecords`). */
function partsOf(row: LiquidationRow) {
  const payment = {
    received: cents(row.payment_received),
    fine: cents(row.payment_fine),
    interest: cents(row.payment_interest),
    discount: cents(row.payment_discount),
  };
  const parts = liquidationRecords(payment, row.m)[row.n - 1]!;
  return {
    principal: formatCents(parts.principal),
    fine: formatCents(parts.fine),
    interest: formatCents(parts.interest),
    discount: formatCents(parts.discount),
    received: formatCents(parts.received),
  };
}

export function toManagementRecord(row: LiquidationRow): ManagementRecord {
  const parts = partsOf(row);
  return {
    ies_id: row.institution_id,
    ies_nome: row.institution_name,
    responsavel_financeiro_documento: row.guarantor_document,
    responsavel_financeiro_nome: row.guarantor_name,
    alocacao_instituicao_repasse: row.allocation,
    modalidade: row.modality,
    parcela_id_externo: row.external_id,
    parcela_id: row.installment_id,
    ...(row.payment_id ? { pagamento_id: row.payment_id } : {}),
    data_vencimento: row.due_date,
    competencia_vencimento: row.due_month,
    produto: 'Gestão',
    tipo_gestao: row.management_type,
    tipo_gestao_observacao: '',
    liquidacao_gestao_id: row.liquidation_id,
    tipo_liquidacao: row.kind,
    tipo_pagamento: row.payment_type,
    meio_pagamento: row.payment_means,
    ...(row.card_split
      ? { parcela_cartao_de_credito_id: row.charge_id!, cartao_de_credito_parcelamento: row.card_split }
      : {}),
    data_recebimento: row.received_on,
    competencia_recebimento: row.received_month,
    parcela_valor_principal: row.installment_principal,
    valor_recebido_principia: parts.principal,
    comissao_percentual: row.commission_percent,
    comissao_valor: row.commission,
    valor_repasse: row.transfer,
    data_repasse: row.transfer_on,
    liquidacao: {
      valor_juros: parts.interest,
      valor_multa: parts.fine,
      valor_desconto: parts.discount,
      valor_recebido_total: parts.received,
    },
  };
}

/** `MM/AAAA` → the first day of that month (the pattern of the contract was checked already). */
const dueMonth = (value: string) => `${value.slice(3, 7)}-${value.slice(0, 2)}-01`;

function filtersOf(query: ManagementQuery): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.competencia_vencimento) conditions.push(sql`due_month = ${dueMonth(query.competencia_vencimento)}`);
  if (query.data_repasse) conditions.push(sql`transfer_on = ${query.data_repasse}`);
  return sql.join(conditions, sql` and `);
}

const rowsAfterQuery = (institutionId: string, where: SQL, after: [string, string] | undefined, limit: number) => sql`
    select * from ${managementLiquidations(institutionId)} m
     where ${where} ${after ? sql`and (transfer_on, liquidation_id) > (${after[0]}, ${after[1]})` : sql``}
     order by transfer_on, liquidation_id
     limit ${limit}`;

const rowsAfter = (
  ctx: AppContext,
  institutionId: string,
  where: SQL,
  after: [string, string] | undefined,
  limit: number,
) => ctx.db.execute<LiquidationRow & Record<string, unknown>>(rowsAfterQuery(institutionId, where, after, limit));

/** The statements of one page (its rows after `after`, and the count of every match), for the benchmark too. */
export function managementStatements(institutionId: string, query: ManagementQuery, after?: [string, string]) {
  const where = filtersOf(query);
  return {
    rows: rowsAfterQuery(institutionId, where, after, PAGE_SIZE + 1),
    count: sql`select count(*)::int as n from ${managementLiquidations(institutionId)} m where ${where}`,
  };
}

const cursorOf = (ctx: AppContext, institutionId: string, query: ManagementQuery) =>
  statementCursor(ctx.config.cursorSecret, 'management', institutionId, {
    competencia_vencimento: query.competencia_vencimento,
    data_repasse: query.data_repasse,
  });

/** One page of the management statement: liquidations in order of transfer date, then id. */
export async function getManagementStatement(
  ctx: AppContext,
  institutionId: string,
  query: ManagementQuery,
): Promise<ManagementPage> {
  const cursor = cursorOf(ctx, institutionId, query);
  const after = cursor.decode(query.continuable);
  const statements = managementStatements(institutionId, query, after);
  const [rows, [total]] = await Promise.all([
    ctx.db.execute<LiquidationRow & Record<string, unknown>>(statements.rows),
    ctx.db.execute<{ n: number }>(statements.count),
  ]);
  const page = toPage([...rows], toManagementRecord, (r) => [r.transfer_on, r.liquidation_id], cursor.encode);
  return {
    data: page.items,
    metadata: {
      totalItems: total?.n ?? 0,
      itemsPerPage: PAGE_SIZE as 100,
      ...(page.continuable ? { continuable: page.continuable } : {}),
    },
  };
}

/** Every record of the statement for the filters, a thousand rows at a time (for the CSV export). */
export async function* managementRecords(
  ctx: AppContext,
  institutionId: string,
  query: ManagementQuery,
): AsyncGenerator<ManagementRecord[]> {
  cursorOf(ctx, institutionId, query).decode(query.continuable);
  const where = filtersOf(query);
  let after: [string, string] | undefined;
  for (;;) {
    const rows = [...(await rowsAfter(ctx, institutionId, where, after, 1000))];
    if (rows.length === 0) return;
    yield rows.map(toManagementRecord);
    const last = rows[rows.length - 1]!;
    after = [last.transfer_on, last.liquidation_id];
    if (rows.length < 1000) return;
  }
}
