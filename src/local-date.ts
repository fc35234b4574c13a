/** Business dates of the operator are Brasília dates (America/Sao_Paulo), whatever the server's zone. */
export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

const dateFormat = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** `YYYY-MM-DD` of an instant in Brasília. */
export const localDate = (at: Date): string => dateFormat.format(at);

/** True for a real calendar day written `YYYY-MM-DD` (rejects 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const y = Number(value.slice(0, 4));
  const m = Number(value.slice(5, 7));
  const d = Number(value.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = m === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  return d <= days;
}

const LOCAL_TIME = /^T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;

/** The date of a date-time without zone (or of a plain date), or undefined when it is no real date and time. */
export function datePart(value: string): string | undefined {
  const date = value.slice(0, 10);
  const time = value.slice(10);
  return isCalendarDate(date) && (time === '' || LOCAL_TIME.test(time)) ? date : undefined;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `YYYY-MM-DD` plus `days`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
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
