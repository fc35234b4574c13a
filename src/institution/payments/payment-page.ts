import { eq } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { ApiError, RouteNotFound } from '../../core/errors.js';
import { localDate } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { installments, institutions, paymentLinks } from '../../db/schema/index.js';
import { type CardPause, cardPause } from '../../payments/card-limits.js';
import { pendingChargeLike, submitOpened } from '../../payments/charges.js';
import {
  checkPayerForm,
  emptyPayerValues,
  PayerFormRefused,
  payerOfForm,
  type PayerValues,
} from '../../payments/payer-form.js';
import {
  type CardInput,
  type Charge,
  type CreateChargeInput,
  type PaymentMethod,
  type ProviderView,
  providerView,
} from '../../payments/provider.js';
import { findOriginalInstallment } from '../listings/originals.js';
import { boletoPayerDefaults } from './boleto-payer.js';
import { assertPayable, debtOf, type Installment } from './charge-listener.js';
import { type Quote, quote, slipTerms } from './late-charges.js';

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
  provider: ProviderView;
  /** What the bank slip form starts with, for a provider that registers the payer. */
  payer?: PayerValues;
  /** Card payments paused on this page or from this address: shown in place of the card form. */
  cardPause?: CardPause;
}

export async function linkedInstallment(db: Queryable, token: string, lock = false): Promise<Installment> {
  const query = db
    .select({ installment: installments })
    .from(paymentLinks)
    .innerJoin(installments, eq(installments.id, paymentLinks.installmentId))
    .where(eq(paymentLinks.token, token));
  const [found] = lock ? await query.for('update', { of: installments }) : await query;
  if (!found) throw new PaymentLinkNotFound();
  return found.installment;
}

export const installmentReference = (installment: Installment) => ({ kind: 'installment', id: installment.id });

/** The page of a link, as the payer at `ip` sees it (card payments may be paused for their address). */
export async function openPaymentPage(ctx: AppContext, token: string, ip?: string): Promise<PaymentPage> {
  const installment = await linkedInstallment(ctx.db, token);
  const provider = providerView(ctx.payments);
  const reference = installmentReference(installment);
  const [view, [institution], charges, payer, pause] = await Promise.all([
    findOriginalInstallment(ctx, installment.id),
    ctx.db.select({ name: institutions.name }).from(institutions).where(eq(institutions.id, installment.institutionId)),
    ctx.payments.listCharges(ctx.db, reference),
    provider.boletoForm ? boletoPayerDefaults(ctx.db, installment) : undefined,
    cardPause(ctx.db, { reference, ip }, ctx.clock.now()),
  ]);
  const today = localDate(ctx.clock.now());
  const payable = installment.status !== 'PAGO' && installment.status !== 'CANCELADO_IES';
  return {
    institutionName: institution!.name,
    installment: view!,
    principal: installment.principal,
    today,
    charges,
    provider,
    ...(payer ? { payer } : {}),
    ...(pause ? { cardPause: pause } : {}),
    ...(payable ? { quote: quote(debtOf(installment), today) } : {}),
  };
}

/**
 * The amount a charge of the installment locked in `tx` asks, the day it is priced for and how the
 * payer is named: a Pix or a card asks what is owed today; a bank slip what is owed on its due date
 * (`slipTerms`).
 */
export function chargeBasis(ctx: AppContext, installment: Installment, method: PaymentMethod) {
  assertPayable(installment);
  const label = installment.externalId ?? installment.number ?? installment.id;
  const debt = debtOf(installment);
  const today = localDate(ctx.clock.now());
  const terms = method === 'BOLETO' ? slipTerms(debt, today) : { pricedFor: today };
  return {
    amountCents: quote(debt, terms.pricedFor).total,
    description: `Parcela ${label}`,
    reference: installmentReference(installment),
    ...terms,
  };
}

export interface PaymentOptions {
  /** The sandbox's card form. */
  card?: CardInput;
  /** The payer's address: card attempts are limited per page and per address. */
  ip?: string;
  /** The bank slip form, for a provider that registers the payer. */
  payer?: PayerValues;
}

/**
 * Starts a payment of the whole amount owed: a Pix or bank slip to pay (asked again for the same
 * amount, the one still pending) or, on the sandbox's form, a card charged at once. The charge is
 * recorded under the installment's lock; the provider is asked after that commits, so a slow
 * provider holds no lock.
 */
export async function startPayment(
  ctx: AppContext,
  token: string,
  method: PaymentMethod,
  options: PaymentOptions = {},
): Promise<Charge> {
  const form =
    method === 'BOLETO' && ctx.payments.boletoNeedsAddress ? (options.payer ?? emptyPayerValues()) : undefined;
  const refused = form && checkPayerForm(form);
  if (form && refused && Object.keys(refused).length) throw new PayerFormRefused(form, refused);
  const opened = await ctx.db.transaction(async (tx) => {
    const installment = await linkedInstallment(tx, token, true);
    const basis = chargeBasis(ctx, installment, method);
    if (method !== 'CARD') {
      const charges = await ctx.payments.listCharges(tx, basis.reference);
      const pending = pendingChargeLike(charges, { method, amountCents: basis.amountCents }, ctx.clock.now());
      if (pending) return { charge: pending };
    }
    const document = installment.guarantorDocument;
    const input: CreateChargeInput = {
      method,
      ...basis,
      payer: form ? payerOfForm(document, form) : { name: null, document },
      ...(options.card ? { card: options.card } : {}),
      ...(options.ip ? { ip: options.ip } : {}),
    };
    return { charge: await ctx.payments.createCharge(tx, input), submit: input };
  });
  return submitOpened(ctx.payments, ctx.db, opened);
}

/** One of this link's charges, or the same 404 as a charge that does not exist. */
export async function chargeOfLink(ctx: AppContext, db: Queryable, token: string, chargeId: string): Promise<Charge> {
  const installment = await linkedInstallment(db, token);
  const charge = await ctx.payments.getCharge(db, chargeId);
  if (!charge || charge.reference.kind !== 'installment' || charge.reference.id !== installment.id)
    throw new ChargeOfAnotherLink(chargeId);
  return charge;
}

/** Sandbox buttons of the page: pay or expire one of this link's pending charges. */
export async function simulateOnPage(
  ctx: AppContext,
  token: string,
  chargeId: string,
  action: 'pay' | 'expire',
): Promise<Charge> {
  const sandbox = ctx.payments.sandbox;
  if (!sandbox) throw new RouteNotFound('POST', `/pay/{token}/charges/{chargeId}/simulate-${action}`);
  return ctx.db.transaction(async (tx) => {
    await chargeOfLink(ctx, tx, token, chargeId);
    return action === 'pay' ? sandbox.simulatePayment(tx, chargeId) : sandbox.simulateExpiry(tx, chargeId);
  });
}
