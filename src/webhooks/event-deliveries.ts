import { and, asc, eq, inArray } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { webhookConfigurations, webhookDeliveries } from '../db/schema/index.js';
import { type WebhookDelivery, withAttempts } from './deliveries.js';
import { ownedBy, type Recipient } from './recipients.js';

/** A delivery of an event with the configuration it went to. */
export interface EventDelivery {
  configurationId: string;
  configurationName: string;
  delivery: WebhookDelivery;
}

/** The deliveries of these events of the tenant with their configuration's name, oldest first; exported for EXPLAIN. */
export const eventDeliveriesQuery = (db: Queryable, recipient: Recipient, eventIds: readonly string[]) =>
  db
    .select({ delivery: webhookDeliveries, name: webhookConfigurations.name })
    .from(webhookDeliveries)
    .innerJoin(webhookConfigurations, eq(webhookConfigurations.id, webhookDeliveries.configurationId))
    .where(and(inArray(webhookDeliveries.eventId, [...eventIds]), ownedBy(webhookDeliveries, recipient)))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));

/**
 * The deliveries of some events of the tenant (redeliveries and those of configurations since
 * deactivated included; those of deleted configurations went with them), oldest first, with every
 * attempt, keyed by event id. Read through `webhook_deliveries_event`.
 */
export async function deliveriesOfEvents(
  db: Queryable,
  recipient: Recipient,
  eventIds: readonly string[],
): Promise<Map<string, EventDelivery[]>> {
  const byEvent = new Map<string, EventDelivery[]>(eventIds.map((id) => [id, []]));
  if (eventIds.length === 0) return byEvent;
  const rows = await eventDeliveriesQuery(db, recipient, eventIds);
  const deliveries = await withAttempts(
    db,
    rows.map((r) => r.delivery),
  );
  rows.forEach(({ delivery, name }, i) =>
    byEvent.get(delivery.eventId)?.push({
      configurationId: delivery.configurationId,
      configurationName: name,
      delivery: deliveries[i]!,
    }),
  );
  return byEvent;
}
