import type { components } from '../../../generated/partner.js';
import type { InstitutionEventName } from '../../institution/events/vocabulary.js';
import type { WebhookEventName } from '../../partner/webhooks/events.js';

type DeliveryStatus = components['schemas']['WebhookDelivery']['status'];

/** Each event as the panel names it, and when it is sent (the interface's table of event kinds); the sales pages name events with it too. */
const EVENT_LABELS: Record<WebhookEventName, { label: string; when: string }> = {
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

/** The Institution API's events as a university's pages name them, and when each is sent. */
const INSTITUTION_EVENT_LABELS: Record<InstitutionEventName, { label: string; when: string }> = {
  loteProcessado: { label: 'Lote processado', when: 'um lote de alunos ou de parcelas terminou de ser processado.' },
  parcelaPaga: { label: 'Parcela paga', when: 'uma parcela foi paga por inteiro.' },
  parcelaPagaParcialmente: {
    label: 'Parcela paga em parte',
    when: 'uma parcela recebeu um pagamento que não a quita.',
  },
  parcelaVencida: { label: 'Parcela vencida', when: 'uma parcela passou do vencimento sem ser paga.' },
  parcelaCancelada: { label: 'Parcela cancelada', when: 'uma parcela foi cancelada por um lote.' },
  pagamentoEstornado: { label: 'Pagamento estornado', when: 'um pagamento de parcela foi estornado.' },
  pagamentoRestabelecido: {
    label: 'Pagamento restabelecido',
    when: 'um pagamento estornado voltou a valer.',
  },
  mesFechado: { label: 'Mês fechado', when: 'os extratos de um mês foram fechados.' },
};

/** Both APIs' events by name (no name is in both). */
const LABELS: Record<string, { label: string; when: string }> = { ...EVENT_LABELS, ...INSTITUTION_EVENT_LABELS };

/** An event of either API as the panel names it; an unknown name as itself. */
export const eventInfo = (name: string): { label: string; when: string } =>
  Object.hasOwn(LABELS, name) ? LABELS[name]! : { label: name, when: '' };

export const ALL_EVENTS_LABEL = 'Todos os eventos, inclusive os que forem criados depois';

/** An event name as stored (`all` or an event), as the panel shows it. */
export const eventLabel = (name: string): string => (name === 'all' ? 'Todos os eventos' : eventInfo(name).label);

/** A delivery's status as the panel names it (the log, a delivery's page, a sale's timeline). */
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pendente',
  paused: 'Pausada',
  succeeded: 'Entregue',
  failed: 'Falhou',
};
