import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { paymentCharges } from '../../db/schema/index.js';
import { findChargeRow, toCharge } from '../charges.js';
import type { ReconcileReport } from '../provider.js';
import type { EventDeps } from './events.js';
import { bookLateFees } from './late-fees.js';
import { recoverLostEvents } from './lost-events.js';
import { cancelAtStripe, type ProviderJobDeps } from './provider-jobs.js';

export type ReconcileDeps = EventDeps & ProviderJobDeps;

/** A charge is left to its events this long before the reconciliation asks Stripe about it. */
export const RECONCILE_AFTER_MS = 5 * 60_000;
/** Charges read per run; the oldest read first, so that every pending charge has its turn. */
const BATCH = 100;

/**
 * A lost webhook never leaves a paid charge pending: the pending Stripe charges older than five
 * minutes are read from Stripe and what it says is applied through the webhook's own path (so a
 * late event, or this run twice, changes nothing more). A charge is read again after a quarter of
 * its age (5 minutes to an hour), since a bank slip can wait days for its bank. A card session
 * still open after its day is cancelled at Stripe: it quoted that day's amount. Then the refunds and
 * disputes Stripe reported by events that never arrived are found in its list of events and
 * applied, once pending charges have had their turn (a refund of a payment read just now finds it paid).
 * Last, the fees Stripe stated after their move was applied are booked from its balance transactions.
 */
export async function reconcileStripeCharges(db: Queryable, deps: ReconcileDeps): Promise<ReconcileReport> {
  const now = deps.clock.now();
  const at = now.toISOString();
  await endChargesNeverMade(db, now);
  const due = await db
    .select({ id: paymentCharges.id })
    .from(paymentCharges)
    .where(
      and(
        eq(paymentCharges.provider, 'stripe'),
        eq(paymentCharges.status, 'PENDING'),
        lte(paymentCharges.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
        or(
          isNull(paymentCharges.checkedAt),
          sql`${paymentCharges.checkedAt} <= ${at}::timestamptz - least(interval '1 hour', greatest(interval '5 minutes', (${at}::timestamptz - ${paymentCharges.createdAt}) / 4))`,
        ),
      ),
    )
    .orderBy(sql`${paymentCharges.checkedAt} asc nulls first`, asc(paymentCharges.createdAt))
    .limit(BATCH);
  let changed = 0;
  for (const { id } of due) {
    // Its turn is taken even when Stripe cannot answer now: it waits its backoff, not the next run.
    await db.update(paymentCharges).set({ checkedAt: now }).where(eq(paymentCharges.id, id));
    try {
      let charge = await deps.refresh(db, id);
      // Its job closes a card session at its end; one whose job was lost is closed here.
      if (charge?.status === 'PENDING' && charge.method === 'CARD' && charge.expiresAt && charge.expiresAt <= now) {
        // Cancelled, then read back (cancelAtStripe refreshes it).
        await cancelAtStripe(db, id, deps);
        const row = await findChargeRow(db, id);
        charge = row && toCharge(row);
      }
      if (charge && charge.status !== 'PENDING') changed++;
    } catch (error) {
      // One charge Stripe cannot answer for now does not hold back the others; it is read again next run.
      deps.logger.error({ err: error, chargeId: id }, 'reconciliation of a Stripe charge failed');
    }
  }
  const recovered = await recoverEvents(db, deps, now);
  await bookFees(db, deps, now);
  return { checked: due.length, changed, recovered };
}

/**
 * A charge recorded but never made at Stripe (the process stopped before asking, or Stripe's answer
 * was lost) ends unpaid: nothing can pay it but an intent Stripe made all the same, whose events
 * name the charge and link it again (`applyStripeEvent`).
 */
async function endChargesNeverMade(db: Queryable, now: Date): Promise<void> {
  await db
    .update(paymentCharges)
    .set({ status: 'EXPIRED', declinedReason: 'never made at Stripe', updatedAt: now })
    .where(
      and(
        eq(paymentCharges.provider, 'stripe'),
        eq(paymentCharges.status, 'PENDING'),
        isNull(paymentCharges.providerRef),
        lte(paymentCharges.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
      ),
    );
}

async function bookFees(db: Queryable, deps: ReconcileDeps, now: Date): Promise<void> {
  try {
    await bookLateFees(db, deps, new Date(now.getTime() - RECONCILE_AFTER_MS));
  } catch (error) {
    // Stripe cannot list its balance now: the cursor stays, and the next run lists from there.
    deps.logger.error({ err: error }, "Stripe's balance transactions could not be listed");
  }
}

async function recoverEvents(db: Queryable, deps: ReconcileDeps, now: Date): Promise<number> {
  try {
    return await recoverLostEvents(db, deps, new Date(now.getTime() - RECONCILE_AFTER_MS));
  } catch (error) {
    // Stripe cannot list its events now: the cursor stays, and the next run lists them again.
    deps.logger.error({ err: error }, "Stripe's events could not be listed");
    return 0;
  }
}
