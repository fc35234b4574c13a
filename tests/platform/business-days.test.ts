import { describe, expect, it } from 'vitest';

import {
  businessDayBefore,
  businessDayOnOrAfter,
  dueDatesFallingDue,
  easterSunday,
  isBusinessDay,
  nationalHolidays,
} from '../../src/core/business-days.js';
import { addDays, nextBusinessDay } from '../../src/core/local-date.js';
import { useTestContext } from '../support/context.js';

describe('national holidays: the bank calendar ANBIMA publishes', () => {
  it('2026: the fixed ones, Carnival 16–17 Feb, Good Friday 3 Apr, Corpus Christi 4 Jun, 20 Nov', () => {
    expect(nationalHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-02-16',
      '2026-02-17',
      '2026-04-03',
      '2026-04-21',
      '2026-05-01',
      '2026-06-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-02',
      '2026-11-15',
      '2026-11-20',
      '2026-12-25',
    ]);
  });

  it('2027: Carnival 8–9 Feb, Good Friday 26 Mar, Corpus Christi 27 May', () => {
    expect(nationalHolidays(2027)).toEqual([
      '2027-01-01',
      '2027-02-08',
      '2027-02-09',
      '2027-03-26',
      '2027-04-21',
      '2027-05-01',
      '2027-05-27',
      '2027-09-07',
      '2027-10-12',
      '2027-11-02',
      '2027-11-15',
      '2027-11-20',
      '2027-12-25',
    ]);
  });

  it('20 November is a holiday from 2024 on (Lei 14.759/2023)', () => {
    expect(nationalHolidays(2023)).not.toContain('2023-11-20');
    expect(nationalHolidays(2024)).toContain('2024-11-20');
  });

  it.each([
    [1818, '1818-03-22'],
    [1943, '1943-04-25'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2038, '2038-04-25'],
    [2285, '2285-03-22'],
  ])('Easter Sunday %i is %s, on its earliest and latest days too', (year, easter) => {
    expect(easterSunday(year)).toBe(easter);
  });
});

describe('a term that ends on a day off moves to the next business day (Código Civil art. 132 §1)', () => {
  it.each([
    ['a Sunday', '2026-03-01', '2026-03-02'],
    ['a Saturday of Carnival', '2026-02-14', '2026-02-18'],
    ['Carnival Tuesday', '2026-02-17', '2026-02-18'],
    ['Good Friday', '2026-04-03', '2026-04-06'],
    ['Corpus Christi', '2026-06-04', '2026-06-05'],
    ['20 November 2026, a Friday', '2026-11-20', '2026-11-23'],
    ['a business day, itself', '2026-02-18', '2026-02-18'],
  ])('due on %s (%s): business due date %s', (_name, due, business) => {
    expect(businessDayOnOrAfter(due)).toBe(business);
  });

  it('the next business day of a bank slip skips weekends and holidays alike', () => {
    expect(nextBusinessDay('2026-02-13')).toBe('2026-02-18');
    expect(nextBusinessDay('2026-12-24')).toBe('2026-12-28');
    expect(nextBusinessDay('2026-03-02')).toBe('2026-03-03');
  });

  it('no more than four days in a row are off, in four centuries: Carnival, or Good Friday to Tiradentes on a Monday', () => {
    let run = 0;
    let longest = 0;
    for (let day = '1900-01-01'; day < '2300-01-01'; day = addDays(day, 1)) {
      run = isBusinessDay(day) ? 0 : run + 1;
      longest = Math.max(longest, run);
    }
    expect(longest).toBe(4);
  });

  it('the due dates of a business day are that day and the days off just before it; a day off has none', () => {
    expect(dueDatesFallingDue('2026-02-18', '2026-02-18')).toEqual({ first: '2026-02-14', last: '2026-02-18' });
    expect(dueDatesFallingDue('2026-03-02', '2026-03-02')).toEqual({ first: '2026-02-28', last: '2026-03-02' });
    const dayOff = dueDatesFallingDue('2026-02-17', '2026-02-17');
    expect(dayOff.first > dayOff.last).toBe(true);
    expect(dueDatesFallingDue('2026-02-16', '2026-02-20')).toEqual({ first: '2026-02-14', last: '2026-02-20' });
    expect(businessDayBefore('2026-02-18')).toBe('2026-02-13');
  });
});

describe('PostgreSQL keeps the same calendar (migration business_days)', () => {
  const t = useTestContext();

  /** `is_business_day` and `business_day_on_or_after` of every day from `first` to `last`. */
  const calendar = (first: string, last: string) => t.ctx.sql<{ day: string; business: boolean; onOrAfter: string }[]>`
    select d::text as day, is_business_day(d) as business, business_day_on_or_after(d)::text as "onOrAfter"
      from generate_series(0, ${last}::date - ${first}::date) as i, lateral (select ${first}::date + i as d) as days
     order by d`;

  it('business_day_on_or_after and is_business_day agree with TypeScript on every day from 2020-01-01 to 2035-12-31', async () => {
    const rows = await calendar('2020-01-01', '2035-12-31');
    expect(rows).toHaveLength(5_844);
    expect(
      rows.filter((r) => r.business !== isBusinessDay(r.day) || r.onOrAfter !== businessDayOnOrAfter(r.day)),
    ).toEqual([]);
  });

  it('and on the holidays of four centuries, Easter from its earliest (22 March) to its latest (25 April)', async () => {
    const rows = await t.ctx.sql<{ day: string }[]>`
      select d::text as day
        from generate_series(0, date '2299-12-31' - date '1900-01-01') as i, lateral (select date '1900-01-01' + i as d) as days
       where days_after_monday(d) < 5 and not is_business_day(d)
       order by d`;
    const weekday = (day: string) => ![0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
    const holidays = Array.from({ length: 400 }, (_, i) => nationalHolidays(1900 + i)).flat();
    expect(rows.map((r) => r.day)).toEqual(holidays.filter(weekday));
  });
});
