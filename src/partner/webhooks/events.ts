import type { components } from '../../../generated/partner.js';
import { eventsOf as eventsOfVocabulary } from '../../webhooks/event-names.js';
import type { WebhookVocabulary } from '../../webhooks/vocabulary.js';

export type WebhookEventName = components['schemas']['WebhookEventName'];
export type EnabledEvent = components['schemas']['WebhookEnabledEvent'];

/** Every event of the `webhooks` section, in the order of the interface's table. */
export const EVENT_NAMES: readonly WebhookEventName[] = [
  'cartAbandonment',
  'invoiceCreated',
  'invoiceExpired',
  'paymentDeclined',
  'financingDenied',
  'guarantorNeeded',
  'purchaseConfirmed',
  'purchaseCancelled',
];

/** The Partner API's words for its webhooks. */
export const PARTNER_WEBHOOKS: WebhookVocabulary = {
  events: EVENT_NAMES,
  fields: { url: 'webhookUrl', events: 'enabledEvents', eventName: (index) => `enabledEvents[${index}].name` },
};

/** The events a configuration receives. */
export const eventsOf = (enabled: readonly string[]): WebhookEventName[] =>
  eventsOfVocabulary(enabled, PARTNER_WEBHOOKS) as WebhookEventName[];
