import { randomUUID } from 'node:crypto';

import type { AppContext } from '../context.js';
import type { Queryable } from '../db/client.js';
import { findConfiguration } from './configurations.js';
import { WebhookNotTestable } from './errors.js';
import { eventsOf } from './event-names.js';
import { fanOutEvent } from './fan-out.js';
import type { Audience } from './vocabulary.js';

/** Fictional data for an event of the API, shaped as the event's schema says. */
export type SamplePayload = (event: string, at: Date, eventId: string) => unknown;

export interface TestDeliveries {
  message: string;
  events: { eventId: string; event: string }[];
}

/** The events of a test: every event the configuration receives, or those selected of them. */
function testedEvents(enabled: string[], selected: readonly string[] | undefined, field: string): string[] {
  if (selected === undefined) return enabled;
  const refuse = (message: string) =>
    new WebhookNotTestable(message, [{ path: field, message: 'select events the configuration receives' }]);
  if (selected.length === 0) throw refuse('Select at least one event to test');
  const other = selected.find((name) => !enabled.includes(name));
  if (other !== undefined) throw refuse(`The configuration does not receive ${other}`);
  return enabled.filter((name) => selected.includes(name));
}

/**
 * One test delivery per enabled event of an active configuration (or per event of `selected`, each
 * one the configuration receives), through the normal delivery path (same headers, schedule and
 * retries), marked with `X-Webhook-Test`. `field`: where `selected` came from, for the refusal; `db`:
 * a transaction to run in (a savepoint of it).
 */
export async function sendTestDeliveries(
  ctx: AppContext,
  audience: Audience,
  configurationId: string,
  sample: SamplePayload,
  selected?: readonly string[],
  field = 'events',
  db: Queryable = ctx.db,
): Promise<TestDeliveries> {
  const configuration = await findConfiguration(db, audience.recipient, configurationId);
  const enabled = eventsOf(configuration.enabledEvents, audience.vocabulary);
  if (!configuration.active || enabled.length === 0) throw new WebhookNotTestable();
  const names = testedEvents(enabled, selected, field);
  const at = ctx.clock.now();
  const events = names.map((event) => ({ eventId: randomUUID(), event }));
  await db.transaction(async (tx) => {
    for (const { eventId, event } of events) {
      await fanOutEvent(
        tx,
        {
          id: eventId,
          recipient: audience.recipient,
          name: event,
          sequence: 0,
          payload: sample(event, at, eventId),
          occurredAt: at,
        },
        { configurationId, test: true, tenantRate: ctx.config.webhookPartnerRate },
      );
    }
  });
  return { message: `${events.length} test deliver${events.length === 1 ? 'y' : 'ies'} queued`, events };
}
