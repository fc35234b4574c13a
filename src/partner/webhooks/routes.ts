import type { operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { pageRequest } from '../../core/paging.js';
import { partnerId } from '../../http/auth.js';
import type { Routes } from '../../http/typed.js';
import {
  createConfiguration,
  deleteConfiguration,
  listConfigurations,
  rotateSigningSecret,
  updateConfiguration,
} from './configurations.js';
import { listDeliveries, redeliver } from './deliveries.js';
import {
  createLegacyConfiguration,
  deleteLegacyConfiguration,
  listLegacyConfigurations,
  retryLegacyDispatches,
} from './legacy.js';
import { sendTestDeliveries } from './test-events.js';

/** Handlers of the webhook routes, current and legacy, by operationId. */
export function webhookRoutes(ctx: AppContext): Routes<operations> {
  return {
    createWebhookConfiguration: {
      handler: async (req, res) => {
        res.status(201).json(await createConfiguration(ctx, partnerId(req), req.body));
      },
    },
    listWebhookConfigurations: {
      handler: async (req, res) => {
        res.json(await listConfigurations(ctx, partnerId(req), pageRequest(req.query.page, req.query.limit)));
      },
    },
    updateWebhookConfiguration: {
      handler: async (req, res) => {
        res.json(await updateConfiguration(ctx, partnerId(req), req.params.id, req.body));
      },
    },
    deleteWebhookConfiguration: {
      handler: async (req, res) => {
        await deleteConfiguration(ctx.db, partnerId(req), req.params.id);
        res.status(204).end();
      },
    },
    testWebhookConfiguration: {
      handler: async (req, res) => {
        res.status(202).json(await sendTestDeliveries(ctx, partnerId(req), req.params.id));
      },
    },
    rotateWebhookSigningSecret: {
      handler: async (req, res) => {
        res.json(await rotateSigningSecret(ctx, partnerId(req), req.params.id, req.body?.gracePeriodSeconds));
      },
    },
    listWebhookDeliveries: {
      handler: async (req, res) => {
        const { page, limit, status, event } = req.query;
        res.json(
          await listDeliveries(ctx.db, partnerId(req), req.params.id, { status, event }, pageRequest(page, limit)),
        );
      },
    },
    redeliverWebhookDelivery: {
      handler: async (req, res) => {
        res.status(202).json(await redeliver(ctx, partnerId(req), req.params.id));
      },
    },
    createLegacyWebhookConfiguration: {
      handler: async (req, res) => {
        res.status(201).json(await createLegacyConfiguration(ctx, partnerId(req), req.body));
      },
    },
    listLegacyWebhookConfigurations: {
      handler: async (req, res) => {
        res.json(await listLegacyConfigurations(ctx.db, partnerId(req)));
      },
    },
    deleteLegacyWebhookConfiguration: {
      handler: async (req, res) => {
        await deleteLegacyConfiguration(ctx.db, partnerId(req), req.params.id);
        res.status(204).end();
      },
    },
    retryLegacyWebhookDispatches: {
      handler: async (req, res) => {
        res.json(await retryLegacyDispatches(ctx, partnerId(req), req.body.webhookIds));
      },
    },
  };
}
