import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { admitCardAttempt } from '../card-limits.js';
import { STRIPE_JS_SOURCES } from '../card-step.js';
import { type ChargeRow, chargeRowsOf, findChargeRow, toCharge, updateCharge } from '../charges.js';
import {
  CardSessionsNotOffered,
  ChargebackByProviderOnly,
  ChargeNotFound,
  ChargeNotPaid,
  ChargeOfAnotherProvider,
} from '../errors.js';
import type { Charge, PaymentProvider } from '../provider.js';
import { requestOperatorRefund } from '../refunds.js';
import { type ApplyDeps, applyObserved } from './apply.js';
import { stripeBalanceOfDay } from './balance-day.js';
import { callStripe, retrieveIntent, type StripeAccount } from './client.js';
import { receiveStripeEvent } from './events.js';
import { observeIntent, STRIPE_IMAGES } from './intent-state.js';
import { openStripeCharge, submitStripeCharge } from './opening.js';
import { cancelAtStripe, refundAtStripe } from './provider-jobs.js';
import { reconcileStripeCharges } from './reconcile.js';
import { closeDeclinedSession } from './sessions.js';

export interface StripeProviderOptions extends ApplyDeps {
  stripe: Stripe;
  account: StripeAccount;
}

/** States in which the Payment Element can still take a card for the intent. */
const CONFIRMABLE: readonly string[] = ['requires_payment_method', 'requires_confirmation'];

/**
 * Charges through Stripe (`stripe` npm SDK): Pix and bank slips as PaymentIntents confirmed at
 * once, whose `next_action` the pages show; cards as PaymentIntents the buyer confirms in Stripe's
 * own fields. A charge is recorded first and made at Stripe after its transaction commits
 * (`opening.ts`). What happens next comes from Stripe (its events, the buyer's return, the
 * reconciliation) and goes through `applyObserved`.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const { stripe, account, clock } = options;

  /** Reads a charge's intent from Stripe, then applies it under the row's lock. */
  async function refresh(db: Queryable, id: string): Promise<Charge | undefined> {
    const row = await findChargeRow(db, id);
    if (!row || row.provider !== 'stripe' || !row.providerRef) return row && toCharge(row);
    const intent = await retrieveIntent(stripe, row.providerRef);
    const charge = await db.transaction(async (tx) => {
      const locked = (await findChargeRow(tx, id, true))!;
      const applied = await applyObserved(
        tx,
        locked,
        observeIntent(intent, locked.method as Charge['method']),
        options,
      );
      await updateCharge(tx, id, { checkedAt: clock.now() });
      return applied.charge;
    });
    await closeDeclinedSession(options, charge, intent);
    return charge;
  }

  async function stripeRow(db: Queryable, id: string): Promise<ChargeRow & { providerRef: string }> {
    const row = await findChargeRow(db, id, true);
    if (!row) throw new ChargeNotFound(id);
    if (row.provider !== 'stripe' || !row.providerRef) throw new ChargeOfAnotherProvider(id, row.provider);
    return row as ChargeRow & { providerRef: string };
  }

  return {
    name: 'stripe',
    cardEntry: 'element',
    boletoNeedsAddress: true,
    pageSources: { images: [STRIPE_IMAGES] },
    cardStepSources: STRIPE_JS_SOURCES,
    testMode: account.testMode,
    createCharge(db, input) {
      // A card number must never reach this service: cards go through `startCardSession`.
      if (input.method === 'CARD') throw new CardSessionsNotOffered('stripe');
      return openStripeCharge(db, input, options);
    },
    async startCardSession(db, input) {
      // Stripe reports a session's declines by its events, which count for the page: opening one
      // counts for the address, and only checks the page.
      await admitCardAttempt(db, { reference: input.reference, ip: input.ip }, clock.now(), { countPage: false });
      // The session quotes its day's amount (late charges, discounts): a job cancels it at its end.
      return openStripeCharge(db, { ...input, method: 'CARD' }, options);
    },
    submitCharge: (db, id, input) => submitStripeCharge(db, id, input, options),
    async cardSession(db, id) {
      const row = await findChargeRow(db, id);
      if (row?.provider !== 'stripe' || row.method !== 'CARD' || row.status !== 'PENDING' || !row.providerRef)
        return undefined;
      // Past its day its amount is stale: its client secret is not handed out again.
      if (row.expiresAt && row.expiresAt <= clock.now()) return undefined;
      const ref = row.providerRef;
      const intent = await callStripe('paymentIntents.retrieve', () => stripe.paymentIntents.retrieve(ref));
      if (!CONFIRMABLE.includes(intent.status) || !intent.client_secret) return undefined;
      return { publishableKey: account.publishableKey, clientSecret: intent.client_secret };
    },
    async getCharge(db, id) {
      const row = await findChargeRow(db, id);
      return row && toCharge(row);
    },
    async listCharges(db, reference) {
      return (await chargeRowsOf(db, reference)).map(toCharge);
    },
    refresh,
    reconcile: (db) => reconcileStripeCharges(db, { ...options, refresh }),
    balanceOfDay: (db, day) => stripeBalanceOfDay(db, stripe, day),
    async reverse(db, id, status, amountCents) {
      if (status === 'CHARGED_BACK') throw new ChargebackByProviderOnly('Stripe');
      const row = await stripeRow(db, id);
      if (row.status !== 'PAID') throw new ChargeNotPaid(id, row.status);
      // Asked by a job once this commits; the charge is refunded when Stripe says the refund succeeded.
      await requestOperatorRefund(db, row, amountCents, clock.now());
      return toCharge(row);
    },
    refund: (db, refundId) => refundAtStripe(db, refundId, { ...options, refresh }),
    cancel: (db, chargeId) => cancelAtStripe(db, chargeId, { ...options, refresh }),
    webhook: {
      path: '/psp/stripe/webhook',
      signatureHeader: 'stripe-signature',
      receive: (db, body, signature) => receiveStripeEvent(db, body, signature, options),
    },
  };
}
