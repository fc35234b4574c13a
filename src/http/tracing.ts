import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Request, RequestHandler } from 'express';

import { tracer } from '../telemetry/tracing.js';
import { operationOf } from './metrics.js';

/** Probes and scrapes: many a minute, and nothing to follow in a trace. */
const UNTRACED = new Set(['/health', '/ready', '/metrics']);

const routeOf = (req: Request): string | undefined => {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? route : undefined;
};

/**
 * One server span per request, named when the response is done by its operationId
 * (`createCheckoutSale`), else its method and route template (`POST /checkout/:token/pix`), else
 * its method: never the raw path, which may hold a token. The span is active for everything the
 * request does (handlers, statements, the jobs it adds, the request's log line: mount it before the
 * logger). Node runs the listeners of a request's and a response's events in the connection's
 * context, outside the span: Express's body parsers bind theirs (raw-body), and binding the two
 * emitters here covers any other.
 *
 * A caller's `traceparent` is linked, not followed: a client neither puts our spans in a trace of
 * its own nor turns our sampling off.
 */
export function traceRequests(): RequestHandler {
  return (req, res, next) => {
    if (UNTRACED.has(req.path)) return next();
    const remote = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, req.headers));
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method },
        links: remote ? [{ context: remote }] : [],
      },
      ROOT_CONTEXT,
    );
    const active = trace.setSpan(ROOT_CONTEXT, span);
    context.bind(active, req);
    context.bind(active, res);
    res.once('close', () => {
      const operation = operationOf(req, res);
      span.updateName(operation === 'unmatched' ? req.method : operation);
      const route = routeOf(req);
      if (route) span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      // The client left before the whole answer was written.
      if (!res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', 'aborted');
      span.end();
    });
    context.with(active, next);
  };
}
