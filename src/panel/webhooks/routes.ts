import { type ErrorRequestHandler, type Request, Router } from 'express';

import { isUuid } from '../../core/stable-id.js';
import { showConfiguration } from '../../webhooks/configurations.js';
import { WebhookConfigurationNotFound, WebhookDeliveryNotFound } from '../../webhooks/errors.js';
import { PanelPageNotFound } from '../errors.js';
import { WEBHOOK_PROFILES } from '../navigation.js';
import type { PanelContext } from '../panel-context.js';
import { requireProfile } from '../session.js';
import { cataloguePage } from './catalogue-page.js';
import { configurationRoutes } from './configuration-routes.js';
import { deliveryRoutes } from './delivery-routes.js';
import { secretRoutes } from './secret-routes.js';
import { tenantWebhooks } from './tenant.js';

/**
 * `/painel/webhooks`, the App Portal of the signed-in tenant's webhooks (a partner's or a
 * university's): configurations, the test with a checklist of events, the delivery log with each
 * attempt, redelivery, the signing secret, the catalogue of events. Every page calls the engine's
 * services with the tenant and the vocabulary of its API, as that API's routes do. Only those who
 * hold the API keys (as Stripe keeps webhooks in its developer settings): a Vendedor sells and a
 * Financeiro reads payments, while a webhook's log holds every event's personal data.
 */
export function webhookPages(panel: PanelContext): Router {
  const router = Router();
  router.use('/webhooks', requireProfile(...WEBHOOK_PROFILES));
  // Ids that are no UUID name nothing: refused before any query.
  for (const name of ['id', 'deliveryId'])
    router.param(name, (req, _res, next, value: string) => next(isUuid(value) ? undefined : new PanelPageNotFound()));

  const configurationOf = (req: Request) =>
    showConfiguration(panel.app, tenantWebhooks(req).audience.recipient, String(req.params.id));

  router.get('/webhooks/eventos', cataloguePage());
  configurationRoutes(router, panel, configurationOf);
  deliveryRoutes(router, panel, configurationOf);
  secretRoutes(router, panel, configurationOf);

  // Another tenant's configuration or delivery is answered as a missing page, as the API does.
  const notFound: ErrorRequestHandler = (error, _req, _res, next) =>
    next(
      error instanceof WebhookConfigurationNotFound || error instanceof WebhookDeliveryNotFound
        ? new PanelPageNotFound()
        : error,
    );
  router.use(notFound);
  return router;
}
