import { eq } from 'drizzle-orm';

import type { AppContext } from '../../context.js';
import { institutions } from '../../db/schema/index.js';
import { refuseWhilePaused } from '../../payments/card-limits.js';
import { resumableCardSession, submitOpened } from '../../payments/charges.js';
import type { CardSession, Charge } from '../../payments/provider.js';
import { chargeBasis, chargeOfLink, installmentReference, linkedInstallment } from './payment-page.js';

/**
 * Cards entered in the provider's own fields (Stripe's Payment Element): the page opens a card
 * session for the amount owed today, the payer confirms it in the browser, and the return page
 * reads where it stands. One open session at a time: asking again resumes it. Card attempts are
 * limited per page and per address (`payments/card-limits.ts`).
 */

export async function startCardPayment(ctx: AppContext, token: string, ip: string): Promise<Charge> {
  const opened = await ctx.db.transaction(async (tx) => {
    const installment = await linkedInstallment(tx, token, true);
    const basis = chargeBasis(ctx, installment, 'CARD');
    const charges = await ctx.payments.listCharges(tx, installmentReference(installment));
    const open = resumableCardSession(charges, basis.amountCents, ctx.clock.now());
    if (open) return { charge: open };
    const input = { ...basis, payer: { name: null, document: installment.guarantorDocument }, ip };
    return { charge: await ctx.payments.startCardSession(tx, input), submit: { ...input, method: 'CARD' as const } };
  });
  // The provider is asked once the session's row has committed: no lock is held while it answers.
  return submitOpened(ctx.payments, ctx.db, opened);
}

export interface CardStep {
  charge: Charge;
  institutionName: string;
  /** Absent when the session can no longer take a card (paid, refused, ended): the page reads it again. */
  session?: CardSession;
}

/** The card step of one of this link's card charges; refused while its declines pause the page. */
export async function openCardStep(ctx: AppContext, token: string, chargeId: string): Promise<CardStep> {
  const charge = await chargeOfLink(ctx, ctx.db, token, chargeId);
  if (charge.status === 'PENDING') await refuseWhilePaused(ctx.db, { reference: charge.reference }, ctx.clock.now());
  const { institutionName } = await institutionOf(ctx, token);
  const session = charge.method === 'CARD' ? await ctx.payments.cardSession(ctx.db, chargeId) : undefined;
  return { charge, institutionName, ...(session ? { session } : {}) };
}

/** The payer is back from the card step (or left it): the charge as the provider has it now. */
export async function finishCardStep(ctx: AppContext, token: string, chargeId: string): Promise<Charge> {
  await chargeOfLink(ctx, ctx.db, token, chargeId);
  return (await ctx.payments.refresh(ctx.db, chargeId))!;
}

async function institutionOf(ctx: AppContext, token: string) {
  const installment = await linkedInstallment(ctx.db, token);
  const [row] = await ctx.db
    .select({ institutionName: institutions.name })
    .from(institutions)
    .where(eq(institutions.id, installment.institutionId));
  return row!;
}
