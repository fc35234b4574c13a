/**
 * Bank business days in Brazil: not a Saturday, not a Sunday, not a national holiday. A term that
 * ends on another day moves to the next business day (Código Civil, art. 132 §1), so an installment
 * is late only from the day after `businessDayOnOrAfter(dueDate)`.
 *
 * The holidays are those of the national bank calendar ANBIMA publishes: the fixed ones of
 * Lei 662/1949 as Lei 10.607/2002 wrote them (01-01, 04-21, 05-01, 09-07, 11-02, 11-15, 12-25),
 * of Lei 6.802/1980 (10-12) and of Lei 14.759/2023 (11-20, from 2024 on); and the ones that move
 * with Easter, on which banks do not open: Carnival Monday and Tuesday, Good Friday (Lei 9.093/1995)
 * and Corpus Christi. State and city holidays are left out: a due date means the same for every
 * payer wherever they pay.
 *
 * PostgreSQL holds the same calendar (`business_day_on_or_after`, migration `business_days`),
 * because `dias_atraso` is computed and filtered there; a test compares the two day by day.
 */

const DAY_MS = 86_400_000;

const FIXED_HOLIDAYS = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '12-25'];
/** Zumbi and Black Consciousness Day, national since Lei 14.759/2023. */
const BLACK_CONSCIOUSNESS = { day: '11-20', since: 2024 };
/** Days from Easter Sunday: Carnival Monday and Tuesday, Good Friday, Corpus Christi. */
const FROM_EASTER = [-48, -47, -2, 60];

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
const year4 = (year: number): string => String(year).padStart(4, '0');

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const div = (n: number, d: number) => Math.floor(n / d);
  const a = year % 19;
  const b = div(year, 100);
  const c = year % 100;
  const h = (19 * a + b - div(b, 4) - div(b - div(b + 8, 25) + 1, 3) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * div(c, 4) - h - (c % 4)) % 7;
  const m = div(a + 11 * h + 22 * l, 451);
  const month = div(h + l - 7 * m + 114, 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year4(year)}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const holidaysByYear = new Map<number, ReadonlySet<string>>();

/** The national holidays of a year, `YYYY-MM-DD`, in calendar order. */
export function nationalHolidays(year: number): string[] {
  const easter = dayNumber(easterSunday(year));
  const fixed = [...FIXED_HOLIDAYS, ...(year >= BLACK_CONSCIOUSNESS.since ? [BLACK_CONSCIOUSNESS.day] : [])];
  // Good Friday is Tiradentes (21 April) in some years: one holiday.
  const days = new Set([...fixed.map((day) => `${year4(year)}-${day}`), ...FROM_EASTER.map((n) => dateOf(easter + n))]);
  return [...days].sort();
}

function holidaysOf(year: number): ReadonlySet<string> {
  let holidays = holidaysByYear.get(year);
  if (!holidays) holidaysByYear.set(year, (holidays = new Set(nationalHolidays(year))));
  return holidays;
}

/** Whether banks open on a `YYYY-MM-DD` day. */
export function isBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidaysOf(Number(date.slice(0, 4))).has(date);
}

/** The day itself when it is a business day, else the first business day after it (at most 4 days on). */
export function businessDayOnOrAfter(date: string): string {
  let day = dayNumber(date);
  while (!isBusinessDay(dateOf(day))) day += 1;
  return dateOf(day);
}

/** The last business day before `date` (at most 5 days back). */
export function businessDayBefore(date: string): string {
  let day = dayNumber(date) - 1;
  while (!isBusinessDay(dateOf(day))) day -= 1;
  return dateOf(day);
}

/**
 * The due dates whose business due date lies within `from` … `to`, as the range `first` … `last`
 * of due dates (empty when `first` is after `last`): a range the due-date index reads. The due
 * dates of one business day are that day and the days off just before it; a day that is not a
 * business day is no due date's business due date.
 */
export function dueDatesFallingDue(from: string, to: string): { first: string; last: string } {
  return { first: dateOf(dayNumber(businessDayBefore(from)) + 1), last: businessDayBefore(dateOf(dayNumber(to) + 1)) };
}
