import type { components } from '../../../generated/institution.js';
import type { Configuration } from '../../webhooks/configurations.js';
import type { DeliveryStatus, WebhookDelivery } from '../../webhooks/deliveries.js';

type InstitutionWebhook = components['schemas']['InstitutionWebhook'];
type InstitutionWebhookDelivery = components['schemas']['InstitutionWebhookDelivery'];
export type DeliveryStatusName = InstitutionWebhookDelivery['status'];

/** The Institution API's names of a delivery's states. */
export const DELIVERY_STATUS: Record<DeliveryStatus, DeliveryStatusName> = {
  pending: 'PENDENTE',
  paused: 'PAUSADA',
  succeeded: 'ENTREGUE',
  failed: 'FALHOU',
};

export const toInstitutionWebhook = (c: Configuration): InstitutionWebhook => ({
  id: c.id,
  nome: c.name,
  url: c.url,
  eventos: c.events,
  temTokenAutorizacao: c.hasAuthorizationToken,
  tokenAutorizacaoMascarado: c.authorizationTokenMasked,
  assinado: c.signed,
  ...(c.signingSecret ? { segredoAssinatura: c.signingSecret } : {}),
  segredoAnteriorExpiraEm: c.previousSecretExpiresAt,
  ativo: c.active,
  criadoEm: c.createdAt,
  atualizadoEm: c.updatedAt,
});

export const toInstitutionDelivery = (d: WebhookDelivery): InstitutionWebhookDelivery => ({
  id: d.id,
  eventoId: d.eventId,
  evento: d.event,
  teste: d.test,
  reenvioDe: d.redeliveryOf,
  status: DELIVERY_STATUS[d.status],
  tentativas: d.attempts.map((a) => ({
    numero: a.number,
    em: a.attemptedAt,
    codigoStatus: a.statusCode,
    erro: a.error,
    duracaoMs: a.durationMs,
    resposta: a.responseBody,
  })),
  proximaTentativa: d.nextAttemptAt,
  criadoEm: d.createdAt,
  atualizadoEm: d.updatedAt,
});
