import { eq, sql } from 'drizzle-orm';

import { formatCents } from '../../core/money.js';
import type { Queryable } from '../../db/client.js';
import { type installmentPayments, installments } from '../../db/schema/index.js';
import type { LedgerEntry } from '../../ledger/book.js';
import type { Charge } from '../../payments/provider.js';
import { type EventOptions, recordEvents } from './store.js';

type Installment = typeof installments.$inferSelect;
type Payment = typeof installmentPayments.$inferSelect;

/** The ids an institution's system already keeps of an installment. */
const installmentIds = (i: Installment) => ({
  parcela_id: i.id,
  id_externo: i.externalId ?? '',
  aluno_cpf: i.studentCpf,
  data_vencimento: i.dueDate,
  produto: i.product,
});

/** The management statement's names of a payment's means (`meio_pagamento`). */
const MEANS: Record<string, string> = { PIX: 'PIX', BOLETO: 'BOLETO', CARD: 'CARTAO_DE_CREDITO' };

/**
 * A payment applied to an installment (`parcelaPaga` when it settled the installment,
 * `parcelaPagaParcialmente` otherwise): the figures the management statement shows of it, the
 * parts of the payment as recorded, and what the installment still owes.
 */
export async function paymentApplied(
  tx: Queryable,
  installment: Installment,
  payment: Payment,
  charge: Charge,
  at: Date,
  options: EventOptions,
): Promise<void> {
  const remaining = await owed(tx, installment.id);
  await recordEvents(
    tx,
    installment.institutionId,
    [
      {
        name: remaining.status === 'PAGO' ? 'parcelaPaga' : 'parcelaPagaParcialmente',
        subject: payment.chargeId,
        dados: {
          ...installmentIds(installment),
          pagamento_id: payment.id,
          cobranca_id: charge.id,
          tipo_pagamento: 'Pago na Plataforma',
          meio_pagamento: MEANS[payment.method] ?? payment.method,
          parcelas_cartao: charge.card?.installments ?? null,
          data_recebimento: payment.receivedOn,
          data_pagamento: payment.paidOn,
          valor_recebido_total: payment.received,
          valor_recebido_principia: payment.principal,
          valor_juros: payment.interest,
          valor_multa: payment.fine,
          valor_desconto: payment.discount,
          situacao: remaining.status,
          saldo_devedor: remaining.balance,
        },
      },
    ],
    at,
    options,
  );
}

async function owed(tx: Queryable, installmentId: string): Promise<{ status: string; balance: string }> {
  const [row] = await tx.execute<{ status: string; balance: string }>(sql`
    select status, balance::text as balance from installments where id = ${installmentId}::uuid`);
  return row!;
}

/** The statement's figures of a record of the books, under the statement's own names. */
function recordFigures(e: LedgerEntry) {
  return {
    liquidacao_gestao_id: e.recordId,
    tipo_liquidacao: LIQUIDATION_KINDS[e.kind] ?? e.kind,
    data_recebimento: e.movedOn,
    valor_recebido_total: formatCents(e.amountCents),
    comissao_valor: formatCents(e.commissionCents),
    valor_repasse: formatCents(e.netCents),
    data_repasse: e.transferOn,
    ...(e.cardInstallment ? { cartao_de_credito_parcelamento: `${e.cardInstallment}/${e.cardInstallments}` } : {}),
  };
}

const LIQUIDATION_KINDS: Record<string, string> = {
  REFUND: 'ESTORNO',
  DISPUTE: 'CONTESTACAO',
  REINSTATEMENT: 'RESTABELECIMENTO',
};

/**
 * One event per record of the management statement a move booked (a payment of a card in
 * installments may have several), with the record's figures; one without figures when the move
 * booked no such record (an installment of guaranteed revenue, card installments not yet paid).
 */
