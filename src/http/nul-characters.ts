import type { RequestHandler } from 'express';
import { ValidationFailed } from './errors.js';

/**
 * Path of the first string holding U+0000 in a parsed value, from `path`: `body.courses[0].name`
 * from `body`, `courses[0].name` from `''` (a member name holding it gives its object's path).
 */
export function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(key, path) ?? findNul(item, path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const NUL_SEEN = Symbol('body may hold NUL');

/**
 * `verify` hook of the JSON body parser: a NUL in a JSON text is written `\u0000` (or, invalid, as
 * a raw byte), so a body without either holds none, and the walk of its (perhaps 10,000-item)
 * tree, a tenth of a second, is skipped.
 */
export function scanBodyForNul(req: object, _res: unknown, buffer: Buffer): void {
  (req as Record<symbol, boolean>)[NUL_SEEN] = buffer.indexOf('\\u0000') >= 0 || buffer.indexOf(0) >= 0;
}

/** Unless the raw body was scanned clean, the parsed one is walked. */
const mayHoldNul = (req: object) => (req as Record<symbol, boolean | undefined>)[NUL_SEEN] !== false;

/**
 * PostgreSQL text cannot hold U+0000: refuse it up front with VALIDATION-001 naming the field,
 * rather than letting the database fail the request with a 500.
 */
export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  const path = (mayHoldNul(req) ? findNul(req.body, 'body') : undefined) ?? findNul(req.query, 'query') ?? findNul(req.params, 'params');
  if (!path) return next();
  next(new ValidationFailed(`The request does not match the contract: ${path} contains the NUL character`, [{ path, message: 'must not contain the NUL character (\\u0000)' }]));
};
