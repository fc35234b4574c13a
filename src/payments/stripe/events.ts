import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { paymentCharges, paymentProviderEvents } from '../../db/schema/index.js';
import { countCardDecline } from '../card-limits.js';
import { type ChargeRow, findChargeRow } from '../charges.js';
import type { PaymentMethod, WebhookOutcome } from '../provider.js';
import { type Applied, type ApplyDeps, applyObserved, applyPartialRefund, applyReversal } from './apply.js';
import { retrieveIntent, type StripeAccount } from './client.js';
import { observeIntent } from './intent-state.js';
import { closeDeclinedSession } from './sessions.js';
import { verifyStripeEvent } from './signature.js';

export interface EventDeps extends ApplyDeps {
  stripe: Stripe;
  account: StripeAccount;
}

/** What an event is about: a PaymentIntent whose state to read, a refund or a dispute of its charge. */
type Target =
  | { kind: 'intent'; intentId: string }
  | { kind: 'refund'; intentId: string | undefined; full: boolean; refundedCents: number }
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
      return {
        kind: 'refund',
        intentId: idOf(event.data.object.payment_intent),
        full: event.data.object.refunded,
        refundedCents: event.data.object.amount_refunded,
      };
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

/** What a reversal needs first: a payment whose own event is late or lost (refunds and disputes come out of order too). */
const UNPAID: readonly string[] = ['PENDING', 'DECLINED', 'EXPIRED'];

/** Moves the locked charge as the event says: from its intent as Stripe has it now, or by its refund or dispute. */
async function applyTarget(
  tx: Queryable,
  locked: ChargeRow,
  target: Target,
  intent: Stripe.PaymentIntent | undefined,
  deps: EventDeps,
): Promise<Applied> {
  const paid = intent && (await applyObserved(tx, locked, observeIntent(intent, locked.method as PaymentMethod), deps));
  if (target.kind === 'intent') return paid!;
  const row = paid?.changed ? (await findChargeRow(tx, locked.id, true))! : locked;
  let reversed: Applied;
  if (target.kind === 'dispute') reversed = await applyReversal(tx, row, 'CHARGED_BACK', deps);
  else if (target.full) reversed = await applyReversal(tx, row, 'REFUNDED', deps);
  else reversed = await applyPartialRefund(tx, row, target.refundedCents, deps);
  return { charge: reversed.charge, changed: reversed.changed || Boolean(paid?.changed) };
}

/**
 * Applies one verified event once, whether a delivery brought it or the reconciliation found it
 * in Stripe's list of events: a PaymentIntent event from the intent as Stripe has it now (events
 * may arrive out of order, and the card's installments are on its charge); a refund or a dispute
 * of a charge still unpaid here after its payment is read and applied. The event's id is stored in
 * the transaction of the move it causes. Each declined card Stripe reports counts for its page's
 * card limit (once, as its event), whether or not the buyer's return applied the decline first,
 * and the declined session is closed.
 */
export async function applyStripeEvent(db: Queryable, event: Stripe.Event, deps: EventDeps): Promise<WebhookOutcome> {
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
  const readIntent = target.kind === 'intent' || UNPAID.includes(row.status);
  const intent = readIntent ? await retrieveIntent(deps.stripe, row.providerRef!) : undefined;
  const taken = await db.transaction(async (tx) => {
    if (!(await recordOnce(tx, event, row.id, 'applied'))) return { outcome: outcome('duplicate') };
    const locked = (await findChargeRow(tx, row.id, true))!;
    const applied = await applyTarget(tx, locked, target, intent, deps);
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

/** One delivery of `POST /psp/stripe/webhook`: the signature checked on the raw body, then the event applied once. */
export async function receiveStripeEvent(
  db: Queryable,
  body: Buffer,
  signature: string | undefined,
  deps: EventDeps,
): Promise<WebhookOutcome> {
  return applyStripeEvent(db, verifyStripeEvent(deps.stripe, deps.account, deps.clock, body, signature), deps);
}
