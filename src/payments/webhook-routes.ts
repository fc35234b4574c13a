import express, { type RequestHandler, Router } from 'express';

import { MethodNotAllowed } from '../core/errors.js';
import type { Database } from '../db/client.js';
import { noteOnRequestLog } from '../http/logging.js';
import { onlyUnder } from '../http/path-prefixes.js';
import type { ProviderWebhook } from './provider.js';

/**
 * The payment provider's events (`POST /psp/stripe/webhook`), outside both API documents and their
 * authentication: the provider's signature of the raw body is the only credential, so the body is
 * kept as its bytes until it is checked. 200 once the event is applied (or was already); 400 with
 * nothing changed when the signature does not hold.
 */
export function providerWebhookRoutes(db: Database, webhook: ProviderWebhook): RequestHandler {
  const router = Router();
  router.post(webhook.path, express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await webhook.receive(db, body, req.get(webhook.signatureHeader));
    noteOnRequestLog(res, { ...outcome }, 'payment provider event');
    res.json({ received: true, ...outcome });
  });
  router.all(webhook.path, (req, _res, next) => next(new MethodNotAllowed(req.method, req.path)));
  // Tried only for its own paths: the router matches a request against each of its routes in turn.
  return onlyUnder([webhook.path], router);
}
