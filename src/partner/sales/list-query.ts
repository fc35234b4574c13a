import type { RequestHandler } from 'express';

/** The array parameters of the sales list; every other parameter is read as one string. */
const ARRAY_PARAMETERS = new Set(['status', 'cridOrigin', 'courseId', 'productType', 'creator', 'campaign']);

/**
 * The sales list ignores parameters of the wrong type instead of refusing them (spec rule 3):
 * before validation, a repeated single-value parameter keeps its first value. Express 5 exposes
 * `req.query` as a getter, so the cleaned copy is defined on the request itself.
 */
export const lenientSalesQuery: RequestHandler = (req, _res, next) => {
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    query[name] = Array.isArray(value) && !ARRAY_PARAMETERS.has(name) ? value[0] : value;
  }
  Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
  next();
};
