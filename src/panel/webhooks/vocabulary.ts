import type { components } from '../../../generated/partner.js';
import type { WebhookEventName } from '../../partner/webhooks/events.js';

type DeliveryStatus = components['schemas']['WebhookDelivery']['status'];

/** Each event as the panel names it, and when it is sent (the interface's table of event kinds); the sales pages name events with it too. */
export const EVENT_LABELS: Record<WebhookEventName, { label: string; when: string }> = {
  cartAbandonment: {
    label: 'Carrinho abandonado',
    when: 'o comprador parou no checkout sem concluir a compra (depois de 30 minutos parado).',
  },
  invoiceCreated: {
    label: 'Cobrança gerada',
    when: 'um Pix, um boleto à vista ou a fatura de entrada do financiamento foi gerado.',
  },
  invoiceExpired: { label: 'Cobrança expirada', when: 'o Pix ou o boleto à vista venceu sem ser pago.' },
  paymentDeclined: {
    label: 'Pagamento recusado',
    when: 'uma tentativa de pagamento com cartão de crédito foi recusada (a cada tentativa).',
  },
  financingDenied: {
    label: 'Financiamento negado',
    when: 'o financiamento (boleto parcelado) foi negado por risco de crédito ou de fraude.',
  },
  guarantorNeeded: { label: 'Avalista necessário', when: 'um avalista precisa aceitar e assinar o contrato.' },
  purchaseConfirmed: {
    label: 'Compra confirmada',
    when: 'a compra se efetivou: um pagamento foi reconhecido (boleto, Pix, cartão ou entrada do financiamento).',
  },
  purchaseCancelled: {
    label: 'Compra cancelada',
    when: 'a compra foi cancelada depois de confirmada, ou um pagamento com cartão foi estornado ou contestado.',
  },
};

export const ALL_EVENTS_LABEL = 'Todos os eventos, inclusive os que forem criados depois';

/** An event name as stored (`all` or an event), as the panel shows it. */
export const eventLabel = (name: string): string =>
  name === 'all' ? 'Todos os eventos' : (EVENT_LABELS[name as WebhookEventName]?.label ?? name);

/** A delivery's status as the panel names it (the log, a delivery's page, a sale's timeline). */
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pendente',
  paused: 'Pausada',
  succeeded: 'Entregue',
  failed: 'Falhou',
};
