import type { AppContext } from '../../../context.js';
import { RouteNotFound } from '../../../core/errors.js';
import type { Queryable } from '../../../db/client.js';
import type { CardInput, Charge } from '../../../payments/provider.js';
import { FINANCING_METHOD, type WebhookCheckout } from '../events/event-payloads.js';
import { offeredMethods } from '../events/events.js';
import { buyerDataFilled, financingDenied, financingRequested, guarantorNeeded } from '../state/sale-flow.js';
import { campaignPaymentMethods, findSaleByToken, lockSale, type SaleRow } from '../sql.js';
import { stateOf } from '../state/transitions.js';
import {
  buyerDataOf,
  checkPersonForm,
  cpfDigits,
  guarantorOf,
  type FormErrors,
  type PersonForm,
} from './buyer-form.js';
import {
  BuyerDataMissing,
  CardInstallmentsInvalid,
  ChargeOfAnotherSale,
  CheckoutClosed,
  CheckoutNotFound,
  FinancingAlreadyDenied,
  MethodNotOffered,
  StepNotAvailable,
} from './checkout.rules.js';
import {
  creditDecision,
  type CreditDecision,
  DENIED_REASON,
  GUARANTOR_DENIED_REASON,
  guarantorApproved,
} from '../financing.js';
import { createInvoice, payerOf, saleReference, type InvoiceMethod } from './sale-charges.js';
import { inTransaction } from '../state/sale-context.js';
import { recordActivity } from './sale-schedules.js';

/** The buyer's steps at the hosted checkout; each runs in one transaction with its charge, move, event and jobs. */

const TOKEN = /^c_[A-Za-z0-9_-]{24}$/;
const CLOSED = ['made_effective', 'canceled', 'canceled_by_partner', 'expired'];
export const FINANCING_STEPS = {
  basicInfo: 'Informações básicas do aluno',
  sign: 'Assinatura do contrato',
  guarantor: 'Indicação do avalista',
} as const;

/** Where the credit decision leaves the buyer: a denial leaves them on the step they were on. */
const STEP_AFTER: Record<CreditDecision, string> = {
  approved: FINANCING_STEPS.sign,
  guarantor: FINANCING_STEPS.guarantor,
  denied: FINANCING_STEPS.basicInfo,
};
export const MAX_CARD_INSTALLMENTS = 12;

export async function saleOfToken(db: Queryable, token: string): Promise<SaleRow> {
  const sale = TOKEN.test(token) ? await findSaleByToken(db, token) : undefined;
  if (!sale) throw new CheckoutNotFound();
  return sale;
}

export async function methodsOf(db: Queryable, sale: SaleRow): Promise<WebhookCheckout['paymentMethods']> {
  return offeredMethods(sale, sale.campaignId ? await campaignPaymentMethods(db, sale.campaignId) : undefined);
}

/** Opening the page counts as activity of the buyer. */
export async function openCheckout(ctx: AppContext, token: string): Promise<SaleRow> {
  const sale = await saleOfToken(ctx.db, token);
  if (!CLOSED.includes(sale.status)) await ctx.db.transaction((tx) => recordActivity(tx, sale.id, ctx.clock.now()));
  return sale;
}

/** Runs a step on the locked, still open sale of `token`, recording the buyer's activity. */
export async function step<T>(
  ctx: AppContext,
  token: string,
  run: (tx: Queryable, sale: SaleRow, txCtx: AppContext) => Promise<T>,
): Promise<T> {
  const { id } = await saleOfToken(ctx.db, token);
  return ctx.db.transaction(async (tx) => {
    const sale = (await lockSale(tx, id))!;
    if (CLOSED.includes(sale.status)) throw new CheckoutClosed(sale.status);
    await recordActivity(tx, sale.id, ctx.clock.now());
    return run(tx, sale, inTransaction(ctx, tx));
  });
}

/** The buyer data step: errors per field, or the sale in progress with the data saved. */
export function submitBuyerData(ctx: AppContext, token: string, form: PersonForm): Promise<FormErrors> {
  return step(ctx, token, async (_tx, sale, txCtx) => {
    const errors = checkPersonForm(form);
    if (!errors.cpf && cpfDigits(form.cpf) !== sale.cpf) errors.cpf = 'Use o CPF desta compra.';
    if (Object.keys(errors).length) return errors;
    if (!['not_logged', 'in_progress', 'denied'].includes(sale.status))
      throw new StepNotAvailable('buyer data', sale.status);
    await buyerDataFilled(txCtx, sale.id, buyerDataOf(form));
    return {};
  });
}

/** A sale ready to pay: data filled in and the method offered; a denied financing returns to the checkout first. */
async function readyToPay(
  tx: Queryable,
  txCtx: AppContext,
  sale: SaleRow,
  method: WebhookCheckout['paymentMethods'][number],
): Promise<SaleRow> {
  if (sale.status === 'not_logged' || !sale.buyerEmail) throw new BuyerDataMissing();
  if (!(await methodsOf(tx, sale)).includes(method)) throw new MethodNotOffered(method);
  if (sale.status === 'denied') return (await buyerDataFilled(txCtx, sale.id, {})).sale;
  return sale;
}

export function generateInvoice(ctx: AppContext, token: string, method: 'pix' | 'bankSlip'): Promise<Charge> {
  return step(ctx, token, async (tx, sale, txCtx) =>
    createInvoice(ctx, tx, ctx.payments, await readyToPay(tx, txCtx, sale, method), method),
  );
}

