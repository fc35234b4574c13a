import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import { closeSaleCharges } from '../../../payments/siblings.js';
import {
  FINANCING_METHOD,
  type WebhookFinancing,
  type WebhookPayment,
  type WebhookPerson,
} from '../events/event-payloads.js';
import type { LockedSale } from '../sql.js';
import { applyTransition, stateOf, type TransitionRequest, type TransitionResult } from './transitions.js';

/**
 * The steps of a sale, for the hosted checkout and the payment flows. Each takes the caller's
 * transaction (`tx`) and the sale already locked in it (`withLockedSale`, or a listener's
 * `lockSale`), moves it through the state machine and stores the event the spec names; none opens
 * a transaction or locks the sale again.
 */

/** What a step needs besides its transaction. */
export type SaleDeps = Pick<AppContext, 'config' | 'clock' | 'saleLedger'>;

const runStep = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  decide: (sale: LockedSale) => TransitionRequest,
): Promise<TransitionResult> => applyTransition(tx, deps, sale, decide(sale));

export interface BuyerData {
  name?: string;
  email?: string;
  phone?: string;
  zipCode?: string;
  street?: string;
  number?: string;
  district?: string;
  city?: string;
  state?: string;
  complement?: string;
}

/** Lower case without accents, for the list's partial name match. */
export const nameKeyOf = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The buyer columns of some buyer data, with the search keys that follow from them. */
export function buyerColumns(buyer: BuyerData) {
  const set: Record<string, string> = {};
  const columns = {
    name: 'buyerName',
    email: 'buyerEmail',
    phone: 'buyerPhone',
    zipCode: 'buyerZipCode',
    street: 'buyerStreet',
    number: 'buyerNumber',
    district: 'buyerDistrict',
    city: 'buyerCity',
    state: 'buyerState',
    complement: 'buyerComplement',
  } as const;
  for (const [field, column] of Object.entries(columns)) {
    const value = buyer[field as keyof BuyerData];
    if (value !== undefined) set[column] = value.trim();
  }
  if (buyer.name !== undefined) set.nameKey = nameKeyOf(buyer.name.trim());
  if (buyer.email !== undefined) set.emailKey = buyer.email.trim().toLowerCase();
  return set;
}

/** The buyer opened the checkout and filled in (or corrected) their data. No event. */
export const buyerDataFilled = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  buyer: BuyerData,
): Promise<TransitionResult> => runStep(tx, deps, sale, () => ({ to: 'in_progress', set: buyerColumns(buyer) }));

const invoiceColumns = (payment: WebhookPayment) => ({
  payment,
  paymentMethod: payment.paymentMethod,
  ...(payment.paymentMethod === FINANCING_METHOD ? { financingStep: 'Pagamento da entrada' } : {}),
});

/** A Pix, an at-sight bank slip or the financing entry invoice was generated: `invoiceCreated`. */
export const invoiceCreated = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  payment: WebhookPayment,
): Promise<TransitionResult> =>
  runStep(tx, deps, sale, () => ({ to: 'waiting_payment', set: invoiceColumns(payment), event: 'invoiceCreated' }));

/** The buyer asked again for an invoice still pending: the sale waits for it again, with no second `invoiceCreated`. */
export const invoiceChosenAgain = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  payment: WebhookPayment,
): Promise<TransitionResult> =>
  runStep(tx, deps, sale, () => ({ to: 'waiting_payment', set: invoiceColumns(payment) }));

/** The Pix or bank slip expired unpaid; the buyer is back at the checkout: `invoiceExpired`. */
export const invoiceExpired = (tx: Queryable, deps: SaleDeps, sale: LockedSale): Promise<TransitionResult> =>
  runStep(tx, deps, sale, () => ({ to: 'in_progress', event: 'invoiceExpired' }));

export interface DeclinedCard {
  reason: string;
  cardBrand?: string;
  lastFourDigits?: string;
  numberOfInstallments: number;
}

/** A card payment attempt was declined; sent at every attempt: `paymentDeclined`. */
export const paymentDeclined = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  card: DeclinedCard,
): Promise<TransitionResult> =>
  runStep(tx, deps, sale, () => {
    const creditCard: NonNullable<WebhookPayment['creditCard']> = { numberOfInstallments: card.numberOfInstallments };
    if (card.cardBrand) creditCard.cardBrand = card.cardBrand;
    if (card.lastFourDigits) creditCard.lastFourDigits = card.lastFourDigits;
    return {
      to: 'in_progress',
      set: {
        paymentMethod: 'creditCard',
        payment: { paymentMethod: 'creditCard', creditCard, declinedReason: card.reason },
      },
      event: 'paymentDeclined',
    };
  });

