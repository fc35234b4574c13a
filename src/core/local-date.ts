import { businessDayOnOrAfter } from './business-days.js';
import { parseLocalDateTime } from './dates.js';

/** Business dates of the operator are Brasília dates (America/Sao_Paulo), whatever the server's zone. */
export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

const dateFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The last minute `localDate` formatted, and its date: a date changes only on a whole minute. */
let lastMinute = NaN;
let lastDate = '';

/** `YYYY-MM-DD` of an instant in Brasília. Formatting costs tens of microseconds; every request asks for today's date. */
export function localDate(at: Date): string {
  const minute = Math.floor(at.getTime() / 60_000);
  if (minute !== lastMinute) [lastMinute, lastDate] = [minute, dateFormat.format(at)];
  return lastDate;
}

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: BUSINESS_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `YYYY-MM-DDTHH:mm:ss` of an instant in Brasília, without zone (the Institution API's `LocalDateTime`). */
export const localDateTime = (at: Date): string => `${localDate(at)}T${timeFormat.format(at)}`;

/** The date of a date-time without zone (or of a plain date), or undefined when it is no real date and time. */
export const datePart = (value: string): string | undefined => parseLocalDateTime(value);

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const FIRST_DAY = Date.parse('0001-01-01T00:00:00Z');
const LAST_DAY = Date.parse('9999-12-31T00:00:00Z');

/**
 * `YYYY-MM-DD` plus `days`, held within 0001-01-01 … 9999-12-31: stored values such as a discount a
 * billion days ahead give the first or last day instead of an invalid date that would fail every
 * page computed from them.
 */
export function addDays(date: string, days: number): string {
  const at = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  if (Number.isNaN(at)) throw new Error(`not a date plus days: ${date} + ${days}`);
  return new Date(Math.min(LAST_DAY, Math.max(FIRST_DAY, at))).toISOString().slice(0, 10);
}

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, timeZoneName: 'longOffset' });

/** Minutes Brasília is ahead of UTC at an instant (−180 today; read from the time zone database). */
function offsetMinutes(at: Date): number {
  const name = offsetFormat.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The instant a Brasília day starts. */
export function startOfLocalDay(date: string): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  return new Date(midnightUtc - offsetMinutes(new Date(midnightUtc + 12 * 3_600_000)) * 60_000);
}

/** The first business day after `date`, weekends and national holidays skipped (`business-days.ts`): 1 to 5 days ahead. */
export const nextBusinessDay = (date: string): string => businessDayOnOrAfter(addDays(date, 1));

/** The first day (`YYYY-MM-01`) of the month of a `YYYY-MM-DD` date. */
export const firstDayOfMonth = (date: string): string => `${date.slice(0, 7)}-01`;

/** The last day of the month of a `YYYY-MM-DD` date: `2026-02-10` → `2026-02-28`. */
export const lastDayOfMonth = (date: string): string =>
  addDays(firstDayOfMonth(addDays(firstDayOfMonth(date), 31)), -1);
