/**
 * The one reading of dates sent to this service. It accepts what the contracts' `format: date` and
 * `format: date-time` allow (RFC 3339) and only what PostgreSQL stores as written: years 0001–9999
 * (PostgreSQL has no year 0 and JavaScript dates drift past 9999), real calendar days, no leap
 * second (`:60`, which PostgreSQL refuses), offsets within ±14:00 (the widest any zone uses).
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const LOCAL_TIME = /^T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;

/** Longest offset from UTC accepted, minutes (UTC+14:00, Line Islands; UTC−12:00 is within it). */
const MAX_OFFSET_MINUTES = 14 * 60;

/** True for a real calendar day `YYYY-MM-DD` of years 0001–9999 (rejects 2026-02-30 and 0000-01-01). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = m === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  return d <= days;
}

/** `YYYY-MM-DD` of a `format: date` value, or undefined when it is no storable day. */
export const parseDate = (value: unknown): string | undefined =>
  typeof value === 'string' && isCalendarDate(value) ? value : undefined;

/** The instant of a `format: date-time` value (RFC 3339 with `Z` or an offset), or undefined. */
export function parseDateTime(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DATE_TIME.exec(value);
  if (!match || !isCalendarDate(match[1]!)) return undefined;
  if (match[7] && Number(match[9]) > 59) return undefined;
  if (match[7] && Number(match[8]) * 60 + Number(match[9]) > MAX_OFFSET_MINUTES) return undefined;
  const at = new Date(value.toUpperCase());
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * The date of a date-time without zone `YYYY-MM-DDTHH:mm[:ss[.SSS]]`, or of a plain date (the
 * institution contract's `LocalDateTime`), or undefined when it is no real, storable date and time.
 */
export function parseLocalDateTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const date = value.slice(0, 10);
  const time = value.slice(10);
  return isCalendarDate(date) && (time === '' || LOCAL_TIME.test(time)) ? date : undefined;
}

/**
 * The day a date filter names: the calendar date written first, whatever follows it. Accepted: a
 * date, a date-time without zone, or one with `Z` or an offset (a `+` sent unencoded in a query
 * arrives as a space and is read as `+`); the time and zone must be real but are not used.
 */
export function parseFilterDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const local = parseLocalDateTime(value);
  if (local) return local;
  const zoned = value.replace(/ (\d{2}:\d{2})$/, '+$1');
  return parseDateTime(zoned) ? zoned.slice(0, 10) : undefined;
}

/** Format checks for the contracts' validator: the same reading as the code's. */
export const DATE_FORMATS = {
  date: (value: string) => parseDate(value) !== undefined,
  'date-time': (value: string) => parseDateTime(value) !== undefined,
} as const;
