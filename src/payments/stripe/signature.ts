import type Stripe from 'stripe';

import type { Clock } from '../../core/clock.js';
import { ApiError } from '../../core/errors.js';
import type { StripeAccount } from './client.js';

/** The signature is missing, forged, of another secret, or older than five minutes (a replay). */
export class InvalidSignature extends ApiError {
  constructor(reason: string) {
    super(400, 'PSP-001', `Stripe-Signature does not sign this body: ${reason}`);
  }
}

const modeOf = (live: boolean) => (live ? 'live' : 'test');

/** A signed event of the other mode than the keys: a test event must never settle live charges, nor the reverse. */
export class LivemodeMismatch extends ApiError {
  constructor(eventLive: boolean, keysLive: boolean) {
    super(
      400,
      'PSP-002',
      `Stripe event of ${modeOf(eventLive)} mode (livemode ${eventLive}), but this service runs with ${modeOf(keysLive)}-mode keys`,
    );
  }
}

/** Stripe's default: an event signed longer ago than this is refused as a replay. */
export const TOLERANCE_SECONDS = 300;

type Refusal = 'stale' | 'not-json' | 'no-match';

/** Why one secret refused the delivery: the SDK checks the signature first, then its age, then parses. */
function refusalOf(error: unknown): Refusal {
  const message = error instanceof Error ? error.message : '';
  if (/tolerance/i.test(message)) return 'stale';
  if (error instanceof SyntaxError) return 'not-json';
  return 'no-match';
}

const REASONS: Record<Refusal, string> = {
  stale: `signed more than ${TOLERANCE_SECONDS} s ago`,
  'not-json': 'the body is not an event',
  'no-match': "no signature matches the endpoint's secret",
};

/**
 * The event a delivery carries, once `Stripe-Signature` holds for the raw body under the
 * endpoint's secret or, while a rotation overlaps, the secret rolled away from, and its `livemode`
 * is the keys' mode. A delivery that one secret signs but that is too old is a replay whichever
 * secret is tried first.
 */
export function verifyStripeEvent(
  stripe: Stripe,
  account: StripeAccount,
  clock: Clock,
  body: Buffer,
  signature: string | undefined,
): Stripe.Event {
  if (!signature) throw new InvalidSignature('the header is missing');
  const secrets = [account.webhookSecret, account.webhookSecretPrevious].filter((s): s is string => Boolean(s));
  const refusals: Refusal[] = [];
  for (const secret of secrets) {
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        body,
        signature,
        secret,
        TOLERANCE_SECONDS,
        undefined,
        clock.now().getTime(),
      );
    } catch (error) {
      refusals.push(refusalOf(error));
      continue;
    }
    if (event.livemode !== !account.testMode) throw new LivemodeMismatch(event.livemode, !account.testMode);
    return event;
  }
  const worst = (['stale', 'not-json'] as const).find((r) => refusals.includes(r)) ?? 'no-match';
  throw new InvalidSignature(REASONS[worst]);
}
