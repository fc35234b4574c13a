import type { AppContext } from '../../../context.js';
import { RouteNotFound } from '../../../core/errors.js';
import type { Queryable } from '../../../db/client.js';
import type { CardInput, Charge } from '../../../payments/provider.js';
import { FINANCING_METHOD, type WebhookCheckout } from '../events/event-payloads.js';
import { offeredMethods } from '../events/events.js';
import {
  type CreditDecision,
  creditDecision,
  DENIED_REASON,
  GUARANTOR_DENIED_REASON,
  guarantorApproved,
} from '../financing.js';
import { campaignPaymentMethods, findSaleByToken, type LockedSale, type SaleRow } from '../sql.js';
import { buyerDataFilled, financingDenied, financingRequested, guarantorNeeded } from '../state/sale-flow.js';
import { isOpen } from '../state/sale-states.js';
import { stateOf } from '../state/transitions.js';
import {
  buyerDataOf,
  checkPersonForm,
  cpfDigits,
  type FormErrors,
  guarantorOf,
  type PersonForm,
} from './buyer-form.js';
import {
  BuyerDataMissing,
  CardInstallmentsInvalid,
  ChargeOfAnotherSale,
  CheckoutNotFound,
  FinancingAlreadyDenied,
  MethodNotOffered,
  StepNotAvailable,
} from './checkout.rules.js';
import { createInvoice, type OpenedInvoice } from './invoices.js';
import { type CheckoutDeps, type InvoiceMethod, payerOf, saleReference } from './sale-charges.js';
import { recordActivity } from './sale-schedules.js';

/**
 * The buyer's steps at the hosted checkout. Each runs in the transaction its route opens
 * (`unit-of-work.ts` `checkoutStep`), on the sale locked there, with its charge, move, event and jobs.
 */

const TOKEN = /^c_[A-Za-z0-9_-]{24}$/;
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
export async function openCheckout(tx: Queryable, deps: Pick<AppContext, 'clock'>, token: string): Promise<SaleRow> {
  const sale = await saleOfToken(tx, token);
  if (isOpen(stateOf(sale))) await recordActivity(tx, sale.id, deps.clock.now());
  return sale;
}

/** The buyer data step: errors per field, or the sale in progress with the data saved. */
export async function submitBuyerData(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  form: PersonForm,
): Promise<FormErrors> {
  const errors = checkPersonForm(form);
  if (!errors.cpf && cpfDigits(form.cpf) !== sale.cpf) errors.cpf = 'Use o CPF desta compra.';
  if (Object.keys(errors).length) return errors;
  if (!['not_logged', 'in_progress', 'denied'].includes(sale.status))
    throw new StepNotAvailable('buyer data', sale.status);
  await buyerDataFilled(tx, deps, sale, buyerDataOf(form));
  return {};
}

/** A sale ready to pay: data filled in and the method offered; a denied financing returns to the checkout first. */
async function readyToPay(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  method: WebhookCheckout['paymentMethods'][number],
): Promise<LockedSale> {
  if (sale.status === 'not_logged' || !sale.buyerEmail) throw new BuyerDataMissing();
  if (!(await methodsOf(tx, sale)).includes(method)) throw new MethodNotOffered(method);
  if (sale.status === 'denied') return (await buyerDataFilled(tx, deps, sale, {})).sale;
  return sale;
}

export async function generateInvoice(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  method: 'pix' | 'bankSlip',
): Promise<OpenedInvoice> {
  return createInvoice(tx, deps, await readyToPay(tx, deps, sale, method), method);
}

/** The sale ready for a card: data filled in, card offered, nothing else under way. */
export async function readyForCard(tx: Queryable, deps: CheckoutDeps, sale: LockedSale): Promise<LockedSale> {
  const ready = await readyToPay(tx, deps, sale, 'creditCard');
  if (stateOf(ready) !== 'in_progress') throw new StepNotAvailable('card payment', ready.status);
  return ready;
}

/**
 * The sandbox's card form: the card is charged at once, and the charge's listener confirms the
 * purchase (approved) or sends `paymentDeclined` and allows a retry (declined), within the card
 * limits per checkout and per address.
 */
