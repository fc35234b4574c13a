import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { paymentCharges, paymentProviderEvents } from '../../db/schema/index.js';
import { countCardDecline } from '../card-limits.js';
import { type ChargeRow, findChargeRow } from '../charges.js';
import type { PaymentMethod, WebhookOutcome } from '../provider.js';
import { applyRefunds, type ProviderRefund } from '../refunds.js';
import { type Applied, type ApplyDeps, applyDispute, applyObserved, type ObservedDispute } from './apply.js';
import { retrieveIntent, type StripeAccount } from './client.js';
import { observeIntent } from './intent-state.js';
import { listRefunds } from './refunds.js';
import { closeDeclinedSession } from './sessions.js';
import { verifyStripeEvent } from './signature.js';

export interface EventDeps extends ApplyDeps {
  stripe: Stripe;
  account: StripeAccount;
}

/** What an event is about: a PaymentIntent whose state to read, the refunds or a dispute of its charge. */
type Target =
  | { kind: 'intent'; intentId: string }
  | { kind: 'refund'; intentId: string | undefined }
  | { kind: 'dispute'; intentId: string | undefined; dispute: ObservedDispute };

const idOf = (value: string | { id: string } | null) => (typeof value === 'string' ? value : value?.id);

/** The dispute events of Stripe's lifecycle: each carries the dispute as it stands. */
export const DISPUTE_EVENTS = [
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'charge.dispute.closed',
] as const;

/** The refund events: each makes the charge's refunds read again from Stripe. */
export const REFUND_EVENTS = [
  'charge.refunded',
  'charge.refund.updated',
  'refund.created',
  'refund.updated',
  'refund.failed',
] as const;

const has = <T extends string>(list: readonly T[], type: string): type is T =>
  (list as readonly string[]).includes(type);

/** The event types the endpoint handles; any other is acknowledged and left alone. */
function targetOf(event: Stripe.Event): Target | undefined {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled':
      return { kind: 'intent', intentId: event.data.object.id };
    default:
  }
  if (has(REFUND_EVENTS, event.type)) {
    const object = event.data.object as Stripe.Charge | Stripe.Refund;
    return { kind: 'refund', intentId: idOf(object.payment_intent) };
  }
  if (has(DISPUTE_EVENTS, event.type)) {
    const object = event.data.object as Stripe.Dispute;
    return {
      kind: 'dispute',
      intentId: idOf(object.payment_intent),
      dispute: {
        ref: object.id,
        status: object.status,
        amountCents: object.amount,
        // A dispute's balance transactions: the withdrawal (negative), then what came back (positive).
        reinstatedCents: (object.balance_transactions ?? []).reduce((sum, bt) => sum + Math.max(bt.amount, 0), 0),
        balances: object.balance_transactions ?? [],
      },
    };
  }
  return undefined;
}

async function chargeOfIntent(db: Queryable, intentId: string | undefined): Promise<ChargeRow | undefined> {
  if (!intentId) return undefined;
  const [row] = await db
    .select()
    .from(paymentCharges)
    .where(and(eq(paymentCharges.provider, 'stripe'), eq(paymentCharges.providerRef, intentId)));
  return row;
}

/**
 * The charge a PaymentIntent event names in its metadata, when the intent was made but its id never
 * recorded here (the answer to the create call was lost): linked to it now, so that its payment is
 * taken like any other.
 */
