import { type SQL, sql } from 'drizzle-orm';

import type { components, operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { PAGE_SIZE, toPage } from '../../core/continuation.js';
import { localDate } from '../../core/local-date.js';
import { formatCents } from '../../core/money.js';
import { bookAllDueRecords } from '../books/payments.js';
import { managementCountQuery, managementRecordsQuery, type ManagementRow } from './management-sql.js';
import { statementCursor } from './paging.js';

type ManagementQuery = NonNullable<operations['getManagementStatement']['parameters']['query']>;
type ManagementRecord = components['schemas']['ManagementStatementRecord'];
type ManagementPage = operations['getManagementStatement']['responses'][200]['content']['application/json'];

type LiquidationKind = ManagementRecord['tipo_liquidacao'];

/** `tipo_liquidacao` of each kind of record; a payment says whether it settled the installment. */
const LIQUIDATION_KINDS: Record<string, LiquidationKind> = {
  IES_SETTLEMENT: 'TOTAL',
  IES_REVERSAL: 'ESTORNO',
  REFUND: 'ESTORNO',
  DISPUTE: 'CONTESTACAO',
  REINSTATEMENT: 'RESTABELECIMENTO',
};

const money = (cents: string | number) => formatCents(Number(cents));

export function toManagementRecord(row: ManagementRow): ManagementRecord {
  const fromInstitution = row.kind.startsWith('IES_');
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
    data_vencimento: row.due_on,
    competencia_vencimento: row.due_month,
    produto: 'Gestão',
    tipo_gestao: row.management_type,
    tipo_gestao_observacao: '',
    liquidacao_gestao_id: row.record_id,
    tipo_liquidacao: (row.settlement as LiquidationKind | null) ?? LIQUIDATION_KINDS[row.kind]!,
    tipo_pagamento: fromInstitution ? 'Pago na IES' : 'Pago na Plataforma',
    meio_pagamento: row.means,
    ...(row.card_installment
      ? {
          parcela_cartao_de_credito_id: row.charge_id!,
          cartao_de_credito_parcelamento: `${row.card_installment}/${row.card_installments}`,
        }
      : {}),
    data_recebimento: row.moved_on,
    competencia_recebimento: row.moved_month,
    parcela_valor_principal: money(row.installment_principal_cents),
    valor_recebido_principia: money(row.principal_cents),
    comissao_percentual: row.commission_percent,
    comissao_valor: money(row.commission_cents),
    valor_repasse: money(row.net_cents),
    data_repasse: row.transfer_on,
    liquidacao: {
      valor_juros: money(row.interest_cents),
      valor_multa: money(row.fine_cents),
      valor_desconto: money(row.discount_cents),
      valor_recebido_total: money(row.amount_cents),
    },
  };
}

/** `MM/AAAA` → the first day of that month (the pattern of the contract was checked already). */
const dueMonth = (value: string) => `${value.slice(3, 7)}-${value.slice(0, 2)}-01`;

/** The filters as a condition on `e`, in the terms of the statement's indexes. */
function filtersOf(query: ManagementQuery): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.competencia_vencimento) conditions.push(sql`e.due_month = ${dueMonth(query.competencia_vencimento)}::date`);
  if (query.data_repasse) conditions.push(sql`e.transfer_on = ${query.data_repasse}::date`);
  return sql.join(conditions, sql` and `);
}

const rowsAfter = (
  ctx: AppContext,
  institutionId: string,
  where: SQL,
  after: [string, string] | undefined,
  limit: number,
) =>
  ctx.db.execute<ManagementRow & Record<string, unknown>>(managementRecordsQuery(institutionId, where, after, limit));

/** The statements of one page (its rows after `after`, and the count of every match), for the benchmark too. */
export function managementStatements(institutionId: string, query: ManagementQuery, after?: [string, string]) {
  const where = filtersOf(query);
  return {
    rows: managementRecordsQuery(institutionId, where, after, PAGE_SIZE + 1),
    count: managementCountQuery(institutionId, where),
  };
}

const cursorOf = (ctx: AppContext, institutionId: string, query: ManagementQuery) =>
  statementCursor(ctx.config.cursorSecret, 'management', institutionId, {
    competencia_vencimento: query.competencia_vencimento,
    data_repasse: query.data_repasse,
  });

/**
 * One page of the management statement: records in order of transfer date, then id. Card
 * installments the acquirer has paid by today are booked first, should the daily pass not have run.
 */
export async function getManagementStatement(
  ctx: AppContext,
  institutionId: string,
  query: ManagementQuery,
): Promise<ManagementPage> {
  const cursor = cursorOf(ctx, institutionId, query);
  const after = cursor.decode(query.continuable);
  const statements = managementStatements(institutionId, query, after);
  await bookAllDueRecords(ctx.db, localDate(ctx.clock.now()), institutionId);
  const [rows, [total]] = await Promise.all([
    ctx.db.execute<ManagementRow & Record<string, unknown>>(statements.rows),
    ctx.db.execute<{ n: number }>(statements.count),
  ]);
  const page = toPage([...rows], toManagementRecord, (r) => [r.transfer_on, r.record_id], cursor.encode);
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
  await bookAllDueRecords(ctx.db, localDate(ctx.clock.now()), institutionId);
  let after: [string, string] | undefined;
  for (;;) {
    const rows = [...(await rowsAfter(ctx, institutionId, where, after, 1000))];
    if (rows.length === 0) return;
    yield rows.map(toManagementRecord);
    const last = rows[rows.length - 1]!;
    after = [last.transfer_on, last.record_id];
    if (rows.length < 1000) return;
  }
}
