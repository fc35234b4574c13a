import { and, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { paymentEventFailures, paymentProviderCursors } from '../../db/schema/index.js';
import { callStripe } from './client.js';
import { applyStripeEvent, DISPUTE_EVENTS, type EventDeps, REFUND_EVENTS } from './events.js';

/**
 * The events that no read of a pending charge can find: the refunds and the disputes of a charge
 * paid long ago, and the payment of a charge no longer pending here (a sibling closed when another
 * was paid, and paid all the same). A lost one is found in Stripe's list of events.
 */
export const RECOVERED_TYPES = ['payment_intent.succeeded', ...REFUND_EVENTS, ...DISPUTE_EVENTS] as const;

/** Tries of one listed event before it is set aside and the cursor moves past it. */
export const SET_ASIDE_AFTER = 5;

/** The first run reads this far back: Stripe gives up redelivering an event after three days. */
const FIRST_LOOKBACK_MS = 3 * 86_400_000;
/** Each run lists again this much before where the last one stopped: Stripe's list can show an event late. */
const OVERLAP_MS = 10 * 60_000;

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * Lists Stripe's events of `RECOVERED_TYPES` created since the last run (up to `until`, the age at
 * which a delivery is given up for lost) and applies each through the webhook's own path, so that
 * an event applied here and redelivered later, or delivered already, changes nothing more. The
 * cursor moves only when every event listed was applied or set aside: an event that fails is listed
 * again at the next run, and after `SET_ASIDE_AFTER` tries is set aside for the operator
 * (`payment_event_failures`), so that one event never holds back the ones after it. Answers how
 * many events moved a charge.
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
  await callStripe('events.list', async () => {
    for await (const event of deps.stripe.events.list(params)) {
      try {
        if ((await applyStripeEvent(db, event, deps)).outcome === 'applied') applied++;
      } catch (error) {
        const setAside = await countFailure(db, event, error, deps.clock.now());
        if (!setAside) failed++;
        deps.logger.error(
          { err: error, eventId: event.id, type: event.type, setAside },
          setAside
            ? `a lost Stripe event failed ${SET_ASIDE_AFTER} times and is set aside: apply it by hand`
            : 'a lost Stripe event could not be applied',
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

/** Counts one more failure of a listed event; true once it has failed `SET_ASIDE_AFTER` times (it is then set aside). */
async function countFailure(db: Queryable, event: Stripe.Event, error: unknown, now: Date): Promise<boolean> {
  const lastError = error instanceof Error ? error.message : String(error);
  const [row] = await db
    .insert(paymentEventFailures)
    .values({ provider: 'stripe', eventId: event.id, type: event.type, attempts: 1, lastError, updatedAt: now })
    .onConflictDoUpdate({
      target: [paymentEventFailures.provider, paymentEventFailures.eventId],
      set: { attempts: sql`${paymentEventFailures.attempts} + 1`, lastError, updatedAt: now },
    })
    .returning();
  if (row!.attempts < SET_ASIDE_AFTER) return false;
  if (!row!.setAsideAt)
    await db
      .update(paymentEventFailures)
      .set({ setAsideAt: now })
      .where(and(eq(paymentEventFailures.provider, 'stripe'), eq(paymentEventFailures.eventId, event.id)));
  return true;
}
