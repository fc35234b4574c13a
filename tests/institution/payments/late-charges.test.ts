import { describe, expect, it } from 'vitest';

import { formatCents, mulDivRound, parseCents } from '../../../src/core/money.js';
import {
  allocate,
  bestOnTimeValueCents,
  type Debt,
  PaymentTooSmall,
  quote,
  slipTerms,
} from '../../../src/institution/payments/late-charges.js';

const debt = (overrides: Partial<Debt> = {}): Debt => ({
  principalCents: 100_000,
  balanceCents: 100_000,
  dueDate: '2026-01-14',
  discounts: [],
  finePaid: false,
  interestFrom: '2026-01-14',
  ...overrides,
});

describe('late payment: 2% fine once, 1% a month interest pro rata per day (30-day months), half up to the cent', () => {
  it('R$ 1.000,00 paid 46 days late: fine 20.00, interest 15.33 (1000 × 1% × 46/30 = 15.333…), total 1035.33', () => {
    expect(quote(debt(), '2026-03-01')).toEqual({
      daysLate: 46,
      fine: 2_000,
      interest: 1_533,
      discount: 0,
      total: 103_533,
    });
  });

  it('R$ 1.250,00 paid 14 days late: fine 25.00, interest 5.83 (5.8333…), total 1280.83', () => {
    const q = quote(
      debt({ principalCents: 125_000, balanceCents: 125_000, dueDate: '2026-01-05', interestFrom: '2026-01-05' }),
      '2026-01-19',
    );
    expect([q.fine, q.interest, q.total]).toEqual([2_500, 583, 128_083]);
  });

  it('R$ 999,99 one day late: fine 20.00 (19.9998), interest 0.33 (0.33333), total 1020.32', () => {
    const q = quote(debt({ principalCents: 99_999, balanceCents: 99_999 }), '2026-01-15');
    expect([q.daysLate, q.fine, q.interest, q.total]).toEqual([1, 2_000, 33, 102_032]);
  });

  it('rounds half up: R$ 12,25 × 2% = 0.245 → 0.25', () => {
    expect(quote(debt({ principalCents: 1_225, balanceCents: 1_225 }), '2026-01-15').fine).toBe(25);
  });

  it('after a partial payment charges no second fine and interest only since that payment', () => {
    const q = quote(debt({ balanceCents: 40_000, finePaid: true, interestFrom: '2026-02-13' }), '2026-03-15');
    expect(q).toEqual({ daysLate: 60, fine: 0, interest: 400, discount: 0, total: 40_400 });
  });

  it('nothing is late on the due date itself', () => {
    expect(quote(debt(), '2026-01-14')).toEqual({ daysLate: 0, fine: 0, interest: 0, discount: 0, total: 100_000 });
  });
});

describe('lateness counts from the first business day on or after the due date (Código Civil art. 132 §1)', () => {
  const dueSunday = debt({ dueDate: '2026-03-01', interestFrom: '2026-03-01' });

  it('due on a Sunday and paid on the Monday: on time, no fine, no interest', () => {
    expect(quote(dueSunday, '2026-03-02')).toEqual({ daysLate: 0, fine: 0, interest: 0, discount: 0, total: 100_000 });
  });

  it('due on a Sunday and paid on the Tuesday: 1 day late, the fine and 1 day of interest counted from Monday', () => {
    // 1000 × 2% = 20.00; 1000 × 1% × 1/30 = 0.333… → 0.33.
    expect(quote(dueSunday, '2026-03-03')).toEqual({
      daysLate: 1,
      fine: 2_000,
      interest: 33,
      discount: 0,
      total: 102_033,
    });
  });

  it('due on Carnival Tuesday (2026-02-17) and paid on Ash Wednesday: on time', () => {
    expect(quote(debt({ dueDate: '2026-02-17' }), '2026-02-18')).toMatchObject({ daysLate: 0, fine: 0, interest: 0 });
    expect(quote(debt({ dueDate: '2026-02-17' }), '2026-02-19')).toMatchObject({ daysLate: 1, fine: 2_000 });
  });

  it('due on the Saturday before Carnival: on time until Ash Wednesday, interest from then', () => {
    expect(quote(debt({ dueDate: '2026-02-14' }), '2026-02-18').daysLate).toBe(0);
    expect(quote(debt({ dueDate: '2026-02-14' }), '2026-02-20')).toMatchObject({ daysLate: 2, interest: 67 });
  });

  it('a discount deadline stays on the due date itself: a Sunday due date’s discount ends that Sunday', () => {
    const discounted = debt({ dueDate: '2026-03-01', discounts: [{ percentual: 5, dias_desconto: 0 }] });
    expect(quote(discounted, '2026-03-01')).toMatchObject({ discount: 5_000, total: 95_000 });
    expect(quote(discounted, '2026-03-02')).toEqual({ daysLate: 0, fine: 0, interest: 0, discount: 0, total: 100_000 });
  });

  it('a bank slip issued on Friday for a Saturday due date is due on Monday, still on time', () => {
    expect(slipTerms(debt({ dueDate: '2026-02-28' }), '2026-02-27')).toEqual({
      dueDate: '2026-03-02',
      pricedFor: '2026-03-02',
    });
    expect(quote(debt({ dueDate: '2026-02-28' }), '2026-03-02').total).toBe(100_000);
  });

  it('a late bank slip issued the Friday before Carnival is due on Ash Wednesday', () => {
    expect(slipTerms(debt(), '2026-02-13')).toEqual({ dueDate: '2026-02-18', pricedFor: '2026-02-18' });
  });
});

