import { WebhookEventsInvalid, WebhookEventUnknown } from './errors.js';
import type { WebhookVocabulary } from './vocabulary.js';

/**
 * The event names of a request as stored: unknown names refused with each one named, `all` only
 * alone, every name once.
 */
export function checkEnabledEvents(names: readonly string[], vocabulary: WebhookVocabulary): string[] {
  const known = (name: string) => vocabulary.events.includes(name);
  const unknown = names.map((name, index) => ({ name, index })).filter((e) => e.name !== 'all' && !known(e.name));
  const { fields } = vocabulary;
  if (unknown.length > 0)
    throw new WebhookEventUnknown(unknown, ['all', ...vocabulary.events], fields.events, fields.eventName);
  if (new Set(names).size !== names.length || (names.includes('all') && names.length > 1))
    throw new WebhookEventsInvalid(fields.events);
  return [...names];
}

/** The events a configuration receives, in the vocabulary's order. */
export function eventsOf(enabled: readonly string[], vocabulary: Pick<WebhookVocabulary, 'events'>): string[] {
  return enabled.includes('all') ? [...vocabulary.events] : vocabulary.events.filter((name) => enabled.includes(name));
}
