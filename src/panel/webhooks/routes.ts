import { type ErrorRequestHandler, type Request, Router } from 'express';

import { isUuid } from '../../core/stable-id.js';
import { showConfiguration } from '../../partner/webhooks/configurations.js';
import { WebhookConfigurationNotFound, WebhookDeliveryNotFound } from '../../webhooks/errors.js';
import { PanelPageNotFound } from '../errors.js';
import type { PanelContext } from '../panel-context.js';
import { partnerOf, requireProfile } from '../session.js';
import { cataloguePage } from './catalogue-page.js';
import { configurationRoutes } from './configuration-routes.js';
import { deliveryRoutes } from './delivery-routes.js';
import { secretRoutes } from './secret-routes.js';

/**
 * `/painel/webhooks`, the App Portal of the partner's webhooks:
 * configurations, the test with a checklist of events, the delivery log with each attempt,
 * redelivery, the signing secret, the catalogue of events. Every page calls the services of the
 * Partner API's `/webhooks` routes with the signed-in user's partner. Superadmin and Admin only,
 * those who hold the API tokens (as Stripe keeps webhooks in its developer settings): a Vendedor
 * sells, and a webhook's log holds every sale's buyer data.
 */
export function webhookPages(panel: PanelContext): Router {
  const router = Router();
  router.use('/webhooks', requireProfile('superadmin', 'admin'));
  // Ids that are no UUID name nothing: refused before any query.
  for (const name of ['id', 'deliveryId'])
    router.param(name, (req, _res, next, value: string) => next(isUuid(value) ? undefined : new PanelPageNotFound()));

  const configurationOf = (req: Request) => showConfiguration(panel.app, partnerOf(req), String(req.params.id));

  router.get('/webhooks/eventos', cataloguePage());
  configurationRoutes(router, panel, configurationOf);
  deliveryRoutes(router, panel, configurationOf);
  secretRoutes(router, panel, configurationOf);

  // Another partner's configuration or delivery is answered as a missing page, as the API does.
  const notFound: ErrorRequestHandler = (error, _req, _res, next) =>
    next(
      error instanceof WebhookConfigurationNotFound || error instanceof WebhookDeliveryNotFound
        ? new PanelPageNotFound()
        : error,
    );
  router.use(notFound);
  return router;
}
