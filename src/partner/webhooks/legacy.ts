import { randomBytes } from 'node:crypto';

import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';

import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { SuccessBody } from '../../core/operations.js';
import type { Queryable } from '../../db/client.js';
import { legacyWebhookConfigurations, legacyWebhookDispatches } from '../../db/schema/index.js';
import { addLegacyDispatches, postponeLegacyDispatch } from '../../queue/webhook-jobs.js';
import { withinCap } from '../../webhooks/configurations.js';
import { bookSend } from '../../webhooks/delivery-budget.js';
import {
  LegacyDispatchDelivered,
  LegacyDispatchNotFound,
  LegacyRetriesExhausted,
  WebhookConfigurationNotFound,
  WebhookTargetRefused,
} from '../../webhooks/errors.js';
import { postOnce } from '../../webhooks/sender.js';
import { checkTargetAtRegistration } from '../../webhooks/target.js';

type LegacyConfiguration = components['schemas']['LegacyWebhookConfiguration'];
type LegacyVersion = LegacyConfiguration['version'];

/** A change of a sale's status, as the legacy notifications tell it. */
export interface LegacySaleStatusEvent {
  partnerId: string;
  saleId: number;
  externalSaleId: string | null;
  /** List vocabulary, old names (`made_effective`). */
  status: string;
  occurredAt: Date;
}

/** A sale's own `notification_url` receives the 2.0 format. */
const NOTIFICATION_URL_VERSION: LegacyVersion = '2.0';
/** Manual retries a dispatch accepts (interface, Limits). */
export const MAX_MANUAL_RETRIES = 4;

const toLegacyConfiguration = (row: typeof legacyWebhookConfigurations.$inferSelect): LegacyConfiguration => ({
  id: row.id,
  version: row.version as LegacyVersion,
  url: row.url,
  createdAt: row.createdAt.toISOString(),
});

export async function createLegacyConfiguration(
  ctx: AppContext,
  partnerId: string,
  input: { version: LegacyVersion; url: string },
): Promise<SuccessBody<operations['createLegacyWebhookConfiguration']>> {
  const refusal = await checkTargetAtRegistration(input.url, ctx.config.webhookAllowPrivate);
  if (refusal) throw new WebhookTargetRefused(input.url, refusal);
  const mine = eq(legacyWebhookConfigurations.partnerId, partnerId);
  const [row] = await withinCap(
    ctx.db,
    { kind: 'partner', id: partnerId },
    async (tx) => (await tx.select({ n: count() }).from(legacyWebhookConfigurations).where(mine))[0]?.n ?? 0,
    (tx) =>
      tx
        .insert(legacyWebhookConfigurations)
        .values({ partnerId, version: input.version, url: input.url, createdAt: ctx.clock.now() })
        .returning(),
  );
  return { content: toLegacyConfiguration(row!) };
}

export async function listLegacyConfigurations(
  db: Queryable,
  partnerId: string,
): Promise<SuccessBody<operations['listLegacyWebhookConfigurations']>> {
  const rows = await db
    .select()
    .from(legacyWebhookConfigurations)
    .where(eq(legacyWebhookConfigurations.partnerId, partnerId))
    .orderBy(desc(legacyWebhookConfigurations.createdAt), desc(legacyWebhookConfigurations.id));
  return { content: rows.map(toLegacyConfiguration) };
}

export async function deleteLegacyConfiguration(db: Queryable, partnerId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(legacyWebhookConfigurations)
    .where(and(eq(legacyWebhookConfigurations.id, id), eq(legacyWebhookConfigurations.partnerId, partnerId)))
    .returning({ id: legacyWebhookConfigurations.id });
  if (deleted.length === 0) throw new WebhookConfigurationNotFound();
}

const newDispatchId = () => `lwh_${randomBytes(16).toString('base64url')}`;

function legacyBody(version: LegacyVersion, webhookId: string, event: LegacySaleStatusEvent): string {
  const at = event.occurredAt.toISOString();
  const body: components['schemas']['LegacyV1Notification'] | components['schemas']['LegacyV2Notification'] =
    version === '1.0'
      ? { webhookId, saleId: event.saleId, status: event.status, date: at }
      : {
          version: '2.0',
          webhookId,
          event: 'sale.status_changed',
          sale: {
            saleId: event.saleId,
            externalSaleId: event.externalSaleId ?? '',
            status: event.status,
            updatedAt: at,
          },
        };
  return JSON.stringify(body);
}

/**
 * In the caller's transaction: one dispatch per legacy configuration of the partner, and one to the
 * sale's `notification_url` when it has one, each sent once at once. Answers the dispatch ids.
 */
export async function fanOutLegacy(
  tx: Queryable,
  event: LegacySaleStatusEvent,
  notificationUrl?: string,
): Promise<string[]> {
  const configurations = await tx
    .select()
    .from(legacyWebhookConfigurations)
    .where(eq(legacyWebhookConfigurations.partnerId, event.partnerId));
  const targets = [
    ...configurations.map((c) => ({
      configurationId: c.id as string | null,
      version: c.version as LegacyVersion,
      url: c.url,
    })),
    ...(notificationUrl ? [{ configurationId: null, version: NOTIFICATION_URL_VERSION, url: notificationUrl }] : []),
  ];
  if (targets.length === 0) return [];
  const rows = targets.map((target) => {
    const id = newDispatchId();
    return {
      id,
      partnerId: event.partnerId,
      ...target,
      body: legacyBody(target.version, id, event),
      createdAt: event.occurredAt,
    };
  });
  await tx.insert(legacyWebhookDispatches).values(rows);
  await addLegacyDispatches(
    tx,
    rows.map((r) => ({ dispatchId: r.id, send: 1, runAt: event.occurredAt })),
  );
  return rows.map((r) => r.id);
}

