import { addDays } from '../../core/local-date.js';
import { mulDivRound, percentFraction } from '../../core/money.js';
import type { Amounts } from '../../ledger/shares.js';
import { liquidationRecords, type PaymentAmounts } from './liquidation.rules.js';

/** Days between the acquirer's payments of a card in installments: it pays one a month. */
export const CARD_INSTALLMENT_DAYS = 30;

/** A record of a payment in the books: card installment n of m (1 of 1 for anything else). */
export interface PlannedRecord {
  n: number;
  m: number;
  /** The day the money arrives: the payment's for the first, 30 days more for each card installment after it. */
  movedOn: string;
  amounts: Amounts;
}

/** `cents` at a percentage written as decimal text (`8.50`), rounded half up to the cent. */
export function commissionAt(cents: number, percent: string): number {
  const { numerator, denominator } = percentFraction(Number(percent));
  return mulDivRound(cents, numerator, denominator);
}

/**
 * The records of one payment (see `liquidationRecords` for how its parts split), each with the
 * commission of `commissionPercent` on what it received. A payment of an installment the operator
 * guaranteed (`Receita Garantida`) is the operator's own money: no commission, nothing to transfer.
 */
export function plannedRecords(
  payment: PaymentAmounts,
  m: number,
  receivedOn: string,
  commissionPercent: string,
  toInstitution: boolean,
): PlannedRecord[] {
  return liquidationRecords(payment, m).map((parts, i) => {
    const commission = toInstitution ? commissionAt(parts.received, commissionPercent) : 0;
    return {
      n: i + 1,
      m,
      movedOn: addDays(receivedOn, CARD_INSTALLMENT_DAYS * i),
      amounts: {
        amount: parts.received,
        commission,
        net: toInstitution ? parts.received - commission : 0,
        principal: parts.principal,
        fine: parts.fine,
        interest: parts.interest,
        discount: parts.discount,
      },
    };
  });
}
