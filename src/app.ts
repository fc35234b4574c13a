import express, { type Express } from 'express';

import type { AppContext } from './context.js';
import { loadDocument } from './contract/documents.js';
import { RouteNotFound } from './core/errors.js';
import { migrationsApplied } from './db/migrate.js';
import { createDatabaseProbe } from './db/probe.js';
import { authenticateAnyTenant, authenticateInstitution, authenticatePartner } from './http/auth.js';
import { refuseUnreadEncoding } from './http/content-encoding.js';
import { DatabaseGate } from './http/database-gate.js';
import { docsRouter } from './http/docs.js';
import { errorHandler } from './http/error-handler.js';
import { httpLogger } from './http/logging.js';
import { metricsRouter, requestMetrics } from './http/metrics.js';
import { mountApi } from './http/openapi.js';
import { plainQueryString } from './http/query-string.js';
import { readiness } from './http/readiness.js';
import { rejectMalformedPath } from './http/request-path.js';
import { noStore, securityHeaders } from './http/security-headers.js';
import { traceRequests } from './http/tracing.js';
import { paymentPages } from './institution/payments/page-routes.js';
import { institutionRoutes } from './institution/routes.js';
import { panelPages } from './panel/routes.js';
import { receiptInvoicePages } from './partner/receipts/invoice-routes.js';
import { sandboxReceiptsApi } from './partner/receipts/sandbox-receipts-routes.js';
import { partnerRoutes } from './partner/routes.js';
import { checkoutPages } from './partner/sales/checkout/checkout-routes.js';
import { sandboxSalesApi } from './partner/sales/checkout/sandbox-sales-routes.js';
import { storefrontPages } from './partner/storefront/page-routes.js';
import { chargeOwnership } from './payment-wiring.js';
import { sandboxApi } from './payments/sandbox-routes.js';
import { providerWebhookRoutes } from './payments/webhook-routes.js';
import { tracingOn } from './telemetry/tracing.js';
import { watchKeyChanges } from './tenants/key-changes.js';

export interface AppOptions {
  /** Answers 503 while the database is unreachable. (Default: one probing `ctx.databaseUrl`) */
  gate?: DatabaseGate;
}

/**
 * The application of `METRICS_PORT`: `GET /metrics` and `GET /health` only, for the scrapers of a
 * process that serves no API (the worker role) or keeps its metrics off the public port.
 */
export function createMetricsApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(httpLogger(ctx.logger), requestMetrics(ctx.metrics));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(metricsRouter(ctx));
  app.use((req, _res, next) => next(new RouteNotFound(req.method, req.path)));
  app.use(errorHandler());
  return app;
}

/** The HTTP application: both APIs, each validated against its own OpenAPI document, and their docs. */
export async function createApp(ctx: AppContext, options: AppOptions = {}): Promise<Express> {
  const app = express();
  app.disable('x-powered-by');
  // Explicit, as Express 5's default: `a[b]=1` stays the name `a[b]`, never an object.
  app.set('query parser', 'simple');
  // `req.ip` (the receipts rate limit) reads X-Forwarded-For only from the proxies named here.
  app.set('trust proxy', ctx.config.trustProxy.length ? ctx.config.trustProxy : false);
  // First, so that everything after it, the request's log line included, runs in its span.
  if (tracingOn()) app.use(traceRequests());
  app.use(httpLogger(ctx.logger), requestMetrics(ctx.metrics));
  app.use(securityHeaders(ctx.config));
  app.use(refuseUnreadEncoding);

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const gate = options.gate ?? new DatabaseGate(createDatabaseProbe(ctx.databaseUrl), ctx.logger);
  app.get(
    '/ready',
    readiness(gate, () => migrationsApplied(ctx.db)),
  );

  // Prometheus metrics of this process: outside both APIs, behind METRICS_TOKEN when set.
  app.use(metricsRouter(ctx));

  // Reference pages and raw documents: outside both APIs, no authentication.
  app.use(docsRouter());

  // Everything below needs the database.
  app.use(gate.middleware());

  // Hosted pages (HTML) first: they answer a malformed link with a page of their own.
  app.use(paymentPages(ctx));
  app.use(checkoutPages(ctx), receiptInvoicePages(ctx), storefrontPages(ctx));
  // The partner panel (`/painel`): its own sessions, form checks and error pages.
  app.use(panelPages(ctx));
  // The provider's events: signed by the provider, outside both documents and their keys.
  if (ctx.payments.webhook) app.use(providerWebhookRoutes(ctx.db, ctx.payments.webhook));

  // Everything below answers JSON, personal data included: the APIs, the sandbox's and the 404s.
  app.use(rejectMalformedPath, plainQueryString, noStore);
  // Not awaited: until the LISTEN is in place (postgres.js keeps trying) every key is looked up.
  watchKeyChanges(ctx.sql, ctx.apiKeys).catch((error: unknown) =>
    ctx.logger.warn({ err: error }, 'not listening for key changes yet: every API key is looked up on every request'),
  );
  const [institution, partner] = await Promise.all([loadDocument('institution'), loadDocument('partner')]);
  const validateResponses = ctx.config.validateResponses;
  app.use(
    mountApi({
      doc: institution,
      authenticate: authenticateInstitution(ctx.db, ctx.apiKeys, ctx.clock),
      routes: institutionRoutes(ctx),
      validateResponses,
    }),
  );
  app.use(
    mountApi({
      doc: partner,
      authenticate: authenticatePartner(ctx.db, ctx.apiKeys, ctx.clock),
      routes: partnerRoutes(ctx),
      validateResponses,
    }),
  );

  // The sandbox operator API (charges, sales, receipts): outside both documents, and only with the
  // sandbox provider, which production refuses.
  const sandbox = ctx.payments.sandbox;
  // Each route reaches only what belongs to the tenant of the Api-Token (or apikey) it is called with.
  if (sandbox) {
    app.use('/sandbox', authenticateAnyTenant(ctx.db, ctx.apiKeys, ctx.clock));
    app.use(sandboxApi(ctx, sandbox, chargeOwnership(ctx.db)), sandboxSalesApi(ctx), sandboxReceiptsApi(ctx));
  }

  app.use((req, _res, next) => next(new RouteNotFound(req.method, req.path)));
  app.use(errorHandler({ onConnectionLoss: () => gate.suspect() }));
  return app;
}
