import { randomUUID } from 'node:crypto';

import type { Config } from '../../../config.js';
import { ApiError } from '../../../core/errors.js';
import type { Queryable } from '../../../db/client.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { saleEvents } from '../../../db/schema/index.js';
import { fanOutEvent } from '../../../webhooks/fan-out.js';
import { saleFinancing } from '../financing.js';
import { campaignPaymentMethods, loadSaleProducts, nextEventSequence, type SaleRow } from '../sql.js';
import {
  buildEventPayload,
  type EventFacts,
  type SaleEventName,
  type SaleEventPayload,
  type WebhookCheckout,
  type WebhookFinancing,
  type WebhookPayment,
  type WebhookPerson,
} from './event-payloads.js';

/** An event of the once-per-sale kind that the sale already has: the transition is undone. */
export class SaleEventAlreadySent extends ApiError {
  constructor(saleId: number, name: string) {
    super(400, 'SALE-012', `Sale ${saleId} already sent ${name}, which is sent at most once per sale`);
  }
}

export const checkoutUrlOf = (config: Pick<Config, 'publicBaseUrl'>, token: string) =>
  `${config.publicBaseUrl}/checkout/${token}`;

/** Campaign `payment_methods` → the events' `paymentMethods`, in the events' order. */
const EVENT_METHODS: [string, WebhookCheckout['paymentMethods'][number]][] = [
  ['Boleto', 'bankSlip'],
  ['Pix', 'pix'],
  ['CreditCard', 'creditCard'],
  ['CourseFinancing', 'creditAsAService'],
];

/**
 * The methods a sale offers: the campaign's, or all; the financing only when the sale has an offer
 * (something left to finance after the entry, see `simulateFinancing`).
 */
export function offeredMethods(
  sale: Parameters<typeof saleFinancing>[0],
  campaignMethods: string[] | undefined,
): WebhookCheckout['paymentMethods'] {
  const financeable = saleFinancing(sale) !== undefined;
  return EVENT_METHODS.filter(
    ([name]) => (!campaignMethods || campaignMethods.includes(name)) && (financeable || name !== 'CourseFinancing'),
  ).map(([, method]) => method);
}

/** The seller of the events: the sale's consultant, else the creator when it is a consultant's e-mail. */
const sellerOf = (sale: SaleRow) => sale.consultantId ?? (sale.creator.includes('@') ? sale.creator : null);

/** What an event says about a sale, read in the transaction of the event. */
export async function loadEventFacts(
  db: Queryable,
  config: Pick<Config, 'publicBaseUrl'>,
  sale: SaleRow,
): Promise<EventFacts> {
  const products = (await loadSaleProducts(db, [sale.id])).get(sale.id) ?? [];
  const methods = sale.campaignId ? await campaignPaymentMethods(db, sale.campaignId) : undefined;
  return {
    saleId: sale.id,
    priceInCents: sale.checkoutPriceInCents,
    checkoutUrl: checkoutUrlOf(config, sale.checkoutToken),
    seller: sellerOf(sale),
    createdAt: sale.createdAt,
    updatedAt: sale.updatedAt,
    canceledAt: sale.canceledAt,
    madeEffectiveAt: sale.madeEffectiveAt,
    paymentMethods: offeredMethods(sale, methods),
    products: products.map(({ modalityId: _m, periodId: _p, ...product }) => product),
    buyer: {
      name: sale.buyerName,
      email: sale.buyerEmail,
      phone: sale.buyerPhone,
      cpf: sale.cpf,
      address: {
        city: sale.buyerCity,
        state: sale.buyerState,
        number: sale.buyerNumber,
        street: sale.buyerStreet,
        zipCode: sale.buyerZipCode,
        district: sale.buyerDistrict,
        complement: sale.buyerComplement,
      },
    },
    paymentMethod: sale.paymentMethod,
    payment: sale.payment as WebhookPayment | null,
    financing: sale.financing as WebhookFinancing | null,
    guarantor: sale.guarantor as WebhookPerson | null,
    financingStep: sale.financingStep,
    deniedReason: sale.deniedReason,
  };
}

export interface StoredEvent {
  id: string;
  sequence: number;
  name: SaleEventName;
  payload: SaleEventPayload;
}

/**
 * Stores one event of a sale, immutable, with the partner's next `sequence`, and fans it out to
 * the partner's webhook configurations; call it inside the transaction of the change that causes
 * it, so the change, its event and its deliveries commit together or not at all. A second
 * once-per-sale event of the sale is refused by the unique index, which aborts that transaction.
 *
 * The port to webhooks is the plain function `fanOutEvent`, imported from here: sales know the
 * webhook engine, the engine never imports sales (it takes the event as a `TenantEvent` value).
 */
export async function storeEvent(
  tx: Queryable,
  config: Pick<Config, 'publicBaseUrl' | 'webhookPartnerRate'>,
  sale: SaleRow,
  name: SaleEventName,
  at: Date,
): Promise<StoredEvent> {
  const facts = await loadEventFacts(tx, config, sale);
  const id = randomUUID();
  const sequence = await nextEventSequence(tx, sale.partnerId);
  const payload = buildEventPayload(name, facts, { id, sequence });
  try {
    await tx
      .insert(saleEvents)
      .values({ id, partnerId: sale.partnerId, saleId: sale.id, name, sequence, payload, createdAt: at });
  } catch (error) {
    if (isUniqueViolation(error, 'sale_events_once_per_sale')) throw new SaleEventAlreadySent(sale.id, name);
    throw error;
  }
  await fanOutEvent(
    tx,
    { id, recipient: { kind: 'partner', id: sale.partnerId }, name, sequence, payload, occurredAt: at },
    { tenantRate: config.webhookPartnerRate },
  );
  return { id, sequence, name, payload };
}
