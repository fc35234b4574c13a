import { and, count, desc, eq, sql } from 'drizzle-orm';

import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { SuccessBody } from '../../core/operations.js';
import { type Page, pageOf, type PageRequest } from '../../core/paging.js';
import type { SecretBox } from '../../core/secret-box.js';
import type { Database, Queryable } from '../../db/client.js';
import { legacyWebhookConfigurations, partners, webhookConfigurations } from '../../db/schema/index.js';
import {
  MAX_CONFIGURATIONS,
  WebhookConfigurationNotFound,
  WebhookConfigurationsFull,
  WebhookNotSigned,
  WebhookTargetRefused,
} from './errors.js';
import { checkEnabledEvents } from './events.js';
import { pauseDeliveries, resumeDeliveries } from './pauses.js';
import { openSigningSecret, openToken, sealSigningSecret, sealToken, secretBoxOf } from './sealed-secrets.js';
import { newSigningSecret } from './signature.js';
import { checkTargetAtRegistration } from './target.js';

type WebhookConfiguration = components['schemas']['WebhookConfiguration'];
type CreateInput = components['schemas']['WebhookConfigurationRequest'];
type PatchInput = components['schemas']['WebhookConfigurationPatch'];
type Row = typeof webhookConfigurations.$inferSelect;

/** All but the last 4 characters hidden; a short token shows nothing of itself. */
export const maskToken = (token: string | null): string | null =>
  token === null ? null : token.length < 12 ? '••••' : `••••${token.slice(-4)}`;

/** A configuration as answered: the token (stored sealed) only masked, the signing secret only when `shownSecret`. */
export const toWebhookConfiguration = (box: SecretBox, row: Row, shownSecret?: string): WebhookConfiguration => ({
  id: row.id,
  configurationName: row.name,
  webhookUrl: row.url,
  enabledEvents: row.enabledEvents.map((name) => ({
    name: name as WebhookConfiguration['enabledEvents'][number]['name'],
  })),
  hasAuthorizationToken: row.authorizationToken !== null,
  authorizationTokenMasked: maskToken(openToken(box, row.authorizationToken)),
  signed: row.signingSecret !== null,
  ...(shownSecret ? { signingSecret: shownSecret } : {}),
  previousSecretExpiresAt:
    row.previousSigningSecret && row.previousSecretExpiresAt ? row.previousSecretExpiresAt.toISOString() : null,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * Runs `insert` if the partner has fewer than MAX_CONFIGURATIONS rows in `table`, counted under a
 * lock of the partner's row, so that requests racing each other cannot pass the cap together.
 */
export function withinCap<T>(
  db: Database,
  partnerId: string,
  table: typeof webhookConfigurations | typeof legacyWebhookConfigurations,
  insert: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).for('update');
    const [kept] = await tx.select({ n: count() }).from(table).where(eq(table.partnerId, partnerId));
    if ((kept?.n ?? 0) >= MAX_CONFIGURATIONS) throw new WebhookConfigurationsFull();
    return insert(tx);
  });
}

async function checkUrl(ctx: AppContext, url: string): Promise<void> {
  const refusal = await checkTargetAtRegistration(url, ctx.config.webhookAllowPrivate);
  if (refusal) throw new WebhookTargetRefused(url, refusal);
}

/** Another partner's configuration is answered as a missing one. */
export async function findConfiguration(db: Queryable, partnerId: string, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(webhookConfigurations)
    .where(and(eq(webhookConfigurations.id, id), eq(webhookConfigurations.partnerId, partnerId)));
  if (!row) throw new WebhookConfigurationNotFound();
  return row;
}

