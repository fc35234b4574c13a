import { ApiError } from '../../core/errors.js';
import { addDays } from '../../core/local-date.js';

/** Commission of the operator when the partner has no contract for the sale's product type. (Default: 8) */
export const DEFAULT_COMMISSION_PERCENTAGE = 8;

/** Day of the month the operator transfers (TED) the cleared payments to partners. */
export const TRANSFER_DAY = 15;

/** The commission on an amount at a percentage, rounded half up to a cent. */
export const commissionOf = (cents: number, percentage: number): number => Math.floor((cents * percentage + 50) / 100);

/** `YYYY-MM-DD` plus whole months, the day held within the month (Jan 31 + 1 month = Feb 28). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/**
 * When a payment clears: Pix the same day, bank slips the next day, a card installment on its due
 * date (the acquirer pays one a month) but never before the day after the charge.
 */
export function expectedCompensation(method: string, paidOn: string, dueOn: string): string {
  if (method === 'pix') return paidOn;
  const next = addDays(paidOn, 1);
  if (method === 'creditCard') return next > dueOn ? next : dueOn;
  return next;
}

/** The transfer of a cleared payment: the first transfer day on or after it clears. */
export function expectedTransfer(compensatedOn: string): string {
  const [y, m, d] = compensatedOn.split('-').map(Number) as [number, number, number];
  const thisMonth = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${TRANSFER_DAY}`;
  return d <= TRANSFER_DAY ? thisMonth : addMonths(thisMonth, 1);
}

/** A price split in `n` installments in cents, the remainder on the first. */
export function splitEvenly(cents: number, n: number): number[] {
  const base = Math.floor(cents / n);
  return Array.from({ length: n }, (_, i) => (i === 0 ? cents - base * (n - 1) : base));
}

export class ReceiptNotFound extends ApiError {
  constructor() {
    super(400, 'RECEIPT-001', 'Receipt not found');
  }
}

export class InstallmentNotFound extends ApiError {
  constructor(saleId: number, number: number) {
    super(400, 'RECEIPT-002', `Receipt ${saleId} has no installment ${number}`);
  }
}

export class InstallmentAlreadyPaid extends ApiError {
  constructor(saleId: number, number: number) {
    super(400, 'RECEIPT-003', `Installment ${number} of receipt ${saleId} is already paid`);
  }
}

export class ReceiptCancelled extends ApiError {
  constructor(saleId: number) {
    super(400, 'RECEIPT-004', `Receipt ${saleId} was cancelled or charged back; it takes no more payments`);
  }
}

export class NoTransferDue extends ApiError {
  constructor(saleId: number, number: number) {
    super(
      400,
      'RECEIPT-005',
      `Installment ${number} of receipt ${saleId} has no transfer waiting: it is unpaid or already transferred`,
    );
  }
}

export class CommissionOutOfRange extends ApiError {
  constructor(percentage: unknown) {
    super(400, 'RECEIPT-006', `A commission percentage is a whole number from 0 to 100, got ${String(percentage)}`);
  }
}

export class BadLedgerDate extends ApiError {
  constructor(field: string) {
    super(400, 'RECEIPT-007', `${field} must be a date AAAA-MM-DD`);
  }
}

export class BadRenegotiation extends ApiError {
  constructor(message: string) {
    super(400, 'RECEIPT-012', message);
  }
}

export class NothingToRenegotiate extends ApiError {
  constructor(saleId: number) {
    super(400, 'RECEIPT-013', `Receipt ${saleId} has no unpaid installment to renegotiate`);
  }
}

export class InstallmentRenegotiated extends ApiError {
  constructor(saleId: number, number: number) {
    super(
      400,
      'RECEIPT-014',
      `Installment ${number} of receipt ${saleId} was replaced by a renegotiation; pay the agreement's installments`,
    );
  }
}

/** Most installments a renegotiation may spread the amount owed over. (Default: 60) */
export const MAX_AGREEMENT_INSTALLMENTS = 60;
