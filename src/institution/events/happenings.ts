import { sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { type installmentPayments, installments } from '../../db/schema/index.js';
import type { Charge } from '../../payments/provider.js';
import { MEANS } from '../books/records.js';
import { installmentIds, owed } from './installment-facts.js';
import { type EventOptions, recordEvents } from './store.js';

type Installment = typeof installments.$inferSelect;
type Payment = typeof installmentPayments.$inferSelect;

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