async function moveEvents(
  tx: Queryable,
  name: 'pagamentoEstornado' | 'pagamentoRestabelecido',
  payment: Payment,
  charge: Charge,
  entries: readonly LedgerEntry[],
  extra: Record<string, string>,
  at: Date,
  options: EventOptions,
): Promise<void> {
  const [installment] = await tx.select().from(installments).where(eq(installments.id, payment.installmentId));
  const remaining = await owed(tx, payment.installmentId);
  const base = {
    ...installmentIds(installment!),
    pagamento_id: payment.id,
    cobranca_id: charge.id,
    ...extra,
    situacao: remaining.status,
    saldo_devedor: remaining.balance,
  };
  const records = entries.filter((e) => e.statement !== null);
  const total = entries.reduce((sum, e) => sum + Math.abs(e.amountCents), 0);
  const drafts =
    records.length > 0
      ? records.map((e) => ({
          name,
          subject: e.recordId,
          dados: { ...base, valor: formatCents(Math.abs(e.amountCents)), ...recordFigures(e) },
        }))
      : [{ name, subject: `${payment.id}/${entries[0]!.cause}`, dados: { ...base, valor: formatCents(total) } }];
  await recordEvents(tx, installment!.institutionId, drafts, at, options);
}

/** Money of a payment taken back (`pagamentoEstornado`): refunded, or withdrawn by a dispute. */
export const moneyTakenBack = (
  tx: Queryable,
  payment: Payment,
  charge: Charge,
  kind: 'REFUND' | 'DISPUTE',
  entries: readonly LedgerEntry[],
  at: Date,
  options: EventOptions,
) =>
  moveEvents(
    tx,
    'pagamentoEstornado',
    payment,
    charge,
    entries,
    { motivo: kind === 'REFUND' ? 'ESTORNO' : charge.status === 'CHARGED_BACK' ? 'CHARGEBACK' : 'CONTESTACAO' },
    at,
    options,
  );

/** Money taken back that came back (`pagamentoRestabelecido`): a dispute won, a refund that failed. */
export const moneyCameBack = (
  tx: Queryable,
  payment: Payment,
  charge: Charge,
  entries: readonly LedgerEntry[],
  at: Date,
  options: EventOptions,
) => moveEvents(tx, 'pagamentoRestabelecido', payment, charge, entries, {}, at, options);

/**
 * A batch finished (`loteProcessado`), with where its item errors are read; for a batch of
 * installments, each installment it cancelled (`parcelaCancelada`), found through the
 * institution's status index (the cancelled ones only, not the whole history).
 */
export async function batchFinished(
  tx: Queryable,
  batchId: string,
  apiBaseUrl: string,
  at: Date,
  options: EventOptions,
): Promise<void> {
  const [batch] = await tx.execute<{
    institution_id: string;
    kind: string;
    status: string;
    item_count: number;
    error_count: number;
    created_at: Date;
    finished_at: Date;
  }>(sql`select institution_id::text, kind, status, item_count, error_count, created_at, finished_at
           from batches where id = ${batchId}::uuid`);
  if (!batch) return;
  const cancelled =
    batch.kind === 'parcela'
      ? await tx.execute<{
          id: string;
          external_id: string | null;
          student_cpf: string;
          due_date: string;
          product: string;
        }>(sql`
          select id::text, external_id, student_cpf, due_date::text, product from installments
           where institution_id = ${batch.institution_id}::uuid and status = 'CANCELADO_IES' and batch_id = ${batchId}::uuid
           order by item_index`)
      : [];
  await recordEvents(
    tx,
    batch.institution_id,
    [
      {
        name: 'loteProcessado',
        subject: batchId,
        dados: {
          lote_id: batchId,
          tipo: batch.kind,
          status: batch.status,
          quantidade: batch.item_count,
          aceitos: batch.item_count - batch.error_count,
          erros: batch.error_count,
          criadoEm: new Date(batch.created_at).toISOString(),
          finalizadoEm: new Date(batch.finished_at).toISOString(),
          relatorioErros: `${apiBaseUrl}/v1/lotes/${batchId}/erros`,
        },
      },
      ...[...cancelled].map((i) => ({
        name: 'parcelaCancelada' as const,
        subject: `${i.id}:${batchId}`,
        dados: {
          parcela_id: i.id,
          id_externo: i.external_id ?? '',
          aluno_cpf: i.student_cpf,
          data_vencimento: i.due_date,
          produto: i.product,
          lote_id: batchId,
        },
      })),
    ],
    at,
    options,
  );
}
