import type { RequestHandler } from 'express';

/**
 * Replaces the request's parsed query with what `read` makes of it, before validation (a list that
 * reads its parameters leniently). Express 5 exposes `req.query` as a getter, so the new query is
 * defined on the request itself.
 */
export function rewriteQuery(read: (query: Record<string, unknown>) => Record<string, unknown>): RequestHandler {
  return (req, _res, next) => {
    const query = read(req.query as Record<string, unknown>);
    Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    next();
  };
}
