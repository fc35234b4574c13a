import { eq } from 'drizzle-orm';
import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { installments, institutions, paymentLinks } from '../../db/schema/index.js';
import { ApiError } from '../../core/errors.js';
import { localDate } from '../../core/local-date.js';
import type { CardInput, Charge, PaymentMethod } from '../../payments/provider.js';
import { assertPayable, debtOf, type Installment } from './charge-listener.js';
import { findOriginalInstallment } from '../listings/originals.js';
import { quote, type Quote } from './late-charges.js';

export class PaymentLinkNotFound extends ApiError {
  constructor() {
    super(404, 'LINK-005', 'This payment link does not exist');
  }
}

export class ChargeOfAnotherLink extends ApiError {
  constructor(chargeId: string) {
    super(404, 'PAYMENT-005', `Charge ${chargeId} not found`);
  }
}

/** Everything the hosted payment page shows. */
export interface PaymentPage {
  institutionName: string;
  installment: components['schemas']['OriginalInstallment'];
  /** The principal as a decimal string (the listing's number is for display in JSON only). */
  principal: string;
  /** What paying in full costs today; absent when the installment can no longer be paid. */
  quote?: Quote;
  today: string;
  charges: Charge[];
}

async function linkedInstallment(db: Queryable, token: string, lock = false): Promise<Installment> {
  const query = db
    .select({ installment: installments })
    .from(paymentLinks)
    .innerJoin(installments, eq(installments.id, paymentLinks.installmentId))
    .where(eq(paymentLinks.token, token));
  const [found] = lock ? await query.for('update', { of: installments }) : await query;
  if (!found) throw new PaymentLinkNotFound();
  return found.installment;
}

const reference = (installment: Installment) => ({ kind: 'installment', id: installment.id });

export async function openPaymentPage(ctx: AppContext, token: string): Promise<PaymentPage> {
  const installment = await linkedInstallment(ctx.db, token);
  const [view, [institution], charges] = await Promise.all([
    findOriginalInstallment(ctx, installment.id),
    ctx.db.select({ name: institutions.name }).from(institutions).where(eq(institutions.id, installment.institutionId)),
    ctx.payments.listCharges(ctx.db, reference(installment)),
  ]);
  const today = localDate(ctx.clock.now());
  const payable = installment.status !== 'PAGO' && installment.status !== 'CANCELADO_IES';
  return {
    institutionName: institution!.name,
    installment: view!,
    principal: installment.principal,
    today,
    charges,
    ...(payable ? { quote: quote(debtOf(installment), today) } : {}),
  };
}

/**
 * Starts a payment of the whole amount owed today: a Pix or bank slip to pay (valid until the end
 * of the day, the quote's validity) or a card charged at once.
 */
export async function startPayment(
  ctx: AppContext,
  token: string,
  method: PaymentMethod,
  card?: CardInput,
): Promise<Charge> {
  return ctx.db.transaction(async (tx) => {
    const installment = await linkedInstallment(tx, token, true);
    assertPayable(installment);
    const today = localDate(ctx.clock.now());
    const amount = quote(debtOf(installment), today).total;
    const label = installment.externalId ?? installment.number ?? installment.id;
    return ctx.payments.createCharge(tx, {
      method,
      amountCents: amount,
      description: `Parcela ${label}`,
      payer: { name: null, document: installment.guarantorDocument },
      reference: reference(installment),
      ...(card ? { card } : {}),
    });
  });
}

/** Sandbox buttons of the page: pay or expire one of this link's pending charges. */
export async function simulateOnPage(
  ctx: AppContext,
  token: string,
  chargeId: string,
  action: 'pay' | 'expire',
): Promise<Charge> {
  return ctx.db.transaction(async (tx) => {
    const installment = await linkedInstallment(tx, token);
    const provider = ctx.payments;
    const charge = await provider.getCharge(tx, chargeId);
    if (!charge || charge.reference.kind !== 'installment' || charge.reference.id !== installment.id)
      throw new ChargeOfAnotherLink(chargeId);
    return action === 'pay' ? provider.simulatePayment(tx, chargeId) : provider.simulateExpiry(tx, chargeId);
  });
}
