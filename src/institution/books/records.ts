import { addDays, firstDayOfMonth } from '../../core/local-date.js';
import type { LedgerEntry, NewEntry } from '../../ledger/book.js';
import type { Amounts } from '../../ledger/shares.js';
import type { FrozenTerms } from './terms.js';

/**
 * The entries of an installment's money: what each repeats (the installment, the payment, the
 * frozen terms) and what makes one a record of the management statement.
 */

/** The management statement's names of a payment's means (`meio_pagamento`). */
export const MEANS: Record<string, string> = { PIX: 'PIX', BOLETO: 'BOLETO', CARD: 'CARTAO_DE_CREDITO' };

/** A management record goes to the institution; a guaranteed one is the operator's own money. */
export const isManaged = (product: string | null) => product === 'Gestão';

/** The id of a payment's record n of m: the payment's id, `:n` after it for a card in installments. */
export const paymentRecordId = (paymentId: string, n: number, m: number) => (m > 1 ? `${paymentId}:${n}` : paymentId);

/** What every entry of an installment's payment repeats: who, what installment, which terms. */
export interface RecordContext {
  institutionId: string;
  installmentId: string;
  product: string;
  externalId: string;
  dueOn: string;
  installmentPrincipalCents: number;
  paymentId: string;
  chargeId: string;
  means: string;
  card: boolean;
  terms: Omit<FrozenTerms, 'transferDelayDays'>;
}

/** The transfer of money that moved on `movedOn`: its day plus the contract's delay, never a day already past. */
export function transferDay(movedOn: string, delayDays: number, today: string): string {
  const due = addDays(movedOn, delayDays);
  return due < today ? today : due;
}

/** An entry of the installment's books with its figures. */
export function installmentEntry(
  context: RecordContext,
  entry: Pick<
    NewEntry,
    'kind' | 'recordId' | 'movedOn' | 'transferOn' | 'cause' | 'reversesId' | 'settlement' | 'refundId' | 'disputeRef'
  > & {
    amounts: Amounts;
    n: number;
    m: number;
    onStatement: boolean;
  },
): NewEntry {
  const a = entry.amounts;
  const managed = isManaged(context.product);
  return {
    tenantKind: 'institution',
    tenantId: context.institutionId,
    kind: entry.kind,
    recordId: entry.recordId,
    statement: managed && entry.onStatement ? 'gestao' : null,
    amountCents: a.amount,
    commissionCents: a.commission,
    netCents: a.net,
    principalCents: a.principal,
    fineCents: a.fine,
    interestCents: a.interest,
    discountCents: a.discount,
    movedOn: entry.movedOn,
    transferOn: managed ? entry.transferOn : null,
    commissionPercent: managed ? context.terms.commissionPercent : null,
    allocation: context.terms.allocation,
    managementType: context.terms.managementType,
    product: context.product,
    externalId: context.externalId,
    dueOn: context.dueOn,
    dueMonth: firstDayOfMonth(context.dueOn),
    installmentPrincipalCents: context.installmentPrincipalCents,
    settlement: entry.settlement ?? null,
    means: context.means,
    cardInstallment: context.card ? entry.n : null,
    cardInstallments: context.card ? entry.m : null,
    reversesId: entry.reversesId ?? null,
    cause: entry.cause,
    installmentId: context.installmentId,
    paymentId: context.paymentId,
    chargeId: context.chargeId,
    refundId: entry.refundId ?? null,
    disputeRef: entry.disputeRef ?? null,
  };
}

export const amountsOf = (e: LedgerEntry): Amounts => ({
  amount: e.amountCents,
  commission: e.commissionCents,
  net: e.netCents,
  principal: e.principalCents,
  fine: e.fineCents,
  interest: e.interestCents,
  discount: e.discountCents,
});