/** The buyer asked for the installment bank slip (financing); credit analysis starts. No event. */
export const financingRequested = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  step = 'Informações básicas do aluno',
): Promise<TransitionResult> =>
  runStep(tx, deps, sale, () => ({
    to: 'financing_analysis',
    set: { paymentMethod: FINANCING_METHOD, financingStep: step, payment: null },
  }));

/** The financing was denied for credit or fraud risk: `financingDenied`. */
export const financingDenied = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  reason: string,
  /** The guarantor named and refused: the event carries who was refused. (Default: the sale's, if any) */
  guarantor?: WebhookPerson,
): Promise<TransitionResult> =>
  runStep(tx, deps, sale, () => ({
    to: 'denied',
    set: { deniedReason: reason, ...(guarantor ? { guarantor } : {}) },
    event: 'financingDenied',
  }));

/** The guarantor named by the buyer was approved and must accept and sign: `guarantorNeeded`. */
export const guarantorNeeded = (
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  guarantor: WebhookPerson,
): Promise<TransitionResult> =>
  runStep(tx, deps, sale, () => ({
    to: 'guarantor_needed',
    set: { guarantor, financingStep: 'Documentos do avalista' },
    event: 'guarantorNeeded',
  }));

export interface Paid {
  /** The payment recognized; the linked invoice when absent. */
  payment?: WebhookPayment;
  /** The financing contract, for installment bank slip sales. */
  financing?: WebhookFinancing;
}

/** A payment was recognized and the purchase became effective: `purchaseConfirmed`. */
export async function purchaseConfirmed(
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  paid: Paid = {},
): Promise<TransitionResult> {
  const confirmed = await runStep(tx, deps, sale, () => ({
    to: 'made_effective',
    set: {
      madeEffectiveAt: deps.clock.now(),
      ...(paid.payment ? { payment: paid.payment, paymentMethod: paid.payment.paymentMethod } : {}),
      ...(paid.financing ? { financing: paid.financing } : {}),
    },
    event: 'purchaseConfirmed',
  }));
  // The receipt (installments, commission, the confirming payment) commits with the confirmation.
  await deps.saleLedger.opened(tx, confirmed.sale);
  return confirmed;
}

/**
 * A move that ends the sale: the charges still open for it (a Pix, a bank slip, a card session)
 * end in the same transaction, so that nothing is paid for a sale that is over.
 */
async function closingStep(
  tx: Queryable,
  deps: SaleDeps,
  sale: LockedSale,
  request: TransitionRequest,
): Promise<TransitionResult> {
  const result = await runStep(tx, deps, sale, () => request);
  await closeSaleCharges(tx, sale.id, deps.clock.now());
  return result;
}

/** Cancelled after confirmation (buyer or partner asked, refund, chargeback): `purchaseCancelled`. */
export const purchaseCancelled = (tx: Queryable, deps: SaleDeps, sale: LockedSale): Promise<TransitionResult> =>
  closingStep(tx, deps, sale, {
    to: 'canceled',
    set: { canceledAt: deps.clock.now(), financingStep: null },
    event: 'purchaseCancelled',
  });

/** The partner cancelled the sale before it was made effective. No event. */
export const cancelByPartner = (tx: Queryable, deps: SaleDeps, sale: LockedSale): Promise<TransitionResult> =>
  closingStep(tx, deps, sale, { to: 'canceled_by_partner', set: { canceledAt: deps.clock.now() } });

/** The checkout deadline passed without the sale being made effective. No event. */
export const expireSale = (tx: Queryable, deps: SaleDeps, sale: LockedSale): Promise<TransitionResult> =>
  closingStep(tx, deps, sale, { to: 'expired' });

/**
 * The buyer stopped at the checkout (the idle and activity rules are the checkout's): the sale
 * keeps its state and `cartAbandonment` is stored, at most once per sale.
 */
export const cartAbandoned = (tx: Queryable, deps: SaleDeps, sale: LockedSale): Promise<TransitionResult> =>
  runStep(tx, deps, sale, (now) => ({ to: stateOf(now), event: 'cartAbandonment' }));