describe('on-time discount: the best one whose deadline (dias_desconto days before the due date) has not passed', () => {
  const discounts = [
    { percentual: 10, dias_desconto: 5 },
    { percentual: 5, dias_desconto: 0 },
  ];

  it.each([
    ['2026-01-05', 10_000],
    ['2026-01-09', 10_000],
    ['2026-01-10', 5_000],
    ['2026-01-14', 5_000],
    ['2026-01-15', 0],
  ])('paid on %s: discount %i cents', (on, discount) => {
    expect(quote(debt({ discounts }), on).discount).toBe(discount);
  });

  it('valor_adimplencia is the principal less the best discount of all', () => {
    expect(bestOnTimeValueCents(125_000, discounts)).toBe(112_500);
    expect(bestOnTimeValueCents(125_000, [])).toBe(125_000);
  });

  it('takes fractional percentages exactly: 7.5% of R$ 1.333,33 = 99.99975 → 100.00', () => {
    expect(bestOnTimeValueCents(133_333, [{ percentual: 7.5, dias_desconto: 0 }])).toBe(123_333);
  });

  it('gives no discount once part of the principal was paid', () => {
    expect(quote(debt({ discounts, balanceCents: 50_000 }), '2026-01-05').discount).toBe(0);
  });
});

describe('allocation of a payment', () => {
  it('paying the quote settles the whole balance with its fine and interest', () => {
    expect(allocate(debt(), '2026-03-01', 103_533)).toEqual({
      received: 103_533,
      excess: 0,
      principal: 100_000,
      fine: 2_000,
      interest: 1_533,
      discount: 0,
      remaining: 0,
    });
  });

  it('a partial payment pays the late charges first, then principal, and earns no discount', () => {
    expect(allocate(debt(), '2026-03-01', 60_000)).toEqual({
      received: 60_000,
      excess: 0,
      principal: 56_467,
      fine: 2_000,
      interest: 1_533,
      discount: 0,
      remaining: 43_533,
    });
  });

  it('keeps no more than the quote: what a payment brings beyond it is the excess, to be given back', () => {
    expect(allocate(debt(), '2026-03-01', 110_000)).toMatchObject({ received: 103_533, excess: 6_467, remaining: 0 });
  });

  it('refuses a partial payment that does not cover the late charges', () => {
    expect(() => allocate(debt(), '2026-03-01', 3_533)).toThrow(PaymentTooSmall);
  });
});

describe('a bank slip is due the next business day, priced for its due date', () => {
  it('late: due the next business day (a Friday’s on Monday) and asks the interest to that day', () => {
    expect(slipTerms(debt(), '2026-02-25')).toEqual({ dueDate: '2026-02-26', pricedFor: '2026-02-26' });
    expect(slipTerms(debt(), '2026-02-27')).toEqual({ dueDate: '2026-03-02', pricedFor: '2026-03-02' });
    expect(slipTerms(debt(), '2026-02-28')).toEqual({ dueDate: '2026-03-02', pricedFor: '2026-03-02' });
  });

  it('on time: never past the installment’s due date, when the fine would start', () => {
    expect(slipTerms(debt({ dueDate: '2026-03-10' }), '2026-03-06')).toEqual({
      dueDate: '2026-03-09',
      pricedFor: '2026-03-09',
    });
    expect(slipTerms(debt({ dueDate: '2026-03-10' }), '2026-03-10')).toEqual({
      dueDate: '2026-03-10',
      pricedFor: '2026-03-10',
    });
  });

  it('on the last day of a discount: due that day, so the discount is kept', () => {
    const discounted = debt({ dueDate: '2026-03-10', discounts: [{ percentual: 10, dias_desconto: 5 }] });
    expect(slipTerms(discounted, '2026-03-05')).toEqual({ dueDate: '2026-03-05', pricedFor: '2026-03-05' });
    expect(quote(discounted, '2026-03-05').discount).toBe(10_000);
  });
});

describe('money in integer cents', () => {
  it('parses decimal strings digit by digit and formats them back', () => {
    expect(parseCents('1250')).toBe(125_000);
    expect(parseCents('1250.5')).toBe(125_050);
    expect(parseCents('0.07')).toBe(7);
    expect([parseCents('1250,00'), parseCents('12.345'), parseCents('-5'), parseCents('1e3')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(formatCents(125_050)).toBe('1250.50');
  });

  it('stays exact beyond 2^53 intermediate products', () => {
    // 99,999,999,999,999 × 123,456 / 10,000,000 = 1,234,559,999,999.9876… → 1,234,560,000,000
    expect(mulDivRound(99_999_999_999_999, 123_456n, 10_000_000n)).toBe(1_234_560_000_000);
    expect(mulDivRound(99_999_999_999_999, 1n, 2n)).toBe(50_000_000_000_000);
  });
});
