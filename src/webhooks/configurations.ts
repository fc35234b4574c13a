import { and, count, desc, eq, sql } from 'drizzle-orm';

import type { AppContext } from '../context.js';
import { type Page, pageOf, type PageRequest } from '../core/paging.js';
import type { SecretBox } from '../core/secret-box.js';
import type { Queryable } from '../db/client.js';
import { institutions, partners, webhookConfigurations } from '../db/schema/index.js';
import {
  MAX_CONFIGURATIONS,
  WebhookConfigurationNotFound,
  WebhookConfigurationsFull,
  WebhookNotSigned,
  WebhookTargetRefused,
} from './errors.js';
import { checkEnabledEvents } from './event-names.js';
import { pauseDeliveries, resumeDeliveries } from './pauses.js';
import { ownedBy, type Recipient, recipientColumns } from './recipients.js';
import { openSigningSecret, openToken, sealSigningSecret, sealToken, secretBoxOf } from './sealed-secrets.js';
import { newSigningSecret } from './signature.js';
import { checkTargetAtRegistration } from './target.js';
import type { Audience } from './vocabulary.js';

type Row = typeof webhookConfigurations.$inferSelect;

/** A configuration as both APIs answer it, before each names its fields in its own vocabulary. */
export interface Configuration {
  id: string;
  name: string;
  url: string;
  /** Event names as registered; `['all']` for every event. */
  events: string[];
  hasAuthorizationToken: boolean;
  authorizationTokenMasked: string | null;
  signed: boolean;
  /** Only in the answer that made it: the creation, a rotation, signing turned on. */
  signingSecret?: string;
  previousSecretExpiresAt: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ConfigurationInput {
  name: string;
  url: string;
  events: readonly string[];
  authorizationToken?: string | null;
  signed?: boolean;
}

export interface ConfigurationPatch extends Partial<ConfigurationInput> {
  active?: boolean;
}

/** All but the last 4 characters hidden; a short token shows nothing of itself. */
export const maskToken = (token: string | null): string | null =>
  token === null ? null : token.length < 12 ? '••••' : `••••${token.slice(-4)}`;

/** A configuration as answered: the token (stored sealed) only masked, the signing secret only when `shownSecret`. */
export const toConfiguration = (box: SecretBox, row: Row, shownSecret?: string): Configuration => ({
  id: row.id,
  name: row.name,
  url: row.url,
  events: row.enabledEvents,
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

/** Locks the tenant's row until the transaction ends: configurations are counted under it. */
export async function lockRecipient(tx: Queryable, recipient: Recipient): Promise<void> {
  if (recipient.kind === 'partner')
    await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, recipient.id)).for('update');
  else
    await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, recipient.id)).for('update');
}

/**
 * Runs `insert` if the tenant keeps fewer than MAX_CONFIGURATIONS rows as `counted` counts them,
 * under a lock of the tenant's row, so that requests racing each other cannot pass the cap together.
 */
export function withinCap<T>(
  db: Queryable,
  recipient: Recipient,
  counted: (tx: Queryable) => Promise<number>,
  insert: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await lockRecipient(tx, recipient);
    if ((await counted(tx)) >= MAX_CONFIGURATIONS) throw new WebhookConfigurationsFull(recipient.kind);
    return insert(tx);
  });
}

async function checkUrl(ctx: AppContext, audience: Audience, url: string): Promise<void> {
  const refusal = await checkTargetAtRegistration(url, ctx.config.webhookAllowPrivate);
  if (refusal) throw new WebhookTargetRefused(url, refusal, audience.vocabulary.fields.url);
}

/** Another tenant's configuration is answered as a missing one. */
export async function findConfiguration(db: Queryable, recipient: Recipient, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(webhookConfigurations)
    .where(and(eq(webhookConfigurations.id, id), ownedBy(webhookConfigurations, recipient)));
  if (!row) throw new WebhookConfigurationNotFound();
  return row;
}

