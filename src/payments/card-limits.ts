import { ApiError } from '../core/errors.js';
import type { Queryable } from '../db/client.js';
import { countHit, hitsOf, type RatePolicy, type WindowCount } from '../db/rate-windows.js';
import type { ChargeReference } from './provider.js';

/**
 * Limits on card attempts, against card testing (trying stolen card numbers until one passes):
 * a few declines pause the card on the payment page, and on every page for the address they came
 * from, until the window ends. The counts live in PostgreSQL (`db/rate-windows.ts`), shared by
 * every API process, in fixed windows (a quarter of an hour starts at :00, :15, :30 and :45).
 *
 * What counts: on the sandbox, every card charged (a card refused before charging is not, and an
 * approved one ends the payment); with Stripe, whose fields take the card in the browser, every
 * card session opened counts for the address, and every decline Stripe reports
 * (`payment_intent.payment_failed`) for the page.
 */

/** Card attempts a checkout or an installment's payment page takes per quarter of an hour. */
export const CARD_ATTEMPTS_PER_PAGE: RatePolicy = { name: 'card-page', limit: 3, windowMs: 15 * 60_000 };
/** Card attempts one address (the client IP, as `TRUST_PROXY` reads it) makes per hour, on every page. */
export const CARD_ATTEMPTS_PER_IP: RatePolicy = { name: 'card-ip', limit: 10, windowMs: 60 * 60_000 };

/** Where a card attempt comes from: the page (what its charges pay for) and the payer's address, when known. */
export interface CardAttemptSource {
  reference: ChargeReference;
  ip?: string | undefined;
}

/** Card payments paused until `until`, `seconds` after `now`, the instant the counts were read. */
export interface CardPause {
  until: Date;
  seconds: number;
  now: Date;
}

/** A card attempt while the page or the address is paused: nothing is charged. */
export class CardAttemptsPaused extends ApiError {
  constructor(readonly pause: CardPause) {
    super(
      429,
      'PAYMENT-014',
      `Card payments are paused here after repeated declines; try again after ${pause.until.toISOString()}`,
      undefined,
      { 'Retry-After': String(pause.seconds) },
    );
  }
}

const pageKey = (reference: ChargeReference) => `${reference.kind}:${reference.id}`;

/** The latest end among the windows whose count (before this attempt) reached their limit. */
function pauseOf(
  counts: { policy: RatePolicy; before: number; count: WindowCount }[],
  now: Date,
): CardPause | undefined {
  const reached = counts.filter(({ policy, before }) => before >= policy.limit);
  if (!reached.length) return undefined;
  const until = new Date(Math.max(...reached.map(({ count }) => count.resetsAt.getTime())));
  return { until, seconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)), now };
}

/** The pause in force for a page and, when given, an address; undefined when a card may be tried. */
export async function cardPause(db: Queryable, source: CardAttemptSource, now: Date): Promise<CardPause | undefined> {
  const page = await hitsOf(db, CARD_ATTEMPTS_PER_PAGE, pageKey(source.reference), now);
  const counts = [{ policy: CARD_ATTEMPTS_PER_PAGE, before: page.hits, count: page }];
  if (source.ip) {
    const ip = await hitsOf(db, CARD_ATTEMPTS_PER_IP, source.ip, now);
    counts.push({ policy: CARD_ATTEMPTS_PER_IP, before: ip.hits, count: ip });
  }
  return pauseOf(counts, now);
}

/** Refuses with `CardAttemptsPaused` while a pause is in force (the card step of a session already open). */
export async function refuseWhilePaused(db: Queryable, source: CardAttemptSource, now: Date): Promise<void> {
  const pause = await cardPause(db, source, now);
  if (pause) throw new CardAttemptsPaused(pause);
}

/**
 * Counts a card attempt from the address, and on the page when `countPage` (a provider that hears
 * of declines later counts them with `countCardDecline` instead), or refuses it with
 * `CardAttemptsPaused`. Run it in the attempt's transaction: the counts' rows stay locked until it
 * ends, so that concurrent attempts queue, and an attempt refused or rolled back (a card refused
 * before charging) gives its count back.
 */
export async function admitCardAttempt(
  db: Queryable,
  source: CardAttemptSource,
  now: Date,
  { countPage }: { countPage: boolean },
): Promise<void> {
  const key = pageKey(source.reference);
  const page = countPage
    ? await countHit(db, CARD_ATTEMPTS_PER_PAGE, key, now)
    : await hitsOf(db, CARD_ATTEMPTS_PER_PAGE, key, now);
  const counts = [{ policy: CARD_ATTEMPTS_PER_PAGE, before: page.hits - (countPage ? 1 : 0), count: page }];
  if (source.ip) {
    const ip = await countHit(db, CARD_ATTEMPTS_PER_IP, source.ip, now);
    counts.push({ policy: CARD_ATTEMPTS_PER_IP, before: ip.hits - 1, count: ip });
  }
  const pause = pauseOf(counts, now);
  if (pause) throw new CardAttemptsPaused(pause);
}

/** A decline the provider reported after the attempt (Stripe's `payment_intent.payment_failed`) counts for its page. */
export async function countCardDecline(db: Queryable, reference: ChargeReference, now: Date): Promise<void> {
  await countHit(db, CARD_ATTEMPTS_PER_PAGE, pageKey(reference), now);
}
