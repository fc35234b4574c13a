import { type Request, Router } from 'express';

import { findTenantKey, issueKey, listTenantKeys, revokeKey } from '../../tenants/credentials.js';
import { PanelPageNotFound } from '../errors.js';
import { sendPage } from '../layout.js';
import { INTEGRATION_PROFILES } from '../navigation.js';
import { oncePerForm } from '../once-per-form.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { requireProfile, sessionOf } from '../session.js';
import { revokeView, TOKEN_FORM, tokenGoneView, TOKENS_PATH, tokenShownView, tokensView } from './pages.js';

const NOTICES = {
  partner: { revogado: 'Token revogado: ele não é mais aceito pela API.' },
  institution: { revogado: 'Chave revogada: ela não é mais aceita pela API.' },
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Settings › Integrations › API Token: a partner's Partner API tokens (Superadmin and Admin) or a
 * university's Institution API keys (Administrador and Integração), issued and revoked with the
 * operator's own code (`tenants/credentials.ts`), so a key made here is the CLI's kind: `pt_` or
 * `ik_` secret, SHA-256 stored, visible prefix.
 */
export function apiTokenPages(panel: PanelContext): Router {
  const router = Router();
  const { db, clock, config, apiKeys } = panel.app;
  const path = TOKENS_PATH.replace(/^\/painel/, '');
  router.use(path, requireProfile(...INTEGRATION_PROFILES));
  const tenantOf = (req: Request) => sessionOf(req).user.tenant;

  const keyOf = async (req: Request) => {
    const id = String(req.params.id);
    const key = UUID.test(id) ? await findTenantKey(db, tenantOf(req), id) : undefined;
    if (!key) throw new PanelPageNotFound();
    return key;
  };

  router.get(path, async (req, res) => {
    const keys = await listTenantKeys(db, tenantOf(req));
    sendPage(req, res, 200, tokensView(req, res, panel, keys, noticeOf(NOTICES[tenantOf(req).kind], req.query.aviso)));
  });

  // Sent twice (a double click), the form issues one token and both answers show it; sent again
  // after the window (see `SECRET_SHOWN_AGAIN_MS`), it names the token without showing it.
  router.post(`${path}/gerar`, async (req, res) => {
    const tenant = tenantOf(req);
    const { result, secret } = await oncePerForm(req, panel, TOKEN_FORM, async (tx) => {
      const issued = await issueKey(tx, tenant, sessionOf(req).user.id);
      return { result: { prefix: issued.prefix }, secret: issued.secret };
    });
    if (secret === undefined) return sendPage(req, res, 409, tokenGoneView(result.prefix));
    sendPage(req, res, 201, tokenShownView(tenant.kind, secret, config.publicBaseUrl));
  });

  router.get(`${path}/:id/revogar`, async (req, res) => {
    sendPage(req, res, 200, revokeView(req, res, panel, await keyOf(req)));
  });

  router.post(`${path}/:id/revogar`, async (req, res) => {
    const key = await keyOf(req);
    await revokeKey(db, { tenant: tenantOf(req), keyId: key.id }, clock.now());
    // Every process hears of it from the database; this one need not wait for the notification.
    apiKeys.forgetKey(key.id);
    res.redirect(303, `${TOKENS_PATH}?aviso=revogado`);
  });
  return router;
}
