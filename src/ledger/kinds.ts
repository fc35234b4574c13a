/**
 * What an entry of the books records. The first five move money through the platform (`CASH_KINDS`):
 * a day's entries of those kinds sum to what payers paid, less what they got back, less the
 * provider's fees.
 */
export const LEDGER_KINDS = [
  /** A payer paid through the platform (for a card in installments, each installment when the acquirer pays it). */
  'PAYMENT',
  /** Given back to the payer: a refund, in full or in part. */
  'REFUND',
  /** Withdrawn by a dispute of the payer (a chargeback once lost). */
  'DISPUTE',
  /** Back to the platform: a dispute won (in full or in part), a refund that failed after it succeeded. */
  'REINSTATEMENT',
  /** The payment provider's fee for a charge, a refund or a dispute: the platform's cost. */
  'PROVIDER_FEE',
  /** A debt the institution reported it collected itself (`Pago na IES`): it owes the commission. */
  'IES_SETTLEMENT',
  /** A settlement reported by the institution and withdrawn by a later submission. */
  'IES_REVERSAL',
  /** Card installments the acquirer will no longer pay, because a refund or a dispute took more than it had paid. */
  'SCHEDULE_CUT',
  /** Guaranteed revenue of a closing, owed to the institution on one of its two transfer days. */
  'ASSIGNMENT',
] as const;

export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const CASH_KINDS: readonly LedgerKind[] = ['PAYMENT', 'REFUND', 'DISPUTE', 'REINSTATEMENT', 'PROVIDER_FEE'];

/** Kinds that take money back from a payment, or give it back: each points at the record it changes (`reversesId`). */
export const TAKE_BACK_KINDS: readonly LedgerKind[] = ['REFUND', 'DISPUTE', 'REINSTATEMENT', 'SCHEDULE_CUT'];

export type TenantKind = 'institution' | 'partner';
