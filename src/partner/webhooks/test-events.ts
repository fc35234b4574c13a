import { randomUUID } from 'node:crypto';

import type { operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { checkoutDates } from './checkout-dates.js';
import { findConfiguration } from './configurations.js';
import { WebhookNotTestable } from './errors.js';
import { eventsOf, type WebhookEventName } from './events.js';
import { fanOutEvent } from './fan-out.js';

type TestAnswer = operations['testWebhookConfiguration']['responses'][202]['content']['application/json'];

const address = {
  city: 'São Paulo',
  state: 'SP',
  number: '100',
  street: 'Rua de Teste',
  zipCode: '01000000',
  district: 'Centro',
  complement: '',
};
const person = (name: string, email: string, document: string) => ({
  name,
  email,
  phone: '11900000000',
  personalDocument: document,
  personalDocumentType: 'CPF',
  address,
});

/** Fictional data for an event, shaped by that event's schema in the `webhooks` section. */
export function fictionalPayload(event: WebhookEventName, at: Date): Record<string, unknown> {
  const financingOnly = event === 'financingDenied' || event === 'guarantorNeeded';
  const checkout = {
    price: '1000.00',
    checkoutUrl: 'https://checkout.example.com/teste',
    saleId: 0,
    seller: null,
    ...checkoutDates({
      createdAt: at,
      updatedAt: at,
      canceledAt: event === 'purchaseCancelled' ? at : null,
      madeEffectiveAt: event === 'purchaseConfirmed' || event === 'purchaseCancelled' ? at : null,
    }),
    paymentMethods: ['bankSlip', 'pix', 'creditCard', 'creditAsAService'],
    products: [
      {
        productId: 0,
        productSku: 'TESTE-CURSO',
        productName: 'Curso de teste',
        variantId: 0,
        variantSku: 'TESTE-TURMA',
        variantName: 'Turma de teste',
        variantPrice: '1000.00',
      },
    ],
    ...(financingOnly
      ? {
          financingDetails: {
            currentStep: 'Indicação do avalista',
            deniedReason: event === 'financingDenied' ? 'Teste: risco de crédito' : null,
          },
        }
      : {}),
  };
  const payment =
    event === 'paymentDeclined'
      ? {
          paymentMethod: 'creditCard',
          creditCard: { cardBrand: 'visa', lastFourDigits: '0002', numberOfInstallments: 1 },
          declinedReason: 'Teste: cartão recusado',
        }
      : {
          paymentMethod: 'pix',
          url: 'https://checkout.example.com/teste/pix',
          dueDate: at.toISOString().slice(0, 10),
          pix: { pixQrCode: 'https://checkout.example.com/teste/pix.png', pixQrCodeText: '00020126TESTE' },
        };
  const hasPayment = !['cartAbandonment', 'financingDenied', 'guarantorNeeded'].includes(event);
  return {
    event,
    buyer: person('Comprador de Teste', 'comprador@example.com', '52998224725'),
    checkout,
    ...(hasPayment ? { payment } : {}),
    ...(event === 'paymentDeclined'
      ? {}
      : {
          guarantor:
            event === 'guarantorNeeded' ? person('Avalista de Teste', 'avalista@example.com', '11144477735') : null,
        }),
  };
}

/** The events of a test: every event the configuration receives, or those selected of them. */
function testedEvents(enabled: WebhookEventName[], selected: readonly string[] | undefined): WebhookEventName[] {
  if (selected === undefined) return enabled;
  const refuse = (message: string) =>
    new WebhookNotTestable(message, [{ path: 'events', message: 'select events the configuration receives' }]);
  if (selected.length === 0) throw refuse('Select at least one event to test');
  const other = selected.find((name) => !(enabled as readonly string[]).includes(name));
  if (other !== undefined) throw refuse(`The configuration does not receive ${other}`);
  return enabled.filter((name) => selected.includes(name));
}

/**
 * One test delivery per enabled event of an active configuration (or per event of `selected`, the
 * panel's checklist, each one the configuration receives), through the normal delivery path (same
 * headers, schedule and retries), marked with `X-Webhook-Test`.
 */
export async function sendTestDeliveries(
  ctx: AppContext,
  partnerId: string,
  configurationId: string,
  selected?: readonly string[],
): Promise<TestAnswer> {
  const configuration = await findConfiguration(ctx.db, partnerId, configurationId);
  const enabled = eventsOf(configuration.enabledEvents);
  if (!configuration.active || enabled.length === 0) throw new WebhookNotTestable();
  const names = testedEvents(enabled, selected);
  const at = ctx.clock.now();
  const events = names.map((event) => ({ eventId: randomUUID(), event }));
  await ctx.db.transaction(async (tx) => {
    for (const { eventId, event } of events) {
      await fanOutEvent(
        tx,
        { id: eventId, partnerId, name: event, sequence: 0, payload: fictionalPayload(event, at), occurredAt: at },
        { configurationId, test: true, partnerRate: ctx.config.webhookPartnerRate },
      );
    }
  });
  return { message: `${events.length} test deliver${events.length === 1 ? 'y' : 'ies'} queued`, events };
}
