import { randomUUID } from 'node:crypto';

import type Stripe from 'stripe';

import { localDate } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { paymentCharges } from '../../db/schema/index.js';
import { addChargeCancelJob } from '../../queue/jobs.js';
import { cardSessionExpiry, endOfLocalDay, pixExpiry } from '../charge-terms.js';
import { findChargeRow, newChargeColumns, toCharge, updateCharge } from '../charges.js';
import { InvalidAmount } from '../errors.js';
import type { Charge, CreateChargeInput } from '../provider.js';
import { type ApplyDeps, applyObserved, payColumns } from './apply.js';
import { callStripe, idempotencyKey } from './client.js';
import { observeIntent } from './intent-state.js';
import { boletoIntent, cardIntent, pixIntent } from './intents.js';

/**
 * A charge at Stripe in two steps, so that no call to Stripe is made while the caller holds the
 * installment's or the sale's lock: `openStripeCharge` records the charge in the caller's
 * transaction; once it commits, `submitStripeCharge` creates its PaymentIntent, keyed by the
 * charge's id (a retry, or a request that timed out, makes no second one), and records what Stripe
 * answers. A charge whose PaymentIntent Stripe did not make ends `EXPIRED` here; one made but not
 * recorded (the process stopped) is found again by its events, which carry the charge's id.
 */

export interface OpeningDeps extends ApplyDeps {
  stripe: Stripe;
}

/** Stripe is asked while a payer waits: a short timeout and one retry, not the client's default minute. */
const PAYER_WAITS = { timeout: 8_000, maxNetworkRetries: 1 } as const;

function expiryOf(input: CreateChargeInput, now: Date): Date {
  if (input.method === 'PIX') return pixExpiry(now);
  if (input.method === 'BOLETO') return endOfLocalDay(input.dueDate ?? localDate(now));
  return cardSessionExpiry(now);
}

/** Records a charge to be made at Stripe, in the caller's transaction; a card session is also closed at its end by a job. */
export async function openStripeCharge(db: Queryable, input: CreateChargeInput, deps: OpeningDeps): Promise<Charge> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1)
    throw new InvalidAmount(input.amountCents, Number.MAX_SAFE_INTEGER);
  const now = deps.clock.now();
  const expiresAt = expiryOf(input, now);
  const [row] = await db
    .insert(paymentCharges)
    .values({ ...newChargeColumns(randomUUID(), 'stripe', input, now), status: 'PENDING', expiresAt })
    .returning();
  if (input.method === 'CARD') await addChargeCancelJob(db, row!.id, expiresAt);
  return toCharge(row!);
}

const paramsOf = (id: string, input: CreateChargeInput, now: Date): Stripe.PaymentIntentCreateParams => {
  if (input.method === 'PIX') return pixIntent(id, input, now);
  if (input.method === 'BOLETO') return boletoIntent(id, input, now);
  return cardIntent(id, input);
};

/**
 * Creates the PaymentIntent of an opened charge (outside any transaction of the caller) and
 * records it: what to pay with, or what Stripe decided at once. A charge already at Stripe is
 * answered as it is. Stripe refusing or not answering ends the charge `EXPIRED` with the reason,
 * and the refusal reaches the payer.
 */
export async function submitStripeCharge(
  db: Queryable,
  id: string,
  input: CreateChargeInput,
  deps: OpeningDeps,
): Promise<Charge> {
  const opened = await findChargeRow(db, id);
  if (!opened || opened.providerRef || opened.status !== 'PENDING') return toCharge(opened!);
  let intent: Stripe.PaymentIntent;
  try {
    intent = await callStripe('paymentIntents.create', () =>
      deps.stripe.paymentIntents.create(paramsOf(id, input, opened.createdAt), {
        idempotencyKey: idempotencyKey(id, 'create'),
        ...PAYER_WAITS,
      }),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await updateCharge(db, id, {
      status: 'EXPIRED',
      declinedReason: `not made at Stripe: ${reason}`.slice(0, 500),
      updatedAt: deps.clock.now(),
    });
    throw error;
  }
  return db.transaction(async (tx) => {
    const row = (await findChargeRow(tx, id, true))!;
    const observed = observeIntent(intent, input.method);
    const linked = await updateCharge(tx, id, { providerRef: intent.id, ...payColumns(observed) });
    // Closed here while Stripe made it (its installment or sale ended meanwhile): cancelled there too.
    if (row.status === 'EXPIRED') await addChargeCancelJob(tx, id);
    // Confirmed at once, a Pix or bank slip is pending; anything else is applied as an event would be.
    if (observed.status === 'PENDING' || row.status !== 'PENDING') return toCharge(linked);
    return (await applyObserved(tx, linked, observed, deps)).charge;
  });
}
