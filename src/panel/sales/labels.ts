import type { components } from '../../../generated/partner.js';

type FilterValue = components['schemas']['FilterValue'];
type WebhookEventName = components['schemas']['WebhookEventName'];
type DeliveryStatus = components['schemas']['WebhookDelivery']['status'];

/** What each sale event means, as the panel's timeline names it (the event's own name is shown beside it). */
export const EVENT_LABELS: Record<WebhookEventName, string> = {
  cartAbandonment: 'Carrinho abandonado',
  invoiceCreated: 'Cobrança gerada',
  invoiceExpired: 'Cobrança expirada',
  paymentDeclined: 'Pagamento recusado',
  financingDenied: 'Financiamento negado',
  guarantorNeeded: 'Avalista necessário',
  purchaseConfirmed: 'Compra confirmada',
  purchaseCancelled: 'Compra cancelada',
};

export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pendente',
  paused: 'Pausada',
  succeeded: 'Entregue',
  failed: 'Falhou',
};

/** The label of a value among the filter values of a list, or the value itself (a value the table does not know yet). */
export const labelOf = (values: readonly FilterValue[], value: string): string =>
  values.find((v) => v.value === value)?.label ?? value;
