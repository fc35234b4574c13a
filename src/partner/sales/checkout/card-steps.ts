import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import { type CardPause, cardPause, refuseWhilePaused } from '../../../payments/card-limits.js';
import { resumableCardSession } from '../../../payments/charges.js';
import type { CardSession, Charge, OpenedCharge } from '../../../payments/provider.js';
import type { LockedSale, SaleRow } from '../sql.js';
import { chargeOfCheckout, readyForCard, saleOfToken } from './checkout-steps.js';
import { type CheckoutDeps, payerOf, saleReference } from './sale-charges.js';

/**
 * The card step where the provider takes the card in its own fields (Stripe's Payment Element):
 * a card session for the sale's price, confirmed by the buyer in the browser; what comes of it
 * reaches the sale through the charge's listener (the return page, Stripe's events or the
 * reconciliation, whichever first). One open session at a time: asking again resumes it. Card
 * attempts are limited per checkout and per address (`payments/card-limits.ts`).
 */
export async function startCardPayment(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  ip: string,
): Promise<OpenedCharge> {
  const ready = await readyForCard(tx, deps, sale);
  const charges = await deps.payments.listCharges(tx, saleReference(ready.id));
  const open = resumableCardSession(charges, ready.checkoutPriceInCents, deps.clock.now());
  if (open) return { charge: open };
  const input = {
    amountCents: ready.checkoutPriceInCents,
    description: `Compra ${ready.id}`,
    payer: payerOf(ready),
    reference: saleReference(ready.id),
    ip,
  };
  return { charge: await deps.payments.startCardSession(tx, input), submit: { ...input, method: 'CARD' } };
}

/** The pause of card payments in force for this checkout and, when given, the buyer's address. */
export const cardPauseOf = (ctx: AppContext, saleId: number, ip?: string): Promise<CardPause | undefined> =>
  cardPause(ctx.db, { reference: saleReference(saleId), ip }, ctx.clock.now());

export interface CardStep {
  sale: SaleRow;
  charge: Charge;
  /** Absent when the session can no longer take a card (paid, refused, ended): the page reads it again. */
  session?: CardSession;
}

/** The card step of one of this checkout's card charges; refused while its declines pause the checkout. */
export async function openCardStep(ctx: AppContext, token: string, chargeId: string): Promise<CardStep> {
  const sale = await saleOfToken(ctx.db, token);
  const charge = await chargeOfCheckout(ctx.db, ctx, sale, chargeId);
  if (charge.status === 'PENDING') await refuseWhilePaused(ctx.db, { reference: charge.reference }, ctx.clock.now());
  const session = charge.method === 'CARD' ? await ctx.payments.cardSession(ctx.db, chargeId) : undefined;
  return { sale, charge, ...(session ? { session } : {}) };
}

/** The buyer is back from the card step: the charge as the provider has it now, applied to the sale. */
export async function finishCardStep(ctx: AppContext, token: string, chargeId: string): Promise<Charge> {
  const sale = await saleOfToken(ctx.db, token);
  await chargeOfCheckout(ctx.db, ctx, sale, chargeId);
  return (await ctx.payments.refresh(ctx.db, chargeId))!;
}
