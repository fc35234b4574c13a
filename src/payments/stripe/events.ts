import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Queryable } from '../../db/client.js';
import { paymentCharges, paymentProviderEvents } from '../../db/schema/index.js';
import { findChargeRow, toCharge, type ChargeRow } from '../charges.js';
import type { PaymentMethod, WebhookOutcome } from '../provider.js';
import { applyObserved, applyReversal, type ApplyDeps, type Applied } from './apply.js';
import { retrieveIntent, type StripeAccount } from './client.js';
import { observeIntent } from './intent-state.js';
import { countCardDecline } from '../card-limits.js';
import { closeDeclinedSession } from './sessions.js';
import { verifyStripeEvent } from './signature.js';

export interface EventDeps extends ApplyDeps {
  stripe: Stripe;
  account: StripeAccount;
}

/** What an event is about: a PaymentIntent whose state to read, a refund or a dispute of its charge. */
type Target =
  | { kind: 'intent'; intentId: string }
  | { kind: 'refund'; intentId: string | undefined; full: boolean }
  | { kind: 'dispute'; intentId: string | undefined };

const idOf = (value: string | { id: string } | null) => (typeof value === 'string' ? value : value?.id);

/** The five event types the endpoint handles; any other is acknowledged and left alone. */
function targetOf(event: Stripe.Event): Target | undefined {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled':
      return { kind: 'intent', intentId: event.data.object.id };
    case 'charge.refunded':
      return { kind: 'refund', intentId: idOf(event.data.object.payment_intent), full: event.data.object.refunded };
    case 'charge.dispute.created':
      return { kind: 'dispute', intentId: idOf(event.data.object.payment_intent) };
    default:
      return undefined;
  }
}

async function chargeOfIntent(db: Queryable, intentId: string | undefined): Promise<ChargeRow | undefined> {
  if (!intentId) return undefined;
  const [row] = await db
    .select()
    .from(paymentCharges)
    .where(and(eq(paymentCharges.provider, 'stripe'), eq(paymentCharges.providerRef, intentId)));
  return row;
}

/** Stores the event id; false when it was stored before (a redelivery, or a delivery racing this one). */
async function recordOnce(db: Queryable, event: Stripe.Event, chargeId: string | null, outcome: string) {
  const inserted = await db
    .insert(paymentProviderEvents)
    .values({ provider: 'stripe', eventId: event.id, type: event.type, chargeId, outcome })
    .onConflictDoNothing()
    .returning({ eventId: paymentProviderEvents.eventId });
  return inserted.length > 0;
}

/**
 * One delivery of `POST /psp/stripe/webhook`: the signature checked on the raw body with the
 * endpoint's secret (or the previous one during a rotation), then the event applied once. A PaymentIntent event is applied from the
 * intent as Stripe has it now (events may arrive out of order, and the card's installments are on
 * its charge); the event's id is stored in the transaction of the move it causes. Each declined
 * card Stripe reports counts for its page's card limit (once, as its event), whether or not the
 * buyer's return applied the decline first, and the declined session is closed.
 */
export async function receiveStripeEvent(
  db: Queryable,
  body: Buffer,
  signature: string | undefined,
  deps: EventDeps,
): Promise<WebhookOutcome> {
  const event = verifyStripeEvent(deps.stripe, deps.account, deps.clock, body, signature);
  const outcome = (value: WebhookOutcome['outcome']): WebhookOutcome => ({
    eventId: event.id,
    type: event.type,
    outcome: value,
  });
  const target = targetOf(event);
  if (!target) return outcome('ignored');
  const [seen] = await db
    .select({ eventId: paymentProviderEvents.eventId })
    .from(paymentProviderEvents)
    .where(and(eq(paymentProviderEvents.provider, 'stripe'), eq(paymentProviderEvents.eventId, event.id)));
  if (seen) return outcome('duplicate');
  const row = await chargeOfIntent(db, target.intentId);
  if (!row) {
    deps.logger.info(
      { eventId: event.id, type: event.type, intentId: target.intentId },
      'Stripe event of no charge of ours',
    );
    return outcome((await recordOnce(db, event, null, 'ignored')) ? 'ignored' : 'duplicate');
  }
  const intent = target.kind === 'intent' ? await retrieveIntent(deps.stripe, target.intentId) : undefined;
  const taken = await db.transaction(async (tx) => {
    if (!(await recordOnce(tx, event, row.id, 'applied'))) return { outcome: outcome('duplicate') };
    const locked = (await findChargeRow(tx, row.id, true))!;
    let applied: Applied;
    if (intent) applied = await applyObserved(tx, locked, observeIntent(intent, locked.method as PaymentMethod), deps);
    else if (target.kind === 'dispute') applied = await applyReversal(tx, locked, 'CHARGED_BACK', deps);
    else if (target.kind === 'refund' && target.full) applied = await applyReversal(tx, locked, 'REFUNDED', deps);
    else {
      deps.logger.warn({ eventId: event.id, chargeId: row.id }, 'partial refund at Stripe: the charge stays paid');
      applied = { charge: toCharge(locked), changed: false };
    }
    if (event.type === 'payment_intent.payment_failed' && locked.method === 'CARD')
      await countCardDecline(tx, applied.charge.reference, deps.clock.now());
    if (applied.changed) return { outcome: outcome('applied'), charge: applied.charge };
    await tx
      .update(paymentProviderEvents)
      .set({ outcome: 'unchanged' })
      .where(and(eq(paymentProviderEvents.provider, 'stripe'), eq(paymentProviderEvents.eventId, event.id)));
    return { outcome: outcome('unchanged'), charge: applied.charge };
  });
  if (intent && taken.charge) await closeDeclinedSession(deps, taken.charge, intent);
  return taken.outcome;
}
