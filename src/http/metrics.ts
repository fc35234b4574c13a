import { createHash, timingSafeEqual } from 'node:crypto';

import { type Request, type RequestHandler, type Response, Router } from 'express';

import type { AppContext } from '../context.js';
import { ApiError } from '../core/errors.js';
import { refreshDatabaseGauges } from '../metrics/database-gauges.js';
import type { Metrics } from '../metrics/metrics.js';

export class MetricsTokenRequired extends ApiError {
  constructor() {
    super(401, 'METRICS-001', 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>', undefined, {
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
  }
}

/** Marks the request as one of an API operation: its metrics are labelled by the operationId. */
export const operationLabel =
  (operationId: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.operation = operationId;
    next();
  };

/**
 * What a request is counted as: its operationId, else the method and route template of the
 * route that answered (`GET /pay/:token`), else `unmatched`: never the raw path, so that the
 * number of series stays bounded whatever clients send.
 */
export function operationOf(req: Request, res: Response): string {
  if (typeof res.locals.operation === 'string') return res.locals.operation;
  // Every router is mounted at the root, so a route's path is its whole template; `req.baseUrl`
  // is not read: after a nested middleware answered, it may hold the raw path.
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? `${req.method} ${route}` : 'unmatched';
}

/** Times every request, from its arrival to the last byte of its answer. */
export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const end = metrics.httpRequestDuration.startTimer();
    res.once('finish', () => end({ operation: operationOf(req, res), status: String(res.statusCode) }));
    next();
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`, outside both API documents: the Prometheus text of this process. With
 * `METRICS_TOKEN` set it asks for `Authorization: Bearer <token>`; without it the route is open
 * outside production and not mounted in production.
 */
export function metricsRouter(ctx: AppContext): Router {
  const router = Router();
  const token = ctx.config.metricsToken;
  if (!token && ctx.config.env === 'production') return router;
  const expected = token ? digest(token) : undefined;
  ctx.metrics.collectProcessMetrics();
  router.get('/metrics', async (req, res) => {
    if (expected) {
      const sent = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
      if (!sent || !timingSafeEqual(digest(sent), expected)) throw new MetricsTokenRequired();
    }
    await refreshDatabaseGauges(ctx.metrics, ctx.sql, ctx.config.dbPoolMax);
    res
      .set('Cache-Control', 'no-store')
      .type(ctx.metrics.registry.contentType)
      .send(await ctx.metrics.registry.metrics());
  });
  return router;
}