/** The sale ready for a card: data filled in, card offered, nothing else under way. */
export async function readyForCard(tx: Queryable, txCtx: AppContext, sale: SaleRow): Promise<SaleRow> {
  const ready = await readyToPay(tx, txCtx, sale, 'creditCard');
  if (stateOf(ready) !== 'in_progress') throw new StepNotAvailable('card payment', ready.status);
  return ready;
}

/**
 * The sandbox's card form: the card is charged at once, and the charge's listener confirms the
 * purchase (approved) or sends `paymentDeclined` and allows a retry (declined), within the card
 * limits per checkout and per address.
 */
export function payByCard(ctx: AppContext, token: string, card: CardInput, ip: string): Promise<Charge> {
  return step(ctx, token, async (tx, sale, txCtx) => {
    const installments = card.installments ?? 1;
    if (!Number.isInteger(installments) || installments < 1 || installments > MAX_CARD_INSTALLMENTS)
      throw new CardInstallmentsInvalid(MAX_CARD_INSTALLMENTS);
    const ready = await readyForCard(tx, txCtx, sale);
    return ctx.payments.createCharge(tx, {
      method: 'CARD',
      amountCents: ready.checkoutPriceInCents,
      description: `Compra ${ready.id}`,
      payer: payerOf(ready),
      reference: saleReference(ready.id),
      card,
      ip,
    });
  });
}

/** The buyer asks for the financing: approved, guarantor needed, or denied by the CPF's analysis. */
export function requestFinancing(ctx: AppContext, token: string): Promise<CreditDecision> {
  return step(ctx, token, async (tx, sale, txCtx) => {
    if (sale.status === 'denied' || sale.deniedReason) throw new FinancingAlreadyDenied();
    const ready = await readyToPay(tx, txCtx, sale, FINANCING_METHOD);
    const decision = creditDecision(ready.cpf);
    await financingRequested(txCtx, ready.id, STEP_AFTER[decision]);
    if (decision === 'denied') await financingDenied(txCtx, ready.id, DENIED_REASON);
    return decision;
  });
}

/** The approved buyer accepts the offer: the entry invoice (`invoiceCreated`). */
export function acceptFinancing(ctx: AppContext, token: string): Promise<Charge> {
  return step(ctx, token, async (tx, sale) => {
    if (stateOf(sale) !== 'financing_analysis' || sale.financingStep !== FINANCING_STEPS.sign)
      throw new StepNotAvailable('financing acceptance', sale.status);
    return createInvoice(ctx, tx, ctx.payments, sale, FINANCING_METHOD);
  });
}

/** The buyer names a guarantor: approved → `guarantorNeeded`; refused → `financingDenied`. */
export function nameGuarantor(ctx: AppContext, token: string, form: PersonForm): Promise<FormErrors> {
  return step(ctx, token, async (_tx, sale, txCtx) => {
    if (stateOf(sale) !== 'financing_analysis' || sale.financingStep !== FINANCING_STEPS.guarantor)
      throw new StepNotAvailable('guarantor', sale.status);
    const errors = checkPersonForm(form);
    if (!errors.cpf && cpfDigits(form.cpf) === sale.cpf) errors.cpf = 'O avalista deve ser outra pessoa.';
    if (Object.keys(errors).length) return errors;
    const guarantor = guarantorOf(form);
    if (guarantorApproved(guarantor.personalDocument)) await guarantorNeeded(txCtx, sale.id, guarantor);
    else await financingDenied(txCtx, sale.id, GUARANTOR_DENIED_REASON);
    return {};
  });
}

/** Sandbox: the guarantor accepts and signs; the buyer reaches the entry invoice. */
export function guarantorSigned(ctx: AppContext, token: string): Promise<Charge> {
  return step(ctx, token, async (tx, sale) => {
    if (stateOf(sale) !== 'guarantor_needed') throw new StepNotAvailable('guarantor signature', sale.status);
    return createInvoice(ctx, tx, ctx.payments, sale, FINANCING_METHOD);
  });
}

/** One of this checkout's charges, or the same 404 as a charge that does not exist. */
export async function chargeOfCheckout(
  ctx: AppContext,
  db: Queryable,
  sale: SaleRow,
  chargeId: string,
): Promise<Charge> {
  const charge = await ctx.payments.getCharge(db, chargeId);
  if (!charge || charge.reference.kind !== 'sale' || charge.reference.id !== String(sale.id))
    throw new ChargeOfAnotherSale(chargeId);
  return charge;
}

/** Sandbox: pays or expires an invoice of this checkout, as the bank would report it. */
export async function simulateOnCheckout(
  ctx: AppContext,
  token: string,
  chargeId: string,
  action: 'pay' | 'expire',
): Promise<Charge> {
  const sandbox = ctx.payments.sandbox;
  if (!sandbox) throw new RouteNotFound('POST', `/checkout/{token}/cobrancas/{chargeId}`);
  const sale = await saleOfToken(ctx.db, token);
  return ctx.db.transaction(async (tx) => {
    await chargeOfCheckout(ctx, tx, sale, chargeId);
    return action === 'pay' ? sandbox.simulatePayment(tx, chargeId) : sandbox.simulateExpiry(tx, chargeId);
  });
}

export const chargesOf = (ctx: AppContext, saleId: number) => ctx.payments.listCharges(ctx.db, saleReference(saleId));
export type { InvoiceMethod };
