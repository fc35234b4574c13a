import { and, asc, eq, gt } from 'drizzle-orm';

import type { components } from '../../../../generated/partner.js';
import { safeQueryInteger } from '../../../core/errors.js';
import type { Queryable } from '../../../db/client.js';
import { saleEvents } from '../../../db/schema/index.js';

type SaleEventPage = components['schemas']['SaleEventPage'];
type SaleEventRecord = components['schemas']['SaleEventRecord'];

/** Events per page when the request names none. (Default: 100) */
export const DEFAULT_FEED_LIMIT = 100;

export interface FeedRequest {
  /** Only events after this sequence. (Default: 0) */
  since?: number;
  /** At most this many events; the document caps it at 1000. (Default: 100) */
  limit?: number;
}

const toSaleEventRecord = (row: typeof saleEvents.$inferSelect): SaleEventRecord => ({
  id: row.id,
  sequence: row.sequence,
  name: row.name as SaleEventRecord['name'],
  createdAt: row.createdAt.toISOString(),
  payload: row.payload as SaleEventRecord['payload'],
});

/**
 * The catch-up feed: the partner's events after `since`, in `sequence` order. The sequence
 * counter row stays locked until the event's transaction ends, so a reader never sees an event
 * before the ones numbered below it: reading from the last `sequence` seen misses nothing.
 */
export async function listSaleEvents(db: Queryable, partnerId: string, request: FeedRequest): Promise<SaleEventPage> {
  const since = safeQueryInteger('since', request.since) ?? 0;
  const limit = safeQueryInteger('limit', request.limit) ?? DEFAULT_FEED_LIMIT;
  const rows = await db
    .select()
    .from(saleEvents)
    .where(and(eq(saleEvents.partnerId, partnerId), gt(saleEvents.sequence, since)))
    .orderBy(asc(saleEvents.sequence))
    .limit(limit);
  const content = rows.map(toSaleEventRecord);
  return { content, nextSince: content.at(-1)?.sequence ?? since };
}

/** The events of one sale of the partner, in `sequence` order (the sale's timeline in the panel). */
export async function listEventsOfSale(db: Queryable, partnerId: string, saleId: number): Promise<SaleEventRecord[]> {
  const rows = await db
    .select()
    .from(saleEvents)
    .where(and(eq(saleEvents.saleId, saleId), eq(saleEvents.partnerId, partnerId)))
    .orderBy(asc(saleEvents.sequence));
  return rows.map(toSaleEventRecord);
}