async function chargeOfMetadata(db: Queryable, event: Stripe.Event, target: Target): Promise<ChargeRow | undefined> {
  const chargeId = (event.data.object as { metadata?: Stripe.Metadata | null }).metadata?.chargeId;
  if (target.kind !== 'intent' || !chargeId) return undefined;
  const row = await findChargeRow(db, chargeId);
  if (row?.provider !== 'stripe' || row.providerRef) return undefined;
  const [linked] = await db
    .update(paymentCharges)
    .set({ providerRef: target.intentId })
    .where(and(eq(paymentCharges.id, row.id), isNull(paymentCharges.providerRef)))
    .returning();
  return linked;
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

/** What a refund or a dispute needs first: a payment whose own event is late or lost (events come out of order). */
const UNPAID: readonly string[] = ['PENDING', 'DECLINED', 'EXPIRED'];

/** What Stripe says, read before the transaction opens: the intent, and the charge's refunds for a refund event. */
interface Read {
  intent: Stripe.PaymentIntent | undefined;
  refunds: ProviderRefund[] | undefined;
}

async function readFromStripe(row: ChargeRow, target: Target, deps: EventDeps): Promise<Read> {
  const ref = row.providerRef!;
  const readIntent = target.kind === 'intent' || UNPAID.includes(row.status);
  const [intent, refunds] = await Promise.all([
    readIntent ? retrieveIntent(deps.stripe, ref) : undefined,
    target.kind === 'refund' ? listRefunds(deps.stripe, ref) : undefined,
  ]);
  return { intent, refunds };
}

/** Moves the locked charge as the event says: from its intent as Stripe has it now, its refunds or its dispute. */
async function applyTarget(
  tx: Queryable,
  locked: ChargeRow,
  target: Target,
  read: Read,
  paidAt: Date | undefined,
  deps: EventDeps,
): Promise<Applied> {
  const { intent } = read;
  const paid =
    intent && (await applyObserved(tx, locked, observeIntent(intent, locked.method as PaymentMethod), deps, paidAt));
  if (target.kind === 'intent') return paid!;
  const row = paid?.changed ? (await findChargeRow(tx, locked.id, true))! : locked;
  const moved =
    target.kind === 'dispute'
      ? await applyDispute(tx, row, target.dispute, deps)
      : await applyRefunds(tx, row, read.refunds ?? [], deps);
  return { charge: moved.charge, changed: moved.changed || Boolean(paid?.changed) };
}

/**
 * Applies one verified event once, whether a delivery brought it or the reconciliation found it
 * in Stripe's list of events: a PaymentIntent event from the intent as Stripe has it now (events
 * may arrive out of order, and the card's installments are on its charge); a refund event from the
 * charge's refunds as Stripe lists them now; a dispute event from the dispute it carries; a refund
 * or a dispute of a charge still unpaid here after its payment is read and applied. The event's id is stored in
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
  const row = (await chargeOfIntent(db, target.intentId)) ?? (await chargeOfMetadata(db, event, target));
  if (!row) {
    // Our metadata on a PaymentIntent we hold no row of: created at Stripe by a request whose
    // transaction here rolled back. Money may have moved: stored as `orphaned`, which the metrics count.
    const orphan = (event.data.object as { metadata?: Stripe.Metadata | null }).metadata?.chargeId !== undefined;
    const details = { eventId: event.id, type: event.type, intentId: target.intentId };
    if (orphan) deps.logger.error(details, 'Stripe event of a charge of ours that is not here: look it up at Stripe');
    else deps.logger.info(details, 'Stripe event of no charge of ours');
    return outcome((await recordOnce(db, event, null, orphan ? 'orphaned' : 'ignored')) ? 'ignored' : 'duplicate');
  }
  const read = await readFromStripe(row, target, deps);
  // A payment's own event says when Stripe recorded it; a refund's or a dispute's does not.
  const paidAt = event.type === 'payment_intent.succeeded' ? new Date(event.created * 1000) : undefined;
  const taken = await db.transaction(async (tx) => {
    if (!(await recordOnce(tx, event, row.id, 'applied'))) return { outcome: outcome('duplicate') };
    const locked = (await findChargeRow(tx, row.id, true))!;
    const applied = await applyTarget(tx, locked, target, read, paidAt, deps);
    if (event.type === 'payment_intent.payment_failed' && locked.method === 'CARD')
      await countCardDecline(tx, applied.charge.reference, deps.clock.now());
    if (applied.changed) return { outcome: outcome('applied'), charge: applied.charge };
    await tx
      .update(paymentProviderEvents)
      .set({ outcome: 'unchanged' })
      .where(and(eq(paymentProviderEvents.provider, 'stripe'), eq(paymentProviderEvents.eventId, event.id)));
    return { outcome: outcome('unchanged'), charge: applied.charge };
  });
  if (read.intent && taken.charge) await closeDeclinedSession(deps, taken.charge, read.intent);
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
