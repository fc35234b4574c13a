import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { paymentProviderCursors } from '../../db/schema/index.js';
import { callStripe } from './client.js';
import { applyStripeEvent, DISPUTE_EVENTS, type EventDeps, REFUND_EVENTS } from './events.js';

/**
 * The events that move a paid charge and that no read of a pending charge can find: the refunds and
 * the disputes of a charge paid long ago. A lost one is found in Stripe's list of events.
 */
export const RECOVERED_TYPES = [...REFUND_EVENTS, ...DISPUTE_EVENTS] as const;

/** The first run reads this far back: Stripe gives up redelivering an event after three days. */
const FIRST_LOOKBACK_MS = 3 * 86_400_000;
/** Each run lists again this much before where the last one stopped: Stripe's list can show an event late. */
const OVERLAP_MS = 10 * 60_000;

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * Lists Stripe's refund and dispute events created since the last run (up to `until`, the age at
 * which a delivery is given up for lost) and applies each through the webhook's own path, so that
 * an event applied here and redelivered later, or delivered already, changes nothing more. The
 * cursor moves only when every event listed was applied: an event that fails is listed again at
 * the next run. Answers how many events moved a charge.
 */
export async function recoverLostEvents(db: Queryable, deps: EventDeps, until: Date): Promise<number> {
  const [cursor] = await db.select().from(paymentProviderCursors).where(eq(paymentProviderCursors.provider, 'stripe'));
  const from = cursor
    ? new Date(cursor.listedUntil.getTime() - OVERLAP_MS)
    : new Date(deps.clock.now().getTime() - FIRST_LOOKBACK_MS);
  if (from >= until) return 0;
  const params: Stripe.EventListParams = {
    types: [...RECOVERED_TYPES],
    created: { gt: seconds(from), lte: seconds(until) },
    limit: 100,
  };
  let applied = 0;
  let failed = 0;
  await callStripe(async () => {
    for await (const event of deps.stripe.events.list(params)) {
      try {
        if ((await applyStripeEvent(db, event, deps)).outcome === 'applied') applied++;
      } catch (error) {
        failed++;
        deps.logger.error(
          { err: error, eventId: event.id, type: event.type },
          'a lost Stripe event could not be applied',
        );
      }
    }
  });
  if (applied > 0) deps.logger.warn({ applied }, 'Stripe events never delivered were applied by the reconciliation');
  if (failed === 0)
    await db
      .insert(paymentProviderCursors)
      .values({ provider: 'stripe', listedUntil: until, updatedAt: deps.clock.now() })
      .onConflictDoUpdate({
        target: paymentProviderCursors.provider,
        set: {
          listedUntil: sql`greatest(${paymentProviderCursors.listedUntil}, excluded.listed_until)`,
          updatedAt: deps.clock.now(),
        },
      });
  return applied;
}
