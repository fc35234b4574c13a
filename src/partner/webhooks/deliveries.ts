import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { SuccessBody } from '../../core/operations.js';
import type { Page, PageRequest } from '../../core/paging.js';
import type { Queryable } from '../../db/client.js';
import * as engine from '../../webhooks/deliveries.js';

type WebhookDelivery = components['schemas']['WebhookDelivery'];

const partner = (id: string) => ({ kind: 'partner', id }) as const;

/**
 * The engine's delivery in the Partner API's words: the same fields, its event one of the Partner
 * API's (only they are ever delivered to a partner's configuration).
 */
const toWebhookDelivery = (delivery: engine.WebhookDelivery): WebhookDelivery => delivery as WebhookDelivery;

/** The deliveries of one configuration of the partner, newest first, with every attempt. */
export async function listDeliveries(
  db: Queryable,
  partnerId: string,
  configurationId: string,
  filter: engine.DeliveryFilter,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  const listed = await engine.listDeliveries(db, partner(partnerId), configurationId, filter, page);
  return { ...listed, content: listed.content.map(toWebhookDelivery) };
}

/** A new delivery of a finished one's event (same body and event id), its first attempt due at once; in `db`'s transaction when it is one. */
export const redeliver = async (
  ctx: AppContext,
  partnerId: string,
  deliveryId: string,
  db: Queryable = ctx.db,
): Promise<SuccessBody<operations['redeliverWebhookDelivery']>> => ({
  content: toWebhookDelivery(await engine.redeliver(ctx, partner(partnerId), deliveryId, db)),
});