/** The service clock has not reached the time booked for a dispatch; its job runs again a little later. */
export class DispatchNotDueYet extends Error {}

/** Send number `send` of a dispatch: one POST, its answer kept; nothing retries it but a partner's request. */
export async function sendLegacyDispatch(
  ctx: AppContext,
  dispatchId: string,
  send: number,
  bookedFor?: string,
): Promise<'sent' | 'stale' | 'postponed'> {
  const [dispatch] = await ctx.db
    .select()
    .from(legacyWebhookDispatches)
    .where(eq(legacyWebhookDispatches.id, dispatchId));
  if (!dispatch || dispatch.sends !== send - 1) return 'stale';
  const at = ctx.clock.now();
  if (bookedFor && new Date(bookedFor) > at) throw new DispatchNotDueYet(`${dispatchId} is booked for ${bookedFor}`);
  // Over the partner's budget, shared with its webhook deliveries: sent when its turn comes.
  const wait = bookedFor ? 0 : await bookSend(ctx.db, dispatch.partnerId, at, ctx.config.webhookPartnerRate);
  if (wait > 0) {
    const bookedFor = new Date(at.getTime() + Math.ceil(wait * 1000)).toISOString();
    await postponeLegacyDispatch(ctx.db, { dispatchId, send, bookedFor }, wait);
    return 'postponed';
  }
  const result = await postOnce(dispatch.url, { 'x-webhook-dispatch-id': dispatch.id }, dispatch.body, {
    timeoutMs: ctx.config.webhookTimeoutMs,
    allowPrivate: ctx.config.webhookAllowPrivate,
    spanAttributes: { 'webhook.dispatch.id': dispatch.id, 'webhook.attempt': send },
  });
  const updated = await ctx.db
    .update(legacyWebhookDispatches)
    .set({ sends: send, lastStatusCode: result.statusCode, lastError: result.error, lastAttemptAt: at })
    .where(and(eq(legacyWebhookDispatches.id, dispatchId), eq(legacyWebhookDispatches.sends, send - 1)))
    .returning({ id: legacyWebhookDispatches.id });
  return updated.length > 0 ? 'sent' : 'stale';
}

type RetryRefusal = { id: string; code: 'WEBHOOK-005' | 'WEBHOOK-006' | 'WEBHOOK-007'; reason: string };

const REFUSAL_ERRORS = {
  'WEBHOOK-005': LegacyDispatchNotFound,
  'WEBHOOK-006': LegacyDispatchDelivered,
  'WEBHOOK-007': LegacyRetriesExhausted,
};

/** The dispatches queued, those already waiting for their send, and those refused, in words; none of the first two is refused with the first refusal's code. */
function retryAnswer(
  queued: string[],
  waiting: string[],
  refused: RetryRefusal[],
): SuccessBody<operations['retryLegacyWebhookDispatches']> {
  const refusals = refused.map((r) => `${r.id} (${r.reason})`).join(', ');
  if (queued.length === 0 && waiting.length === 0) {
    throw new REFUSAL_ERRORS[refused[0]!.code](`No webhook dispatch queued. Refused: ${refusals}`);
  }
  const parts = [
    ...(queued.length > 0
      ? [
          `${queued.length} webhook dispatch${queued.length === 1 ? '' : 'es'} queued for resending: ${queued.join(', ')}`,
        ]
      : []),
    ...(waiting.length > 0 ? [`already waiting to be sent, no retry spent: ${waiting.join(', ')}`] : []),
    ...(refused.length > 0 ? [`Refused: ${refusals}`] : []),
  ];
  return { message: parts.join('. ') };
}

/**
 * Queues a resend of each dispatch that did not get 200 and has manual retries left; the others
 * are refused one by one with their reason. A dispatch whose last send queued has not been made yet
 * is answered as waiting, and no retry is spent on it: every retry answered as queued is sent.
 * Another partner's dispatch is not found.
 */
export async function retryLegacyDispatches(
  ctx: AppContext,
  partnerId: string,
  ids: string[],
): Promise<SuccessBody<operations['retryLegacyWebhookDispatches']>> {
  return ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(legacyWebhookDispatches)
      .where(and(eq(legacyWebhookDispatches.partnerId, partnerId), inArray(legacyWebhookDispatches.id, ids)))
      .for('update');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const queued: string[] = [];
    const waiting: string[] = [];
    const refused: RetryRefusal[] = [];
    for (const id of new Set(ids)) {
      const row = byId.get(id);
      if (!row) refused.push({ id, code: 'WEBHOOK-005', reason: 'not found' });
      else if (row.lastStatusCode === 200) refused.push({ id, code: 'WEBHOOK-006', reason: 'got status 200' });
      // Its automatic send, or the resend asked last, has not been made yet.
      else if (row.sends < 1 + row.manualRetries) waiting.push(id);
      else if (row.manualRetries >= MAX_MANUAL_RETRIES)
        refused.push({ id, code: 'WEBHOOK-007', reason: `already had ${MAX_MANUAL_RETRIES} manual retries` });
      else queued.push(id);
    }
    if (queued.length > 0) {
      await tx
        .update(legacyWebhookDispatches)
        .set({ manualRetries: sql`${legacyWebhookDispatches.manualRetries} + 1` })
        .where(inArray(legacyWebhookDispatches.id, queued));
      // Send number 1 + manual retries: a resend asked while the previous one waits replaces nothing.
      const now = ctx.clock.now();
      await addLegacyDispatches(
        tx,
        queued.map((id) => ({ dispatchId: id, send: 1 + byId.get(id)!.manualRetries + 1, runAt: now })),
      );
    }
    return retryAnswer(queued, waiting, refused);
  });
}
