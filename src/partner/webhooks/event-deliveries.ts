import { and, asc, eq, inArray } from 'drizzle-orm';

import type { components } from '../../../generated/partner.js';
import type { Queryable } from '../../db/client.js';
import { webhookConfigurations, webhookDeliveries } from '../../db/schema/index.js';
import { withAttempts } from './deliveries.js';

type WebhookDelivery = components['schemas']['WebhookDelivery'];

/** A delivery of an event with the configuration it went to. */
export interface EventDelivery {
  configurationId: string;
  configurationName: string;
  delivery: WebhookDelivery;
}

/** The deliveries of these events of the partner with their configuration's name, oldest first; exported for EXPLAIN. */
export const eventDeliveriesQuery = (db: Queryable, partnerId: string, eventIds: readonly string[]) =>
  db
    .select({ delivery: webhookDeliveries, name: webhookConfigurations.name })
    .from(webhookDeliveries)
    .innerJoin(webhookConfigurations, eq(webhookConfigurations.id, webhookDeliveries.configurationId))
    .where(and(inArray(webhookDeliveries.eventId, [...eventIds]), eq(webhookDeliveries.partnerId, partnerId)))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));

/**
 * The deliveries of some events of the partner (redeliveries and those of configurations since
 * deactivated included; those of deleted configurations went with them), oldest first, with every
 * attempt, keyed by event id. Read through `webhook_deliveries_event`.
 */
export async function deliveriesOfEvents(
  db: Queryable,
  partnerId: string,
  eventIds: readonly string[],
): Promise<Map<string, EventDelivery[]>> {
  const byEvent = new Map<string, EventDelivery[]>(eventIds.map((id) => [id, []]));
  if (eventIds.length === 0) return byEvent;
  const rows = await eventDeliveriesQuery(db, partnerId, eventIds);
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
