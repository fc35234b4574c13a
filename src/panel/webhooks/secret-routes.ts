import type { Request, Router } from 'express';

import { readFields } from '../../pages/form-values.js';
import { revealSigningSecret, rotateSigningSecret } from '../../webhooks/configurations.js';
import { sendPage } from '../layout.js';
import { oncePerForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import type { WebhookConfiguration } from './configuration-pages.js';
import { refusalNotice, unlessRefused } from './refusals.js';
import { rotationForm, rotationGoneView, secretShownView, secretView } from './secret-pages.js';
import { tenantWebhooks } from './tenant.js';

/**
 * The signing secret: revealed only in the answer to a POST (a confirmation carrying the form
 * token; no GET ever shows it, and no panel page is cached), and rotated with the API's grace
 * period, during which the previous secret signs too.
 */
export function secretRoutes(
  router: Router,
  panel: PanelContext,
  configurationOf: (req: Request) => Promise<WebhookConfiguration>,
): void {
  const ctx = panel.app;

  router.get('/webhooks/:id/assinatura', async (req, res) => {
    sendPage(req, res, 200, secretView(req, res, panel, await configurationOf(req)));
  });

  router.post('/webhooks/:id/assinatura/revelar', async (req, res) => {
    const c = await configurationOf(req);
    await unlessRefused(
      async () => {
        const secret = await revealSigningSecret(ctx, tenantWebhooks(req).audience.recipient, c.id);
        sendPage(req, res, 200, secretShownView(c, secret, false));
      },
      (errors) => sendPage(req, res, 400, secretView(req, res, panel, c, { notice: refusalNotice(errors) })),
    );
  });

  router.post('/webhooks/:id/assinatura/trocar', async (req, res) => {
    const c = await configurationOf(req);
    const { gracePeriodSeconds } = readFields(req, ['gracePeriodSeconds']);
    // As JSON would carry it: a number when the field holds one, the text otherwise (refused by the contract).
    const grace: unknown = /^\d{1,9}$/.test(gracePeriodSeconds) ? Number(gracePeriodSeconds) : gracePeriodSeconds;
    const tenant = tenantWebhooks(req);
    await unlessRefused(
      async () => {
        await tenant.checkRotation(grace);
        // One rotation per filled form: a second one would cut short the grace of the secret the
        // receivers still verify with. Sent twice, both answers show the one new secret.
        const { secret } = await oncePerForm(req, panel, rotationForm(c.id), async (tx) => {
          const rotated = await rotateSigningSecret(ctx, tenant.audience.recipient, c.id, grace as number, tx);
          return { result: {}, secret: rotated.signingSecret! };
        });
        const rotated = await configurationOf(req);
        if (secret === undefined) return sendPage(req, res, 409, rotationGoneView(rotated));
        sendPage(req, res, 200, secretShownView(rotated, secret, true));
      },
      (errors) => {
        const state = errors.form ? { notice: refusalNotice(errors) } : { errors };
        sendPage(req, res, 400, secretView(req, res, panel, c, state));
      },
    );
  });
}
