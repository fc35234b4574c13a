import type { WebhookVocabulary } from '../../webhooks/vocabulary.js';

/** The events of the Institution API, in the order of its `webhooks` section. */
export const INSTITUTION_EVENT_NAMES = [
  'loteProcessado',
  'parcelaPaga',
  'parcelaPagaParcialmente',
  'parcelaVencida',
  'parcelaCancelada',
  'pagamentoEstornado',
  'pagamentoRestabelecido',
  'mesFechado',
] as const;

export type InstitutionEventName = (typeof INSTITUTION_EVENT_NAMES)[number];

/** The Institution API's words for its webhooks. */
export const INSTITUTION_WEBHOOKS: WebhookVocabulary = {
  events: INSTITUTION_EVENT_NAMES,
  fields: { url: 'url', events: 'eventos', eventName: (index) => `eventos[${index}]` },
};
