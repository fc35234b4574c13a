import type { components } from '../../../generated/partner.js';

type WebhookCheckout = components['schemas']['WebhookCheckout'];
type CheckoutDateKey = 'createdAt' | 'updatedAt' | 'canceledAt' | 'madeEffectiveAt';

/** The instants of a sale that an event payload carries. */
export interface SaleDates {
  createdAt: Date;
  updatedAt: Date;
  canceledAt: Date | null;
  madeEffectiveAt: Date | null;
}

const brasiliaParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * The documented quirk of the checkout dates: Brasília wall-clock time written with a `Z`
 * (receivers add 3 hours to get UTC).
 */
export function brasiliaWithZ(at: Date): string {
  const p = Object.fromEntries(brasiliaParts.formatToParts(at).map((part) => [part.type, part.value]));
  const ms = String(at.getUTCMilliseconds()).padStart(3, '0');
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${ms}Z`;
}

/**
 * The four checkout dates, each as the contract writes it (Brasília time with `Z`) followed by its
 * honest UTC twin (`…Utc`), which a generic client's `new Date()` reads right.
 */
export function checkoutDates(dates: SaleDates): Pick<WebhookCheckout, CheckoutDateKey | `${CheckoutDateKey}Utc`> {
  return {
    createdAt: brasiliaWithZ(dates.createdAt),
    createdAtUtc: dates.createdAt.toISOString(),
    updatedAt: brasiliaWithZ(dates.updatedAt),
    updatedAtUtc: dates.updatedAt.toISOString(),
    canceledAt: dates.canceledAt ? brasiliaWithZ(dates.canceledAt) : null,
    canceledAtUtc: dates.canceledAt ? dates.canceledAt.toISOString() : null,
    madeEffectiveAt: dates.madeEffectiveAt ? brasiliaWithZ(dates.madeEffectiveAt) : null,
    madeEffectiveAtUtc: dates.madeEffectiveAt ? dates.madeEffectiveAt.toISOString() : null,
  };
}