/** Always a new configuration, even for a URL already registered (interface, Delivery 6). */
export async function createConfiguration(
  ctx: AppContext,
  partnerId: string,
  input: CreateInput,
): Promise<SuccessBody<operations['createWebhookConfiguration']>> {
  const enabledEvents = checkEnabledEvents(input.enabledEvents);
  await checkUrl(ctx, input.webhookUrl);
  const secret = input.signed ? newSigningSecret() : null;
  const box = secretBoxOf(ctx.config);
  const now = ctx.clock.now();
  const [row] = await withinCap(ctx.db, partnerId, webhookConfigurations, (tx) =>
    tx
      .insert(webhookConfigurations)
      .values({
        partnerId,
        name: input.configurationName,
        url: input.webhookUrl,
        enabledEvents,
        authorizationToken: sealToken(box, input.authorizationToken ?? null),
        signingSecret: secret === null ? null : sealSigningSecret(box, secret),
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  return { content: toWebhookConfiguration(box, row!, secret ?? undefined) };
}

export async function listConfigurations(
  ctx: AppContext,
  partnerId: string,
  page: PageRequest,
): Promise<Page<WebhookConfiguration>> {
  const { db } = ctx;
  const mine = eq(webhookConfigurations.partnerId, partnerId);
  const [total] = await db.select({ n: count() }).from(webhookConfigurations).where(mine);
  const rows = await db
    .select()
    .from(webhookConfigurations)
    .where(mine)
    .orderBy(desc(webhookConfigurations.createdAt), desc(webhookConfigurations.id))
    .limit(page.size)
    .offset(page.offset);
  return pageOf(
    page,
    total?.n ?? 0,
    rows.map((row) => toWebhookConfiguration(secretBoxOf(ctx.config), row)),
  );
}

/**
 * Changes only the keys sent. Deactivation pauses the deliveries still due (see `pauseDeliveries`),
 * and reactivation resumes them as well as receiving the events that happen from then on.
 */
export async function updateConfiguration(
  ctx: AppContext,
  partnerId: string,
  id: string,
  patch: PatchInput,
): Promise<SuccessBody<operations['updateWebhookConfiguration']>> {
  const enabledEvents = patch.enabledEvents ? checkEnabledEvents(patch.enabledEvents) : undefined;
  const current = await findConfiguration(ctx.db, partnerId, id);
  if (patch.webhookUrl !== undefined) await checkUrl(ctx, patch.webhookUrl);
  const now = ctx.clock.now();
  const startsSigning = patch.signed === true && current.signingSecret === null;
  const secret = startsSigning ? newSigningSecret() : undefined;
  const box = secretBoxOf(ctx.config);
  const signingChange =
    patch.signed === false
      ? { signingSecret: null, previousSigningSecret: null, previousSecretExpiresAt: null }
      : secret
        ? { signingSecret: sealSigningSecret(box, secret) }
        : {};
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookConfigurations)
      .set({
        ...(patch.configurationName !== undefined ? { name: patch.configurationName } : {}),
        ...(patch.webhookUrl !== undefined ? { url: patch.webhookUrl } : {}),
        ...(enabledEvents ? { enabledEvents } : {}),
        ...(patch.authorizationToken !== undefined
          ? { authorizationToken: sealToken(box, patch.authorizationToken) }
          : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
        ...signingChange,
        updatedAt: now,
      })
      .where(and(eq(webhookConfigurations.id, id), eq(webhookConfigurations.partnerId, partnerId)))
      .returning();
    if (!row) throw new WebhookConfigurationNotFound();
    if (patch.active === false) await pauseDeliveries(tx, id, now);
    if (patch.active === true) await resumeDeliveries(tx, id, now);
    return { content: toWebhookConfiguration(box, row, secret) };
  });
}

/** Deletes the configuration and its history; pending jobs find nothing to send. */
export async function deleteConfiguration(db: Queryable, partnerId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(webhookConfigurations)
    .where(and(eq(webhookConfigurations.id, id), eq(webhookConfigurations.partnerId, partnerId)))
    .returning({ id: webhookConfigurations.id });
  if (deleted.length === 0) throw new WebhookConfigurationNotFound();
}

/** One configuration of the partner, as the API answers configurations. */
export async function showConfiguration(ctx: AppContext, partnerId: string, id: string): Promise<WebhookConfiguration> {
  return toWebhookConfiguration(secretBoxOf(ctx.config), await findConfiguration(ctx.db, partnerId, id));
}

/**
 * The signing secret in force, asked again (the panel's "reveal"); a configuration that does not
 * sign has none (WEBHOOK-011).
 */
export async function revealSigningSecret(ctx: AppContext, partnerId: string, id: string): Promise<string> {
  const secret = openSigningSecret(
    secretBoxOf(ctx.config),
    (await findConfiguration(ctx.db, partnerId, id)).signingSecret,
  );
  if (!secret) throw new WebhookNotSigned();
  return secret;
}

/** A new secret; the previous one keeps signing until the grace period ends. */
export async function rotateSigningSecret(
  ctx: AppContext,
  partnerId: string,
  id: string,
  gracePeriodSeconds = 86_400,
): Promise<SuccessBody<operations['rotateWebhookSigningSecret']>> {
  const current = await findConfiguration(ctx.db, partnerId, id);
  if (!current.signingSecret) throw new WebhookNotSigned();
  const now = ctx.clock.now();
  const secret = newSigningSecret();
  const box = secretBoxOf(ctx.config);
  const [row] = await ctx.db
    .update(webhookConfigurations)
    .set({
      signingSecret: sealSigningSecret(box, secret),
      previousSigningSecret: gracePeriodSeconds > 0 ? sql`${webhookConfigurations.signingSecret}` : null,
      previousSecretExpiresAt: gracePeriodSeconds > 0 ? new Date(now.getTime() + gracePeriodSeconds * 1000) : null,
      updatedAt: now,
    })
    .where(and(eq(webhookConfigurations.id, id), eq(webhookConfigurations.partnerId, partnerId)))
    .returning();
  if (!row) throw new WebhookConfigurationNotFound();
  return { content: toWebhookConfiguration(box, row, secret) };
}
