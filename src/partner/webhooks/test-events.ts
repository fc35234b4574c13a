import type { operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { sendTestDeliveries as sendTests } from '../../webhooks/test-deliveries.js';
import { checkoutDates } from './checkout-dates.js';
import { PARTNER_WEBHOOKS, type WebhookEventName } from './events.js';

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

/**
 * One test delivery per enabled event of an active configuration (or per event of `selected`, the
 * panel's checklist, each one the configuration receives), through the normal delivery path (same
 * headers, schedule and retries), marked with `X-Webhook-Test`; in `db`'s transaction when it is one.
 */
export async function sendTestDeliveries(
  ctx: AppContext,
  partnerId: string,
  configurationId: string,
  selected?: readonly string[],
  db: Queryable = ctx.db,
): Promise<TestAnswer> {
  return (await sendTests(
    ctx,
    { recipient: { kind: 'partner', id: partnerId }, vocabulary: PARTNER_WEBHOOKS },
    configurationId,
    (event, at) => fictionalPayload(event as WebhookEventName, at),
    selected,
    'events',
    db,
  )) as TestAnswer;
}
