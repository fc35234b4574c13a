import type { RequestHandler } from 'express';

import { ValidationFailed } from '../core/errors.js';

const notFinite = (value: unknown): boolean =>
  typeof value === 'number' ? !Number.isFinite(value) : Array.isArray(value) && value.some(notFinite);

/**
 * The validator coerces path and query text to numbers before checking them, and `1e999` becomes
 * Infinity, which no code below it can use (a query with it fails in PostgreSQL). A value that is
 * not a finite number after coercion is the client's error.
 */
export const rejectNonFiniteNumbers: RequestHandler = (req, _res, next) => {
  const bad = [
    ...Object.entries(req.params ?? {}).map(([name, value]) => ({ path: `path.${name}`, value })),
    ...Object.entries((req.query ?? {}) as Record<string, unknown>).map(([name, value]) => ({
      path: `query.${name}`,
      value,
    })),
  ].filter(({ value }) => notFinite(value));
  if (bad.length === 0) return next();
  next(
    new ValidationFailed(
      'A number of the request is beyond any finite value',
      bad.map(({ path }) => ({ path, message: 'must be a finite number' })),
    ),
  );
};
