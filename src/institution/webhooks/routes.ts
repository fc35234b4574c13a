import type { operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { pageRequest } from '../../core/paging.js';
import { institutionId } from '../../http/auth.js';
import type { Routes } from '../../http/typed.js';
import * as configurations from '../../webhooks/configurations.js';
import { listDeliveries, redeliver } from '../../webhooks/deliveries.js';
import type { Recipient } from '../../webhooks/recipients.js';
import { sendTestDeliveries } from '../../webhooks/test-deliveries.js';
import type { Audience } from '../../webhooks/vocabulary.js';
import { listInstitutionEvents } from '../events/feed.js';
import { INSTITUTION_WEBHOOKS } from '../events/vocabulary.js';
import { institutionSamples } from './samples.js';
import { DELIVERY_STATUS, toInstitutionDelivery, toInstitutionWebhook } from './webhook.views.js';

type WebhookOperations = Pick<
  operations,
  | 'createInstitutionWebhook'
  | 'listInstitutionWebhooks'
  | 'getInstitutionWebhook'
  | 'updateInstitutionWebhook'
  | 'deleteInstitutionWebhook'
  | 'testInstitutionWebhook'
  | 'rotateInstitutionWebhookSecret'
  | 'listInstitutionWebhookDeliveries'
  | 'redeliverInstitutionWebhookDelivery'
  | 'listInstitutionEvents'
>;

const recipientOf = (req: Parameters<typeof institutionId>[0]): Recipient => ({
  kind: 'institution',
  id: institutionId(req),
});
const audienceOf = (req: Parameters<typeof institutionId>[0]): Audience => ({
  recipient: recipientOf(req),
  vocabulary: INSTITUTION_WEBHOOKS,
});

/** Every configuration an institution may keep fits one answer (at most 20). */
const ALL = pageRequest(1, 100);

const statusOf = (name: string | undefined) =>
  name === undefined
    ? undefined
    : (Object.entries(DELIVERY_STATUS).find(([, pt]) => pt === name)?.[0] as keyof typeof DELIVERY_STATUS);

/** The institution's webhooks, through the engine both APIs share, in the Institution API's words. */
export function institutionWebhookRoutes(ctx: AppContext): Routes<WebhookOperations> {
  return {
    createInstitutionWebhook: {
      handler: async (req, res) => {
        const { nome, url, eventos, tokenAutorizacao, assinado } = req.body;
        const created = await configurations.createConfiguration(ctx, audienceOf(req), {
          name: nome,
          url,
          events: eventos,
          authorizationToken: tokenAutorizacao,
          signed: assinado ?? true,
        });
        res.status(201).json(toInstitutionWebhook(created));
      },
    },
    listInstitutionWebhooks: {
      handler: async (req, res) => {
        const { content } = await configurations.listConfigurations(ctx, recipientOf(req), ALL);
        res.json({ webhooks: content.map(toInstitutionWebhook) });
      },
    },
    getInstitutionWebhook: {
      handler: async (req, res) => {
        res.json(toInstitutionWebhook(await configurations.showConfiguration(ctx, recipientOf(req), req.params.id)));
      },
    },
    updateInstitutionWebhook: {
      handler: async (req, res) => {
        const { nome, url, eventos, tokenAutorizacao, assinado, ativo } = req.body;
        const updated = await configurations.updateConfiguration(ctx, audienceOf(req), req.params.id, {
          name: nome,
          url,
          events: eventos,
          authorizationToken: tokenAutorizacao,
          signed: assinado,
          active: ativo,
        });
        res.json(toInstitutionWebhook(updated));
      },
    },
    deleteInstitutionWebhook: {
      handler: async (req, res) => {
        await configurations.deleteConfiguration(ctx.db, recipientOf(req), req.params.id);
        res.status(204).end();
      },
    },
    testInstitutionWebhook: {
      handler: async (req, res) => {
        const audience = audienceOf(req);
        const samples = await institutionSamples(audience.recipient.id);
        const sent = await sendTestDeliveries(ctx, audience, req.params.id, samples, req.body?.eventos, 'eventos');
        res.status(202).json({
          mensagem: sent.message,
          eventos: sent.events.map((e) => ({ eventoId: e.eventId, evento: e.event })),
        });
      },
    },
    rotateInstitutionWebhookSecret: {
      handler: async (req, res) => {
        const grace = req.body?.periodoGracaSegundos;
        res.json(
          toInstitutionWebhook(await configurations.rotateSigningSecret(ctx, recipientOf(req), req.params.id, grace)),
        );
      },
    },
    listInstitutionWebhookDeliveries: {
      handler: async (req, res) => {
        const { page, limit, status, evento } = req.query;
        const filter = { status: statusOf(status), event: evento };
        const listed = await listDeliveries(ctx.db, recipientOf(req), req.params.id, filter, pageRequest(page, limit));
        res.json({ paging: listed.paging, content: listed.content.map(toInstitutionDelivery) });
      },
    },
    redeliverInstitutionWebhookDelivery: {
      handler: async (req, res) => {
        res.status(202).json(toInstitutionDelivery(await redeliver(ctx, recipientOf(req), req.params.id)));
      },
    },
    listInstitutionEvents: {
      handler: async (req, res) => {
        res.json(await listInstitutionEvents(ctx.db, institutionId(req), req.query));
      },
    },
  };
}
