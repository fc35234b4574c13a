import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { SuccessBody } from '../../core/operations.js';
import type { Page, PageRequest } from '../../core/paging.js';
import type { Queryable } from '../../db/client.js';
import * as engine from '../../webhooks/configurations.js';
import type { Recipient } from '../../webhooks/recipients.js';
import type { Audience } from '../../webhooks/vocabulary.js';
import { PARTNER_WEBHOOKS } from './events.js';

type WebhookConfiguration = components['schemas']['WebhookConfiguration'];
type CreateInput = components['schemas']['WebhookConfigurationRequest'];
type PatchInput = components['schemas']['WebhookConfigurationPatch'];

const recipient = (partnerId: string): Recipient => ({ kind: 'partner', id: partnerId });
const audience = (partnerId: string): Audience => ({ recipient: recipient(partnerId), vocabulary: PARTNER_WEBHOOKS });

/** A configuration in the Partner API's words. */
export const toWebhookConfiguration = ({ name, url, events, ...rest }: engine.Configuration): WebhookConfiguration => ({
  ...rest,
  configurationName: name,
  webhookUrl: url,
  enabledEvents: events.map((event) => ({ name: event as WebhookConfiguration['enabledEvents'][number]['name'] })),
});

/** Always a new configuration, even for a URL already registered (interface, Delivery 6); in `db`'s transaction when it is one. */
export async function createConfiguration(
  ctx: AppContext,
  partnerId: string,
  input: CreateInput,
  db: Queryable = ctx.db,
): Promise<SuccessBody<operations['createWebhookConfiguration']>> {
  const created = await engine.createConfiguration(
    ctx,
    audience(partnerId),
    {
      name: input.configurationName,
      url: input.webhookUrl,
      events: input.enabledEvents.map((e) => e.name),
      authorizationToken: input.authorizationToken,
      signed: input.signed,
    },
    db,
  );
  return { content: toWebhookConfiguration(created) };
}

export async function listConfigurations(
  ctx: AppContext,
  partnerId: string,
  page: PageRequest,
): Promise<Page<WebhookConfiguration>> {
  const listed = await engine.listConfigurations(ctx, recipient(partnerId), page);
  return { ...listed, content: listed.content.map(toWebhookConfiguration) };
}

/** Changes only the keys sent; see the engine's `updateConfiguration`. */
export async function updateConfiguration(
  ctx: AppContext,
  partnerId: string,
  id: string,
  patch: PatchInput,
): Promise<SuccessBody<operations['updateWebhookConfiguration']>> {
  const updated = await engine.updateConfiguration(ctx, audience(partnerId), id, {
    name: patch.configurationName,
    url: patch.webhookUrl,
    events: patch.enabledEvents?.map((e) => e.name),
    authorizationToken: patch.authorizationToken,
    signed: patch.signed,
    active: patch.active,
  });
  return { content: toWebhookConfiguration(updated) };
}

export const deleteConfiguration = (db: Queryable, partnerId: string, id: string): Promise<void> =>
  engine.deleteConfiguration(db, recipient(partnerId), id);

export const findConfiguration = (db: Queryable, partnerId: string, id: string) =>
  engine.findConfiguration(db, recipient(partnerId), id);

/** A new secret; the previous one keeps signing until the grace period ends. In `db`'s transaction when it is one. */
export async function rotateSigningSecret(
  ctx: AppContext,
  partnerId: string,
  id: string,
  gracePeriodSeconds?: number,
  db: Queryable = ctx.db,
): Promise<SuccessBody<operations['rotateWebhookSigningSecret']>> {
  return {
    content: toWebhookConfiguration(
      await engine.rotateSigningSecret(ctx, recipient(partnerId), id, gracePeriodSeconds, db),
    ),
  };
}