export async function payByCard(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  card: CardInput,
  ip: string,
): Promise<Charge> {
  const installments = card.installments ?? 1;
  if (!Number.isInteger(installments) || installments < 1 || installments > MAX_CARD_INSTALLMENTS)
    throw new CardInstallmentsInvalid(MAX_CARD_INSTALLMENTS);
  const ready = await readyForCard(tx, deps, sale);
  return deps.payments.createCharge(tx, {
    method: 'CARD',
    amountCents: ready.checkoutPriceInCents,
    description: `Compra ${ready.id}`,
    payer: payerOf(ready),
    reference: saleReference(ready.id),
    card,
    ip,
  });
}

/** The buyer asks for the financing: approved, guarantor needed, or denied by the CPF's analysis. */
export async function requestFinancing(tx: Queryable, deps: CheckoutDeps, sale: LockedSale): Promise<CreditDecision> {
  if (sale.status === 'denied' || sale.deniedReason) throw new FinancingAlreadyDenied();
  const ready = await readyToPay(tx, deps, sale, FINANCING_METHOD);
  const decision = creditDecision(ready.cpf);
  const requested = await financingRequested(tx, deps, ready, STEP_AFTER[decision]);
  if (decision === 'denied') await financingDenied(tx, deps, requested.sale, DENIED_REASON);
  return decision;
}

/** The approved buyer accepts the offer: the entry invoice (`invoiceCreated`). */
export async function acceptFinancing(tx: Queryable, deps: CheckoutDeps, sale: LockedSale): Promise<OpenedInvoice> {
  if (stateOf(sale) !== 'financing_analysis' || sale.financingStep !== FINANCING_STEPS.sign)
    throw new StepNotAvailable('financing acceptance', sale.status);
  return createInvoice(tx, deps, sale, FINANCING_METHOD);
}

/** The buyer names a guarantor: approved → `guarantorNeeded`; refused → `financingDenied`. */
export async function nameGuarantor(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  form: PersonForm,
): Promise<FormErrors> {
  if (stateOf(sale) !== 'financing_analysis' || sale.financingStep !== FINANCING_STEPS.guarantor)
    throw new StepNotAvailable('guarantor', sale.status);
  const errors = checkPersonForm(form);
  if (!errors.cpf && cpfDigits(form.cpf) === sale.cpf) errors.cpf = 'O avalista deve ser outra pessoa.';
  if (Object.keys(errors).length) return errors;
  const guarantor = guarantorOf(form);
  if (guarantorApproved(guarantor.personalDocument)) await guarantorNeeded(tx, deps, sale, guarantor);
  else await financingDenied(tx, deps, sale, GUARANTOR_DENIED_REASON, guarantor);
  return {};
}

/** Sandbox: the guarantor accepts and signs; the buyer reaches the entry invoice. */
export async function guarantorSigned(tx: Queryable, deps: CheckoutDeps, sale: LockedSale): Promise<OpenedInvoice> {
  if (stateOf(sale) !== 'guarantor_needed') throw new StepNotAvailable('guarantor signature', sale.status);
  return createInvoice(tx, deps, sale, FINANCING_METHOD);
}

/** One of this checkout's charges, or the same 404 as a charge that does not exist. */
export async function chargeOfCheckout(
  db: Queryable,
  deps: Pick<AppContext, 'payments'>,
  sale: SaleRow,
  chargeId: string,
): Promise<Charge> {
  const charge = await deps.payments.getCharge(db, chargeId);
  if (!charge || charge.reference.kind !== 'sale' || charge.reference.id !== String(sale.id))
    throw new ChargeOfAnotherSale(chargeId);
  return charge;
}

/** Sandbox: pays or expires an invoice of this checkout, as the bank would report it. */
export async function simulateOnCheckout(
  tx: Queryable,
  deps: Pick<AppContext, 'payments'>,
  token: string,
  chargeId: string,
  action: 'pay' | 'expire',
): Promise<Charge> {
  const sandbox = deps.payments.sandbox;
  if (!sandbox) throw new RouteNotFound('POST', `/checkout/{token}/cobrancas/{chargeId}`);
  await chargeOfCheckout(tx, deps, await saleOfToken(tx, token), chargeId);
  return action === 'pay' ? sandbox.simulatePayment(tx, chargeId) : sandbox.simulateExpiry(tx, chargeId);
}

export const chargesOf = (db: Queryable, deps: Pick<AppContext, 'payments'>, saleId: number) =>
  deps.payments.listCharges(db, saleReference(saleId));
export type { InvoiceMethod };
