import { businessDayOnOrAfter } from '../../core/business-days.js';
import { ApiError } from '../../core/errors.js';
import { addDays, daysBetween, nextBusinessDay } from '../../core/local-date.js';
import { mulDivRound, percentFraction } from '../../core/money.js';
import { DAYS_PER_MONTH, LATE_FINE_PERCENT, LATE_INTEREST_PERCENT_PER_MONTH } from '../vocabularies.js';

/** An on-time discount as submitted: `percentual` off when paid `dias_desconto` days before the due date or earlier. */
export interface OnTimeDiscount {
  percentual?: number;
  dias_desconto?: number;
}

/** What is owed on an installment, in cents, and what earlier platform payments already covered. */
export interface Debt {
  principalCents: number;
  /** Principal still owed. */
  balanceCents: number;
  dueDate: string;
  discounts: OnTimeDiscount[];
  /** The late fine was charged by an earlier payment: it is charged once. */
  finePaid: boolean;
  /** Interest accrues from this date (the due date, or the last platform payment) or the business due date, the later. */
  interestFrom: string;
}

export interface Quote {
  daysLate: number;
  fine: number;
  interest: number;
  discount: number;
  /** Balance + fine + interest − discount. */
  total: number;
}

const discountCents = (cents: number, percent: number) => {
  const { numerator, denominator } = percentFraction(percent);
  return mulDivRound(cents, numerator, denominator);
};

/** Principal less the best on-time discount of all (what `valor_adimplencia` shows). */
export function bestOnTimeValueCents(principalCents: number, discounts: OnTimeDiscount[]): number {
  const best = Math.max(0, ...discounts.map((d) => d.percentual ?? 0));
  return principalCents - discountCents(principalCents, best);
}

/**
 * What paying the whole balance on `on` costs. Late (after the business due date: the due date, or
 * the first business day after it when it is a day off, Código Civil art. 132 §1): a 2% fine on
 * the balance, once, and 1% a month interest pro rata per day (30-day months) since the business
 * due date or the last payment. On time: the best discount whose deadline (`dias_desconto` days
 * before the due date itself, which a day off does not move) has not passed, only while nothing
 * of the principal was paid. Amounts round half up to the cent.
 */
export function quote(debt: Debt, on: string): Quote {
  const businessDue = businessDayOnOrAfter(debt.dueDate);
  const daysLate = Math.max(0, daysBetween(businessDue, on));
  if (daysLate > 0) {
    const interestStart = debt.interestFrom > businessDue ? debt.interestFrom : businessDue;
    const interestDays = BigInt(Math.max(0, daysBetween(interestStart, on)));
    const fine = debt.finePaid ? 0 : mulDivRound(debt.balanceCents, LATE_FINE_PERCENT, 100n);
    const interest = mulDivRound(
      debt.balanceCents,
      LATE_INTEREST_PERCENT_PER_MONTH * interestDays,
      100n * DAYS_PER_MONTH,
    );
    return { daysLate, fine, interest, discount: 0, total: debt.balanceCents + fine + interest };
  }
  const untouched = debt.balanceCents === debt.principalCents;
  const applicable = debt.discounts.filter((d) => on <= addDays(debt.dueDate, -(d.dias_desconto ?? 0)));
  const best = untouched ? Math.max(0, ...applicable.map((d) => d.percentual ?? 0)) : 0;
  const discount = discountCents(debt.balanceCents, best);
  return { daysLate: 0, fine: 0, interest: 0, discount, total: debt.balanceCents - discount };
}

export class PaymentTooSmall extends ApiError {
  constructor(receivedCents: number, chargesCents: number) {
    super(
      400,
      'PAYMENT-002',
      `A partial payment must cover the late charges (${chargesCents} cents) and part of the principal; got ${receivedCents} cents`,
    );
  }
}

/** How one payment splits, in cents. */
export interface Allocation {
  /** What the payment settles: at most what was owed. */
  received: number;
  /** What it brought beyond that, to be given back. */
  excess: number;
  principal: number;
  fine: number;
  interest: number;
  discount: number;
  /** Principal still owed afterwards. */
  remaining: number;
}

/**
 * Splits a payment of `receivedCents` priced for `on`. Paying at least the quote settles the whole
 * balance (with the quote's fine, interest and discount), and what exceeds the quote is not kept.
 * Less is a partial payment: it earns no discount, pays the late charges first and the rest
 * reduces the principal.
 */
export function allocate(debt: Debt, on: string, receivedCents: number): Allocation {
  const q = quote(debt, on);
  if (receivedCents >= q.total) {
    return {
      received: q.total,
      excess: receivedCents - q.total,
      principal: debt.balanceCents,
      fine: q.fine,
      interest: q.interest,
      discount: q.discount,
      remaining: 0,
    };
  }
  const charges = q.fine + q.interest;
  if (receivedCents <= charges) throw new PaymentTooSmall(receivedCents, charges);
  const principal = receivedCents - charges;
  return {
    received: receivedCents,
    excess: 0,
    principal,
    fine: q.fine,
    interest: q.interest,
    discount: 0,
    remaining: debt.balanceCents - principal,
  };
}

/**
 * When a bank slip issued `today` is due, and the day it is priced for (the same day). Late, it is
 * due the next business day and asks what is owed then (the interest of the days to it included).
 * On time, it stays due while its amount holds: never past the installment's business due date or
 * a discount deadline (a slip issued on the last day of a discount keeps the discount, due that day).
 */
export function slipTerms(debt: Debt, today: string): { dueDate: string; pricedFor: string } {
  const target = nextBusinessDay(today);
  if (quote(debt, today).daysLate > 0) return { dueDate: target, pricedFor: target };
  const total = quote(debt, today).total;
  let due = today;
  while (due < target && quote(debt, addDays(due, 1)).total === total) due = addDays(due, 1);
  return { dueDate: due, pricedFor: due };
}
