import type { components } from '../../../../generated/partner.js';
import { formatCents } from '../../../core/money.js';
import { checkoutDates } from '../../webhooks/checkout-dates.js';
import type { ProductFacts } from '../sql.js';

type Schemas = components['schemas'];
export type WebhookPerson = Schemas['WebhookPerson'];
export type WebhookCheckout = Schemas['WebhookCheckout'];
export type WebhookPayment = Schemas['WebhookPayment'];
export type WebhookFinancing = Schemas['WebhookFinancing'];
export type SaleEventName = Schemas['WebhookEventName'];

/** The events sent at most once per sale (the unique index `sale_events_once_per_sale` holds them to it). */
export const ONCE_PER_SALE: readonly SaleEventName[] = [
  'cartAbandonment',
  'financingDenied',
  'guarantorNeeded',
  'purchaseConfirmed',
  'purchaseCancelled',
];

const WITH_PAYMENT: readonly SaleEventName[] = [
  'invoiceCreated',
  'invoiceExpired',
  'paymentDeclined',
  'purchaseConfirmed',
  'purchaseCancelled',
];
const WITH_FINANCING: readonly SaleEventName[] = ['purchaseConfirmed', 'purchaseCancelled'];

/** `paymentMethod` of a financing (installment bank slip) sale. */
export const FINANCING_METHOD = 'creditAsAService';

/** Everything an event payload says, read from the sale at the moment of the event. */
export interface EventFacts {
  saleId: number;
  priceInCents: number;
  checkoutUrl: string;
  seller: string | null;
  createdAt: Date;
  updatedAt: Date;
  canceledAt: Date | null;
  madeEffectiveAt: Date | null;
  paymentMethods: WebhookCheckout['paymentMethods'];
  products: ProductFacts[];
  buyer: { name: string; email: string; phone: string; cpf: string; address: WebhookPerson['address'] };
  /** Method chosen; `creditAsAService` makes it a financing sale. */
  paymentMethod: string | null;
  payment: WebhookPayment | null;
  financing: WebhookFinancing | null;
  guarantor: WebhookPerson | null;
  financingStep: string | null;
  deniedReason: string | null;
}

export interface EventMeta {
  id: string;
  sequence: number;
}

export type SaleEventPayload = Schemas['WebhookEventBase'] & {
  payment?: (WebhookPayment & { financing?: WebhookFinancing }) | null;
  guarantor?: WebhookPerson | null;
};

function checkoutOf(f: EventFacts): WebhookCheckout {
  const checkout: WebhookCheckout = {
    price: formatCents(f.priceInCents),
    checkoutUrl: f.checkoutUrl,
    saleId: f.saleId,
    seller: f.seller,
    ...checkoutDates(f),
    paymentMethods: f.paymentMethods,
    // The spec: currently a single item even for a sale of several products.
    products: f.products.slice(0, 1).map((p) => ({
      productId: p.courseId,
      productSku: p.courseSku ?? '',
      productName: p.courseName,
      variantId: p.classId,
      variantSku: p.classSku ?? '',
      variantName: p.className,
      variantPrice: formatCents(p.priceInCents),
    })),
  };
  if (f.paymentMethod === FINANCING_METHOD)
    checkout.financingDetails = { currentStep: f.financingStep, deniedReason: f.deniedReason };
  return checkout;
}

/**
 * The payload of one event, with the spec's presence rules: `payment` (null when none is linked)
 * only in the payment events, with `financing` in confirmations and cancellations of financing
 * sales; `guarantor` (null when none) in every event but `paymentDeclined`.
 */
export function buildEventPayload(name: SaleEventName, facts: EventFacts, meta: EventMeta): SaleEventPayload {
  const payload: SaleEventPayload = {
    id: meta.id,
    sequence: meta.sequence,
    event: name,
    buyer: {
      name: facts.buyer.name,
      email: facts.buyer.email,
      phone: facts.buyer.phone,
      personalDocument: facts.buyer.cpf,
      personalDocumentType: 'CPF',
      address: facts.buyer.address,
    },
    checkout: checkoutOf(facts),
  };
  if (WITH_PAYMENT.includes(name)) {
    const financing =
      WITH_FINANCING.includes(name) && facts.paymentMethod === FINANCING_METHOD ? facts.financing : null;
    payload.payment = facts.payment ? { ...facts.payment, ...(financing ? { financing } : {}) } : null;
  }
  if (name !== 'paymentDeclined') payload.guarantor = facts.guarantor;
  return payload;
}
