import type { components } from '../../../generated/partner.js';
import { WebhookEventsInvalid, WebhookEventUnknown } from './errors.js';

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

export const isEventName = (name: string): name is WebhookEventName =>
  (EVENT_NAMES as readonly string[]).includes(name);

/**
 * The event names of a request as stored: unknown names refused with each one named, `all` only
 * alone, every name once.
 */
export function checkEnabledEvents(input: readonly { name: string }[]): string[] {
  const names = input.map((e) => e.name);
  const unknown = names.map((name, index) => ({ name, index })).filter((e) => e.name !== 'all' && !isEventName(e.name));
  if (unknown.length > 0) throw new WebhookEventUnknown(unknown, ['all', ...EVENT_NAMES]);
  if (new Set(names).size !== names.length || (names.includes('all') && names.length > 1))
    throw new WebhookEventsInvalid();
  return names;
}

/** The events a configuration receives. */
export function eventsOf(enabled: readonly string[]): WebhookEventName[] {
  return enabled.includes('all') ? [...EVENT_NAMES] : EVENT_NAMES.filter((name) => enabled.includes(name));
}
