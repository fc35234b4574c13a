import { and, asc, count, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';

import type { AppContext } from '../context.js';
import { type Page, pageOf, type PageRequest } from '../core/paging.js';
import type { Queryable } from '../db/client.js';
import { webhookAttempts, webhookConfigurations, webhookDeliveries } from '../db/schema/index.js';
import { addWebhookAttempts } from '../queue/webhook-jobs.js';
import { findConfiguration } from './configurations.js';
import { WebhookDeliveryNotFound, WebhookDeliveryPending, WebhookNotTestable } from './errors.js';
import { ownedBy, type Recipient } from './recipients.js';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

export type DeliveryStatus = 'pending' | 'paused' | 'succeeded' | 'failed';

/** A delivery as both APIs answer it, before each names its fields in its own vocabulary. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  event: string;
  test: boolean;
  redeliveryOf: string | null;
  status: DeliveryStatus;
  attempts: {
    number: number;
    attemptedAt: string;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
    responseBody: string | null;
  }[];
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: string;
  /** Deliveries created at or after this instant. */
  from?: Date;
  /** Deliveries created before this instant. */
  before?: Date;
}

/** One attempt as the panel shows it: what the API answers, and the headers it sent. */
export type AttemptDetail = WebhookDelivery['attempts'][number] & { requestHeaders: Record<string, string> | null };

/** A delivery with the body every attempt sends and each attempt's headers. */
export type DeliveryDetail = Omit<WebhookDelivery, 'attempts'> & { body: string; attempts: AttemptDetail[] };

const toWebhookDelivery = (row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery => ({
  id: row.id,
  eventId: row.eventId,
  event: row.eventName,
  test: row.test,
  redeliveryOf: row.redeliveryOf,
  status: row.status as DeliveryStatus,
  attempts: attempts.map((a) => ({
    number: a.number,
    attemptedAt: a.attemptedAt.toISOString(),
    statusCode: a.statusCode,
    error: a.error,
    durationMs: a.durationMs,
    responseBody: a.responseBody,
  })),
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Deliveries as the API answers them, each with every attempt in order. */
export async function withAttempts(db: Queryable, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(
      inArray(
        webhookAttempts.deliveryId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(webhookAttempts.number));
  return rows.map((row) =>
    toWebhookDelivery(
      row,
      attempts.filter((a) => a.deliveryId === row.id),
    ),
  );
}

/** The deliveries of one configuration of the tenant, newest first, with every attempt. */
export async function listDeliveries(
  db: Queryable,
  recipient: Recipient,
  configurationId: string,
  filter: DeliveryFilter,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  await findConfiguration(db, recipient, configurationId);
  const conditions: SQL[] = [eq(webhookDeliveries.configurationId, configurationId)];
  if (filter.status) conditions.push(eq(webhookDeliveries.status, filter.status));
  if (filter.event) conditions.push(eq(webhookDeliveries.eventName, filter.event));
  if (filter.from) conditions.push(gte(webhookDeliveries.createdAt, filter.from));
  if (filter.before) conditions.push(lt(webhookDeliveries.createdAt, filter.before));
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(page.size)
    .offset(page.offset);
  return pageOf(page, total?.n ?? 0, await withAttempts(db, rows));
}

/** One delivery of one configuration of the tenant, with its body and what each attempt sent. */
export async function findDelivery(
  db: Queryable,
  recipient: Recipient,
  configurationId: string,
  deliveryId: string,
): Promise<DeliveryDetail> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.configurationId, configurationId),
        ownedBy(webhookDeliveries, recipient),
      ),
    );
  if (!row) throw new WebhookDeliveryNotFound();
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, row.id))
    .orderBy(asc(webhookAttempts.number));
  const delivery = toWebhookDelivery(row, attempts);
  return {
    ...delivery,
    body: row.body,
    attempts: delivery.attempts.map((attempt, i) => ({ ...attempt, requestHeaders: attempts[i]!.requestHeaders })),
  };
}

/** A new delivery of a finished one's event (same body and event id), its first attempt due at once. */
export async function redeliver(
  ctx: AppContext,
  recipient: Recipient,
  deliveryId: string,
  db: Queryable = ctx.db,
): Promise<WebhookDelivery> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ delivery: webhookDeliveries, active: webhookConfigurations.active })
      .from(webhookDeliveries)
      .innerJoin(webhookConfigurations, eq(webhookConfigurations.id, webhookDeliveries.configurationId))
      .where(and(eq(webhookDeliveries.id, deliveryId), ownedBy(webhookConfigurations, recipient)));
    if (!found) throw new WebhookDeliveryNotFound();
    const { delivery } = found;
    if (delivery.status === 'pending' || delivery.status === 'paused') throw new WebhookDeliveryPending();
    if (!found.active) throw new WebhookNotTestable('Only an active configuration can receive a redelivery');
    const now = ctx.clock.now();
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        configurationId: delivery.configurationId,
        partnerId: delivery.partnerId,
        institutionId: delivery.institutionId,
        eventId: delivery.eventId,
        eventName: delivery.eventName,
        sequence: delivery.sequence,
        body: delivery.body,
        test: delivery.test,
        redeliveryOf: delivery.id,
        nextAttemptAt: now,
        occurredAt: delivery.occurredAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await addWebhookAttempts(tx, [{ deliveryId: row!.id, attempt: 1, runAt: now }]);
    return toWebhookDelivery(row!, []);
  });
}
