import type { RequestHandler } from 'express';

import { ValidationFailed } from '../core/errors.js';

/**
 * Whether every segment of a raw request path decodes (`%zz` does not, nor `%ED%A0%80`, which would
 * be a lone surrogate) to text without U+0000. The router decodes path parameters itself and
 * throws on the former; PostgreSQL refuses the latter.
 */
export function isReadablePath(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    return !decodeURIComponent(path).includes('\u0000');
  } catch {
    return false;
  }
}

/** Refuses a path the router could not decode, or one holding NUL, with VALIDATION-001 naming the path. */
export const rejectMalformedPath: RequestHandler = (req, _res, next) => {
  if (isReadablePath(req.path)) return next();
  next(
    new ValidationFailed('The request path is not valid percent-encoded UTF-8 text (or holds %00)', [
      { path: 'path', message: 'must be percent-encoded UTF-8 without %00' },
    ]),
  );
};
