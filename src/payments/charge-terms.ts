import { addDays, daysBetween, localDate, startOfLocalDay } from '../core/local-date.js';

/**
 * How long a charge can be paid. A charge quotes the amount owed on the Brasília day it is priced
 * for; its payment settles as of that day whenever the provider confirms it, so its life may cross
 * midnight without changing what it asks.
 */

/** The instant a Brasília day ends (the next day starts). */
export const endOfLocalDay = (date: string): Date => startOfLocalDay(addDays(date, 1));

/** A Pix lives at least this long, even one made at 23:58. */
export const PIX_MIN_LIFETIME_MS = 30 * 60_000;

/** A Pix can be paid until the end of its day, and never for less than half an hour. */
export const pixExpiry = (now: Date): Date =>
  new Date(Math.max(endOfLocalDay(localDate(now)).getTime(), now.getTime() + PIX_MIN_LIFETIME_MS));

/** A card session quotes its day too, and is closed at its end, half an hour at least after it opened. */
export const cardSessionExpiry = pixExpiry;

/** Days from `today` to a bank slip's due date (the provider makes it payable until 23:59 of that day). */
export const slipDays = (today: string, dueDate: string | undefined): number =>
  dueDate ? Math.max(0, daysBetween(today, dueDate)) : 0;
