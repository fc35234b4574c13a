import { eq } from 'drizzle-orm';

import { formatCents } from '../../core/money.js';
import type { Queryable } from '../../db/client.js';
import { type installmentPayments, installments } from '../../db/schema/index.js';
import type { LedgerEntry } from '../../ledger/book.js';
import type { Charge } from '../../payments/provider.js';
import { installmentIds, owed } from './installment-facts.js';
import { type EventOptions, recordEvents } from './store.js';

type Payment = typeof installmentPayments.$inferSelect;

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
