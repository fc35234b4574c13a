import type { SaleState } from '../state/sale-states.js';

/** The spec's cart abandonment rules (Events, rule 3). */

export const CART_IDLE_MS = 30 * 60_000;
export const CART_ACTIVITY_WINDOW_MS = 90 * 60_000;

export interface CartFacts {
  state: SaleState;
  paymentMethod: string | null;
  phone: string;
  email: string;
  lastActivityAt: Date | null;
  alreadySent: boolean;
}

export type CartVerdict = 'send' | 'not-yet' | 'never';

/**
 * `send` when the buyer has been idle for 30 minutes, was active within the last 90, filled in a
 * phone or an e-mail, and is on the financing or has not chosen a method (no invoice generated, no
 * card tried, no guarantor pending, no denial); `not-yet` while the 30 minutes have not passed.
 * Only what the buyer filled in counts: a sale still `not_logged` (the link only opened) carries
 * at most the contact the partner sent at creation, so it is `never`.
 */
export function cartVerdict(facts: CartFacts, now: Date): CartVerdict {
  if (facts.alreadySent || !facts.lastActivityAt || facts.state === 'not_logged') return 'never';
  if (!facts.phone.trim() && !facts.email.trim()) return 'never';
  const choosing = facts.state === 'in_progress' && facts.paymentMethod === null;
  if (!choosing && facts.state !== 'financing_analysis') return 'never';
  const idle = now.getTime() - facts.lastActivityAt.getTime();
  if (idle > CART_ACTIVITY_WINDOW_MS) return 'never';
  return idle >= CART_IDLE_MS ? 'send' : 'not-yet';
}