/** Always a new configuration, even for a URL already registered; in `db`'s transaction when it is one. */
export async function createConfiguration(
  ctx: AppContext,
  audience: Audience,
  input: ConfigurationInput,
  db: Queryable = ctx.db,
): Promise<Configuration> {
  const enabledEvents = checkEnabledEvents(input.events, audience.vocabulary);
  await checkUrl(ctx, audience, input.url);
  const secret = input.signed ? newSigningSecret() : null;
  const box = secretBoxOf(ctx.config);
  const now = ctx.clock.now();
  const mine = ownedBy(webhookConfigurations, audience.recipient);
  const [row] = await withinCap(
    db,
    audience.recipient,
    async (tx) => (await tx.select({ n: count() }).from(webhookConfigurations).where(mine))[0]?.n ?? 0,
    (tx) =>
      tx
        .insert(webhookConfigurations)
        .values({
          ...recipientColumns(audience.recipient),
          name: input.name,
          url: input.url,
          enabledEvents,
          authorizationToken: sealToken(box, input.authorizationToken ?? null),
          signingSecret: secret === null ? null : sealSigningSecret(box, secret),
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
  );
  return toConfiguration(box, row!, secret ?? undefined);
}

/** The tenant's configurations, newest first. */
export async function listConfigurations(
  ctx: AppContext,
  recipient: Recipient,
  page: PageRequest,
): Promise<Page<Configuration>> {
  const { db } = ctx;
  const mine = ownedBy(webhookConfigurations, recipient);
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
    rows.map((row) => toConfiguration(secretBoxOf(ctx.config), row)),
  );
}

/**
 * Changes only the keys sent. Deactivation pauses the deliveries still due (see `pauseDeliveries`),
 * and reactivation resumes them as well as receiving the events that happen from then on.
 */
export async function updateConfiguration(
  ctx: AppContext,
  audience: Audience,
  id: string,
  patch: ConfigurationPatch,
): Promise<Configuration> {
  const { recipient } = audience;
  const enabledEvents = patch.events ? checkEnabledEvents(patch.events, audience.vocabulary) : undefined;
  const current = await findConfiguration(ctx.db, recipient, id);
  if (patch.url !== undefined) await checkUrl(ctx, audience, patch.url);
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
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(enabledEvents ? { enabledEvents } : {}),
        ...(patch.authorizationToken !== undefined
          ? { authorizationToken: sealToken(box, patch.authorizationToken) }
          : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
        ...signingChange,
        updatedAt: now,
      })
      .where(and(eq(webhookConfigurations.id, id), ownedBy(webhookConfigurations, recipient)))
      .returning();
    if (!row) throw new WebhookConfigurationNotFound();
    if (patch.active === false) await pauseDeliveries(tx, id, now);
    if (patch.active === true) await resumeDeliveries(tx, id, now);
    return toConfiguration(box, row, secret);
  });
}

/** Deletes the configuration and its history; pending jobs find nothing to send. */
export async function deleteConfiguration(db: Queryable, recipient: Recipient, id: string): Promise<void> {
  const deleted = await db
    .delete(webhookConfigurations)
    .where(and(eq(webhookConfigurations.id, id), ownedBy(webhookConfigurations, recipient)))
    .returning({ id: webhookConfigurations.id });
  if (deleted.length === 0) throw new WebhookConfigurationNotFound();
}

/** One configuration of the tenant. */
export async function showConfiguration(ctx: AppContext, recipient: Recipient, id: string): Promise<Configuration> {
  return toConfiguration(secretBoxOf(ctx.config), await findConfiguration(ctx.db, recipient, id));
}

/**
 * The signing secret in force, asked again (the panel's "reveal"); a configuration that does not
 * sign has none (WEBHOOK-011).
 */
export async function revealSigningSecret(ctx: AppContext, recipient: Recipient, id: string): Promise<string> {
  const secret = openSigningSecret(
    secretBoxOf(ctx.config),
    (await findConfiguration(ctx.db, recipient, id)).signingSecret,
  );
  if (!secret) throw new WebhookNotSigned();
  return secret;
}

/** A new secret; the previous one keeps signing until the grace period ends. In `db`'s transaction when it is one. */
export async function rotateSigningSecret(
  ctx: AppContext,
  recipient: Recipient,
  id: string,
  gracePeriodSeconds = 86_400,
  db: Queryable = ctx.db,
): Promise<Configuration> {
  const current = await findConfiguration(db, recipient, id);
  if (!current.signingSecret) throw new WebhookNotSigned();
  const now = ctx.clock.now();
  const secret = newSigningSecret();
  const box = secretBoxOf(ctx.config);
  const [row] = await db
    .update(webhookConfigurations)
    .set({
      signingSecret: sealSigningSecret(box, secret),
      previousSigningSecret: gracePeriodSeconds > 0 ? sql`${webhookConfigurations.signingSecret}` : null,
      previousSecretExpiresAt: gracePeriodSeconds > 0 ? new Date(now.getTime() + gracePeriodSeconds * 1000) : null,
      updatedAt: now,
    })
    .where(and(eq(webhookConfigurations.id, id), ownedBy(webhookConfigurations, recipient)))
    .returning();
  if (!row) throw new WebhookConfigurationNotFound();
  return toConfiguration(box, row, secret);
}
